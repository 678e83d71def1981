package catalogcsv

import (
	"strings"

	"github.com/microcosm-cc/bluemonday"
)

// bodyPolicy is the allow-list for product descriptions. A catalogue file
// comes from outside the shop, so its HTML is treated as hostile: only
// text structure and plain links survive. Built once; a bluemonday Policy
// is safe for concurrent use once built.
var bodyPolicy = func() *bluemonday.Policy {
	p := bluemonday.NewPolicy()
	p.AllowElements("p", "br", "strong", "b", "em", "i", "ul", "ol", "li",
		"h2", "h3", "h4", "blockquote")
	p.AllowAttrs("href").OnElements("a")
	p.AllowURLSchemes("http", "https", "mailto")
	p.AllowRelativeURLs(false)
	p.RequireParseableURLs(true)
	p.RequireNoFollowOnLinks(true)
	return p
}()

// SanitizeBody returns html reduced to the product description allow-list:
// p, br, strong, b, em, i, ul, ol, li, h2 to h4, blockquote, and a with an
// http, https or mailto href, which gets rel="nofollow noopener". Every
// other tag is dropped (its text kept, except for script, style and
// similar, whose content goes too), as are all other attributes.
func SanitizeBody(html string) string {
	out := bodyPolicy.Sanitize(html)
	// bluemonday adds rel="nofollow" itself but has no switch for
	// noopener outside target="_blank". No rel attribute is allowed in, and
	// text and attribute values come out with their quotes escaped, so
	// this exact text can only be the attribute bluemonday just added.
	return strings.ReplaceAll(out, ` rel="nofollow"`, ` rel="nofollow noopener"`)
}
