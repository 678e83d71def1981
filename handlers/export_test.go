package handlers

import "github.com/nocturne/storefront/handlers/admin"

// MaxUpload is the largest product photo, for tests of the limits.
const MaxUpload = admin.MaxUpload
