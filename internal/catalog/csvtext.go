package catalog

import (
	"html"
	"strings"
)

// blockTags are the tags of the description allow-list
// (catalogcsv.SanitizeBody) that start a new line of text.
var blockTags = map[string]bool{"p": true, "br": true, "li": true, "ul": true, "ol": true,
	"h2": true, "h3": true, "h4": true, "blockquote": true}

// TextOfHTML is the text of a sanitised description, for search, meta
// descriptions and the product editor: tags dropped, entities decoded, a
// line per paragraph, list item or heading, runs of spaces made one.
//
// It is meant for the sanitiser's output, which, like any serialised
// HTML, escapes every "<" in text and ">" in attribute values, so a tag
// runs from "<" to the next ">". Anything else still gives text, only less
// tidy.
func TextOfHTML(s string) string {
	var b strings.Builder
	for s != "" {
		lt := strings.IndexByte(s, '<')
		if lt < 0 {
			b.WriteString(html.UnescapeString(s))
			break
		}
		b.WriteString(html.UnescapeString(s[:lt]))
		gt := strings.IndexByte(s[lt:], '>')
		if gt < 0 {
			b.WriteString(html.UnescapeString(s[lt:]))
			break
		}
		name := strings.TrimPrefix(s[lt+1:lt+gt], "/")
		if i := strings.IndexAny(name, " \t\n/"); i >= 0 {
			name = name[:i]
		}
		if blockTags[strings.ToLower(name)] {
			b.WriteByte('\n')
		}
		s = s[lt+gt+1:]
	}
	var lines []string
	for _, line := range strings.Split(b.String(), "\n") {
		if line = strings.Join(strings.Fields(line), " "); line != "" {
			lines = append(lines, line)
		}
	}
	return strings.Join(lines, "\n")
}

// HTMLOfText writes a plain description as HTML for a file: a paragraph
// per block of lines, a <br> between lines, everything escaped. TextOfHTML
// gives the text back, with its spaces tidied.
func HTMLOfText(s string) string {
	s = strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
	var out []string
	for _, para := range strings.Split(s, "\n\n") {
		if para = strings.TrimSpace(para); para != "" {
			out = append(out, "<p>"+strings.ReplaceAll(html.EscapeString(para), "\n", "<br>")+"</p>")
		}
	}
	return strings.Join(out, "\n")
}
