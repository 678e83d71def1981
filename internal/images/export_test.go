package images

import "context"

// PublicAddr exposes publicAddr to the tests.
var PublicAddr = publicAddr

// RedactURL exposes redactURL to the tests.
var RedactURL = redactURL

// SetHook makes hook run while each photo s processes holds its
// processing slot, so tests can hold photos there.
func SetHook(s *Service, hook func(context.Context)) { s.hook = hook }
