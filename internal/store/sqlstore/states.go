package sqlstore

import "strings"

// stateIn writes column IN (?, …) for states, with its arguments, so a
// conditional update's "from" states are read from a transition table of
// package shop (shop.OrderMoves.From(to)) instead of being spelled here
// again. The arguments are plain strings: what each driver binds the
// same way. An empty list matches nothing, as no move does.
func stateIn[S ~string](column string, states []S) (string, []any) {
	if len(states) == 0 {
		return "FALSE", nil
	}
	args := make([]any, len(states))
	for i, st := range states {
		args[i] = string(st)
	}
	return column + " IN (?" + strings.Repeat(", ?", len(states)-1) + ")", args
}
