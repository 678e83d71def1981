package shop

import (
	"strconv"
	"strings"
)

// Cents is an amount of money in US cents. Money is never a float: sums and
// percentages stay exact.
type Cents int64

// String formats c as dollars, e.g. 1234567 -> "$12,345.67".
func (c Cents) String() string {
	neg := c < 0
	if neg {
		c = -c
	}
	dollars := strconv.FormatInt(int64(c)/100, 10)
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	b.WriteByte('$')
	for i, r := range dollars {
		if i > 0 && (len(dollars)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	cents := int64(c) % 100
	b.WriteByte('.')
	b.WriteByte(byte('0' + cents/10))
	b.WriteByte(byte('0' + cents%10))
	return b.String()
}

// Whole formats c without the cents when there are none: "$50", "$12.50".
func (c Cents) Whole() string {
	s := c.String()
	return strings.TrimSuffix(s, ".00")
}
