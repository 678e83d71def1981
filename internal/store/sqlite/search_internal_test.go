package sqlite

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/nocturne/storefront/internal/shop"
)

// firstK must give exactly the first k of a full sort, with the heap (k
// small) and without it, ties included.
func TestFirstK(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 2, 7, 100, 5000} {
		for _, k := range []int{1, 3, 12, n / 5, n} {
			if k < 1 || k > n {
				continue
			}
			m := make([]match, n)
			for i := range m {
				m[i] = match{key: int64(i), score: float64(r.IntN(20)), price: shop.Cents(r.IntN(50)), rank: int32(r.IntN(n))}
			}
			for _, sort := range []string{shop.SortRelevance, shop.SortPriceAsc, shop.SortPriceDesc} {
				less := order(sort)
				want := slices.Clone(m)
				slices.SortStableFunc(want, less)
				got := firstK(slices.Clone(m), k, less)
				for i := range k {
					if less(got[i], want[i]) != 0 {
						t.Fatalf("n=%d k=%d %q: position %d is %+v, want %+v", n, k, sort, i, got[i], want[i])
					}
				}
			}
		}
	}
}

func TestIntersect(t *testing.T) {
	t.Parallel()
	h := func(pairs ...float64) []searchHit {
		var out []searchHit
		for i := 0; i < len(pairs); i += 2 {
			out = append(out, searchHit{Key: int64(pairs[i]), Score: pairs[i+1]})
		}
		return out
	}
	tests := []struct {
		name  string
		lists [][]searchHit
		want  []searchHit
	}{
		{"one list", [][]searchHit{h(1, -1, 5, -2)}, h(1, -1, 5, -2)},
		{"two lists", [][]searchHit{h(1, -1, 3, -1, 5, -2, 9, -1), h(3, -0.5, 4, -1, 9, -2)}, h(3, -1.5, 9, -3)},
		{"three lists", [][]searchHit{h(1, -1, 2, -1, 3, -1), h(2, -1, 3, -1), h(3, -1, 4, -1)}, h(3, -3)},
		{"disjoint", [][]searchHit{h(1, -1, 2, -1), h(3, -1)}, nil},
		{"one empty", [][]searchHit{h(1, -1), nil}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := intersect(tt.lists)
			if !slices.EqualFunc(got, tt.want, func(a, b searchHit) bool { return a.Key == b.Key && cmp.Compare(a.Score, b.Score) == 0 }) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}
