package images

// PublicAddr exposes publicAddr to the tests.
var PublicAddr = publicAddr
