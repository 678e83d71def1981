package handlers

// MaxUpload is the largest product photo, for tests of the limits.
const MaxUpload = maxUpload
