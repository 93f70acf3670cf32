package secrets_test

import (
	"context"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/engramhq/engram/indexer/secrets"
	"github.com/engramhq/engram/indexer/secrets/secretstest"
)

// TestScanFSNames: a secret in a file's or a folder's name is a finding
// in the file's name, and the file is served under its path with the
// secret redacted (Input.Renamed), by which its findings name it too; a
// path without one is served as it is; two paths that are one once
// redacted are both withheld.
func TestScanFSNames(t *testing.T) {
	k := secretstest.Kinds(31)[0]
	k2 := secretstest.Kinds(32)[0]
	red := secrets.Redacted(k.Rule)
	body := "text\n" + k.Line + "\n"
	for _, c := range []struct {
		name, path, want string
	}{
		{"file", "episodes/" + k.Secret + ".md", "episodes/" + red + ".md"},
		{"folder", "notes/" + k.Secret + "/a.md", "notes/" + red + "/a.md"},
		{"inside a name", "notes/token " + k.Secret + " rotated.md", "notes/token " + red + " rotated.md"},
		{"none", "notes/plain.md", "notes/plain.md"},
	} {
		t.Run(c.name, func(t *testing.T) {
			fsys := fstest.MapFS{c.path: {Data: []byte(body)}}
			in, served, _, err := secrets.ScanFS(context.Background(), fsys, []string{c.path})
			if err != nil {
				t.Fatal(err)
			}
			if got := in.Name(c.path); got != c.want {
				t.Errorf("Name(%q) = %q, want %q", c.path, got, c.want)
			}
			data, err := fs.ReadFile(served, c.want)
			if err != nil || strings.Contains(string(data), k.Secret) || !strings.Contains(string(data), red) {
				t.Errorf("%s is served as %q, %v", c.want, data, err)
			}
			inName := 0
			for _, f := range in.Found {
				if f.Path != c.want || strings.Contains(f.String(), k.Secret) {
					t.Errorf("finding %v does not name the file by %s", f, c.want)
				}
				if f.InName {
					inName++
					if f.Line != 1 || f.Col != 1 || f.Rule != k.Rule || f.Allowed {
						t.Errorf("finding in the name: %+v", f)
					}
				}
			}
			if want := map[bool]int{true: 1, false: 0}[c.want != c.path]; inName != want {
				t.Errorf("%d findings in the name, want %d: %v", inName, want, in.Found)
			}
		})
	}
	t.Run("clash", func(t *testing.T) {
		a, b := "episodes/"+k.Secret+".md", "episodes/"+secrets.Redacted(k2.Rule)+".md"
		b2 := "episodes/" + k2.Secret + ".md"
		fsys := fstest.MapFS{a: {Data: []byte("a")}, b: {Data: []byte("b")}, b2: {Data: []byte("b2")}}
		in, served, _, err := secrets.ScanFS(context.Background(), fsys, []string{a, b, b2})
		if err != nil {
			t.Fatal(err)
		}
		if !in.Withheld[b] {
			t.Errorf("withheld %v, want %s", in.Withheld, b)
		}
		if _, err := fs.ReadFile(served, b); err == nil {
			t.Errorf("%s, which three paths redact to, is served", b)
		}
	})
}

// TestHide: a secret is hidden from a message as it is, lower-cased and
// as a slug, where it is a whole run of words; other words stay.
func TestHide(t *testing.T) {
	k := secretstest.Kinds(33)[0]
	s := scanner(t, "")
	found := s.Scan("a.md", []byte(k.Line))
	if len(found) != 1 {
		t.Fatalf("found %v", found)
	}
	slug := strings.ToLower(strings.ReplaceAll(k.Secret, "_", "-"))
	red := secrets.Redacted(k.Rule)
	for in, want := range map[string]string{
		"api/v1/episodes/" + slug + ".json:2:8":                "api/v1/episodes/" + red + ".json:2:8",
		"episodes/deploy-" + slug + "/index.html":              "episodes/deploy-" + red + "/index.html",
		"id " + k.Secret + " and " + strings.ToLower(k.Secret): "id " + red + " and " + red,
		"nothing here": "nothing here",
	} {
		if got := secrets.Hide(in, found); got != want {
			t.Errorf("Hide(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestRendered: a secret written with an HTML character reference or a
// backslash escape is found in the text as rendered, and text without
// either is left alone.
func TestRendered(t *testing.T) {
	k := secretstest.Kinds(35)[0]
	s := scanner(t, "")
	rest := k.Secret[1:]
	for _, text := range []string{"token &#103;" + rest, "token &#x67;" + rest, "token " + strings.Replace(k.Secret, "_", `\_`, 1)} {
		if found := s.Scan("a.md", []byte(text)); len(found) != 0 {
			t.Fatalf("%q: the text as written is found already: %v", text, found)
		}
		r, ok := secrets.Rendered([]byte(text))
		if !ok || len(s.Scan("a.md", r)) != 1 {
			t.Errorf("%q rendered is %q: want the secret found", text, r)
		}
	}
	if _, ok := secrets.Rendered([]byte("plain text, a\\b")); ok {
		t.Error("text with no escape of punctuation and no reference is rendered otherwise")
	}
}
