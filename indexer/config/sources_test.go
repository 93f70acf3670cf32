package config

import (
	"strings"
	"testing"
)

// TestSourcesValidate: each [[sources]] entry that cannot work is an
// error naming engram.toml, the entry's index and namespace; good ones
// get their name and a url without its trailing slash.
func TestSourcesValidate(t *testing.T) {
	for _, c := range []struct{ name, toml, want string }{
		{"duplicate namespace", "[[sources]]\nnamespace = \"ai\"\npath = \"../a\"\n[[sources]]\nnamespace = \"ai\"\npath = \"../b\"\n", `[[sources]] 2 (namespace "ai"): namespace "ai" is already the namespace of [[sources]] 1`},
		{"upper case namespace", "[[sources]]\nnamespace = \"AI\"\npath = \"../a\"\n", `[[sources]] 1 (namespace "AI"): namespace must be a lower-case word`},
		{"namespace with a colon", "[[sources]]\nnamespace = \"a:b\"\npath = \"../a\"\n", "lower-case word"},
		{"no namespace", "[[sources]]\npath = \"../a\"\n", "lower-case word"},
		{"no path", "[[sources]]\nnamespace = \"ai\"\n", `[[sources]] 1 (namespace "ai"): path is required`},
		{"javascript url", "[[sources]]\nnamespace = \"ai\"\npath = \"../a\"\nurl = \"javascript:alert(1)\"\n", "url: base_url"},
		{"path url", "[[sources]]\nnamespace = \"ai\"\npath = \"../a\"\nurl = \"/x\"\n", "must be an http:// or https:// URL"},
		{"bad own namespace", "namespace = \"Main\"\n", `namespace "Main" must be a lower-case word`},
		{"a source under the own namespace", "namespace = \"me\"\n[[sources]]\nnamespace = \"me\"\npath = \"../a\"\n", `[[sources]] 1 (namespace "me"): namespace "me" is this repository's own`},
		{"file_url without path", "[[sources]]\nnamespace = \"ai\"\npath = \"../a\"\nfile_url = \"https://h/{commit}\"\n", "must hold {path}"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := Decode([]byte(c.toml))
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), File+": ") {
				t.Errorf("error %v; want one from %s holding %q", err, File, c.want)
			}
		})
	}
	c, diags, err := Decode([]byte("[[sources]]\nnamespace = \"zeta\"\npath = \"../z\"\nurl = \"https://git.example/org/z/\"\n[[sources]]\nnamespace = \"ai\"\npath = \"/abs/ai\"\nname = \"AI agents\"\nfile_url = \"https://h/{commit}/x/{path}\"\n"))
	if err != nil || len(diags) != 0 {
		t.Fatal(err, diags)
	}
	s := c.SortedSources()
	if s[0].Namespace != "ai" || s[1].Name != "zeta" || s[1].URL != "https://git.example/org/z" {
		t.Errorf("sources %+v", s)
	}
	if got := s[1].FileLink("abc", "episodes/a b.md"); got != "https://git.example/org/z/blob/abc/episodes/a%20b.md" {
		t.Errorf("url link %q", got)
	}
	if got := s[0].FileLink("abc", "episodes/x.md"); got != "https://h/abc/x/episodes/x.md" {
		t.Errorf("file_url link %q", got)
	}
	if got := (Source{Namespace: "n"}).FileLink("abc", "x.md"); got != "" {
		t.Errorf("no url: link %q", got)
	}
}
