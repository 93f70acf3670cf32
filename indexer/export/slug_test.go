package export

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestSlug(t *testing.T) {
	long := strings.Repeat("a", 500)
	tests := []struct {
		name  string
		title string
		want  string // "" when checked with match instead
		match string // a regexp the slug must match
	}{
		{name: "episode title", title: "EPISODE-2026-08-04-session-01", want: "episode-2026-08-04-session-01"},
		{name: "lower case, space to dash", title: "PATTERN-Run Tests", want: "pattern-run-tests"},
		{name: "underscore and dot are separators", title: "snake_case.title", want: "snake-case-title"},
		{name: "separators collapse and trim", title: "  --a  __ b--  ", want: "a-b"},
		{name: "punctuation is lossy: hash", title: "Hello, World!", want: "hello-world-dffd6021"},
		{name: "slash is lossy", title: "a/b", want: "a-b-c14cddc0"},
		{name: "backslash and colon", title: `C:\Windows\x`, want: "c-windows-x-615ed26b"},
		{name: "path out of the root", title: "../../x", want: "x-9cdf6a50"},
		{name: "dot-dot alone", title: "..", want: "5ec1f7e7"},
		{name: "dot alone", title: ".", want: "cdb4ee2a"},
		{name: "reserved device name", title: "CON", want: "con-a3dbc4b6"},
		{name: "reserved device name lower case", title: "con", want: "con-1143da2b"},
		{name: "reserved com1", title: "COM1", match: `^com1-[0-9a-f]{8}$`},
		{name: "device name with an extension is no device", title: "nul.txt", want: "nul-txt"},
		{name: "reserved index", title: "index", want: "index-1bc04b52"},
		{name: "reserved Index", title: "Index", want: "index-39c3be11"},
		{name: "index.json is not index", title: "index.json", want: "index-json"},
		{name: "reserved _headers", title: "_headers", want: "headers-36d2e18f"},
		{name: "reserved _redirects", title: "_redirects", match: `^redirects-[0-9a-f]{8}$`},
		{name: "reserved api", title: "api", want: "api-14c2529e"},
		{name: "reserved API", title: "API", want: "api-c8e5998f"},
		{name: "reserved search", title: "Search", match: `^search-[0-9a-f]{8}$`},
		{name: "control characters", title: "a\x00b\x1fc\u0085d", want: "a-b-c-d-a8398cc2"},
		{name: "tab and newline", title: "a\tb\nc", want: "a-b-c-6c956051"},
		{name: "CJK keeps its letters", title: "データベース移行", want: "データベース移行"},
		{name: "Arabic keeps its letters", title: "قاعدة البيانات", want: "قاعدة-البيانات"},
		{name: "Latin with accents", title: "Café Crème", want: "café-crème"},
		{name: "Turkish dotted capital I", title: "İstanbul", want: "istanbul"},
		{name: "Greek capitals", title: "ΣΟΦΙΑ", want: "σοφια"},
		{name: "other digits", title: "٣ أشياء", want: "٣-أشياء"},
		{name: "emoji are lossy", title: "ship it 🚀", match: `^ship-it-[0-9a-f]{8}$`},
		{name: "empty", title: "", want: "e3b0c442"},
		{name: "blank", title: "   ", want: "0aad7da7"},
		{name: "only punctuation", title: "?!*", match: `^[0-9a-f]{8}$`},
		{name: "500 ASCII characters", title: long, want: long[:80] + "-69206a47"},
		{name: "500 CJK characters capped on a rune boundary", title: strings.Repeat("数", 500),
			want: strings.Repeat("数", 26) + "-" + shortHash(strings.Repeat("数", 500))},
		{name: "cut before a separator", title: strings.Repeat("a", 79) + " b" + strings.Repeat("c", 20),
			want: strings.Repeat("a", 79) + "-" + shortHash(strings.Repeat("a", 79)+" b"+strings.Repeat("c", 20))},
		{name: "exactly 80 bytes", title: strings.Repeat("b", 80), want: strings.Repeat("b", 80)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Slug(tt.title)
			if tt.want != "" && got != tt.want {
				t.Errorf("Slug(%q) = %q, want %q", tt.title, got, tt.want)
			}
			if tt.match != "" && !regexp.MustCompile(tt.match).MatchString(got) {
				t.Errorf("Slug(%q) = %q, want a match of %s", tt.title, got, tt.match)
			}
			if err := checkSlug(got); err != "" {
				t.Errorf("Slug(%q) = %q: %s", tt.title, got, err)
			}
		})
	}
}

// checkSlug returns what is wrong with a slug, or "".
func checkSlug(s string) string {
	switch {
	case s == "":
		return "empty"
	case len(s) > 90:
		return "longer than 90 bytes"
	case !utf8.ValidString(s):
		return "not UTF-8"
	case strings.ContainsAny(s, `/\:*?"<>|. `):
		return "holds a character a file system or URL treats specially"
	case strings.Contains(s, ".."):
		return "holds .."
	case strings.HasPrefix(s, ".") || strings.HasPrefix(s, "-") || strings.HasSuffix(s, "-"):
		return "starts or ends with a dot or dash"
	case strings.Contains(s, "--"):
		return "holds a double dash"
	case s != strings.ToLower(s):
		return "not lower case"
	case reserved[s]:
		return "a reserved name"
	}
	for _, r := range s {
		if r != '-' && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return "holds " + string(r)
		}
	}
	return ""
}

// TestSlugProperties checks the slug invariants over titles drawn from
// runes that make trouble: separators, path characters, controls,
// reserved words, combining marks and letters of several scripts.
func TestSlugProperties(t *testing.T) {
	pieces := []string{
		"a", "Z", "0", "9", "-", "_", ".", "..", " ", "/", `\`, ":", "*", "?", "\x00", "\x1f", "\x7f",
		"\u200b", "\u202e", "\ufeff", "é", "e\u0301", "ß", "İ", "ǅ", "Ω", "数", "データ", "ب", "ة", "्", "🚀",
		"con", "CON", "index", "_headers", "api", "%2e", "~", "\xff",
	}
	r := rand.New(rand.NewPCG(1, 2))
	seen := map[string]string{}
	for i := 0; i < 20000; i++ {
		var b strings.Builder
		for n := r.IntN(40); n >= 0; n-- {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		if r.IntN(50) == 0 {
			b.WriteString(strings.Repeat(pieces[r.IntN(len(pieces))], 200))
		}
		title := b.String()
		s := Slug(title)
		if err := checkSlug(s); err != "" {
			t.Fatalf("Slug(%q) = %q: %s", title, s, err)
		}
		if again := Slug(title); again != s {
			t.Fatalf("Slug(%q) is %q, then %q", title, s, again)
		}
		if prev, ok := seen[s]; ok && prev != title && strings.ContainsAny(title+prev, "/\\:*?\x00\x1f") {
			t.Errorf("lossy titles %q and %q share slug %q", prev, title, s)
		}
		seen[s] = title
	}
}

func FuzzSlug(f *testing.F) {
	for _, s := range []string{"", "EPISODE-2026-08-04-session-01", "../../x", "CON", "_headers", "a\x00b",
		strings.Repeat("数", 100), "\xff\xfe", "e\u0301", ".-."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, title string) {
		s := Slug(title)
		if err := checkSlug(s); err != "" {
			t.Fatalf("Slug(%q) = %q: %s", title, s, err)
		}
	})
}
