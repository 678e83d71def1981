package images

// PublicAddr exposes publicAddr to the tests.
var PublicAddr = publicAddr

// RedactURL exposes redactURL to the tests.
var RedactURL = redactURL
