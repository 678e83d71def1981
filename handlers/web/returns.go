package web

import (
	"github.com/nocturne/storefront/internal/returns"
	"github.com/nocturne/storefront/views/components"
)

// ReturnReasons are the return reasons as a select's choices, for the
// shopper's return form and the pages that name a request's reason.
func ReturnReasons() []components.Choice {
	out := make([]components.Choice, len(returns.Reasons))
	for i, r := range returns.Reasons {
		out[i] = components.Choice{Value: r.Code, Label: r.Label}
	}
	return out
}
