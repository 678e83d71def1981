package catalog

import "github.com/nocturne/storefront/internal/shop"

// spellingVariants maps words shoppers type to the catalogue's own word for
// them. FakeStore (and so the built-in catalogue) spells the category
// "jewelery", while the shop shows it as "Jewelry" everywhere: a search for
// the name on the screen, or its British spelling, must find its products.
var spellingVariants = map[string]string{
	"jewelry":     "jewelery",
	"jewellery":   "jewelery",
	"jewelries":   "jewelery",
	"jewelleries": "jewelery",
	"jewlery":     "jewelery",
	"jewelery":    "jewelery",
}

// displayWords are catalogue words as a suggestion shows them: the shop's
// spelling, which now searches the same.
var displayWords = map[string]string{"jewelery": "jewelry"}

// searchWords are the words a query searches for: shop.SearchWords with
// each spelling variant replaced by the catalogue's word.
func searchWords(q string) []string {
	words := shop.SearchWords(q)
	out := words[:0]
	for _, w := range words {
		if v, ok := spellingVariants[w]; ok {
			w = v
		}
		if !contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

func contains(words []string, w string) bool {
	for _, x := range words {
		if x == w {
			return true
		}
	}
	return false
}

// knownVariant reports whether w is a spelling the search understands.
func knownVariant(w string) bool {
	_, ok := spellingVariants[w]
	return ok
}

// suggestDistance is how many typos a suggestion may fix in w: one in a
// short word, two from eight letters on. Two edits turn most short words
// into other words ("cheap" into "cap"), which no shopper meant.
func suggestDistance(w string) int {
	if len([]rune(w)) >= 8 {
		return maxSuggestDistance
	}
	return 1
}

// suggestionWord is how a corrected word is shown.
func suggestionWord(t string) string {
	if d, ok := displayWords[t]; ok {
		return d
	}
	return t
}
