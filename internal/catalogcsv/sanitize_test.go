package catalogcsv_test

import (
	"testing"

	"github.com/nocturne/storefront/internal/catalogcsv"
)

func TestSanitizeBody(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
	}{
		{"plain text", "Soft & warm", "Soft &amp; warm"},
		{"allowed tags kept",
			"<h2>Care</h2><p><strong>Wash</strong> <b>cold</b>, <em>dry</em> <i>flat</i>.<br></p><ul><li>a</li></ul><ol><li>b</li></ol><h3>c</h3><h4>d</h4><blockquote>e</blockquote>",
			"<h2>Care</h2><p><strong>Wash</strong> <b>cold</b>, <em>dry</em> <i>flat</i>.<br></p><ul><li>a</li></ul><ol><li>b</li></ol><h3>c</h3><h4>d</h4><blockquote>e</blockquote>"},
		{"script removed with its content", `<p>Hi</p><script>alert("x")</script>`, "<p>Hi</p>"},
		{"onclick removed", `<p onclick="steal()">Hi</p>`, "<p>Hi</p>"},
		{"style attribute and element removed", `<p style="color:red">Hi</p><style>p{}</style>`, "<p>Hi</p>"},
		{"javascript href removed, text kept", `<a href="javascript:alert(1)">click</a>`, "click"},
		{"data href removed", `<a href="data:text/html,x">x</a>`, "x"},
		{"relative href removed", `<a href="/pages/size">sizes</a>`, "sizes"},
		{"https link gets rel", `<a href="https://nocturne.test/care" target="_blank" rel="opener">care</a>`,
			`<a href="https://nocturne.test/care" rel="nofollow noopener">care</a>`},
		{"mailto link kept", `<a href="mailto:help@nocturne.test">mail</a>`,
			`<a href="mailto:help@nocturne.test" rel="nofollow noopener">mail</a>`},
		{"quoted rel text stays text", `<p> rel="nofollow"</p>`, `<p> rel=&#34;nofollow&#34;</p>`},
		{"images removed", `<p>a<img src="http://127.0.0.1:9/x.jpg" onerror="x()">b</p>`, "<p>ab</p>"},
		{"iframe removed with content", `<iframe src="http://127.0.0.1:9/">inside</iframe>after`, "after"},
		{"other tags dropped, text kept", `<div class="x"><h1>Title</h1><span>t</span></div>`, "Titlet"},
		{"comment removed", "<p>a<!-- secret -->b</p>", "<p>ab</p>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := catalogcsv.SanitizeBody(tc.in)
			if got != tc.want {
				t.Errorf("SanitizeBody(%q)\n got %q\nwant %q", tc.in, got, tc.want)
			}
			if again := catalogcsv.SanitizeBody(got); again != got {
				t.Errorf("not stable: a second pass gives %q", again)
			}
		})
	}
}
