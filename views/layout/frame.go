// Package layout renders the frame every page shares: the document head, the
// top bar, the footer and the flash message. Views are pure: they read the
// Frame view model and call no service.
package layout

import (
	"github.com/a-h/templ"

	"github.com/nocturne/storefront/internal/shop"
)

// Frame is what the shared frame needs to know about the current request.
type Frame struct {
	ShopName    string
	CareersURL  string
	Title       string // page title, without the shop name
	Description string // meta description
	CSSURL      string
	// InlineCSS is the whole stylesheet, put in the head so the first paint
	// needs no second request; when empty, the page links CSSURL instead.
	InlineCSS string
	IconURL   string
	// ScriptURL is the islands entry script; set only on pages that mount an
	// island or enhance a form, so every other page ships no JavaScript.
	ScriptURL string
	// LiveCart mounts the cart badge island, on pages where the cart can
	// change without a page load.
	LiveCart    bool
	User        *shop.CurrentUser
	CartCount   int
	Flash       string
	FlashError  bool   // the flash reports a problem
	CurrentPath string // path and query of this page, for "from" links
	Year        int
	// Canonical is the page's one URL (absolute), when it has one.
	Canonical string
	// OGImage and OGType describe the page to link previews.
	OGImage string
	OGType  string
	// Head holds extra head elements, such as a product's JSON-LD.
	Head templ.Component
}

// HasIslands reports whether the page loads the islands script.
func (f Frame) HasIslands() bool { return f.ScriptURL != "" }

// FullTitle is the document title.
func (f Frame) FullTitle() string {
	if f.Title == "" {
		return f.ShopName
	}
	return f.Title + " | " + f.ShopName
}
