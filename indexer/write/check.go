package write

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/engramhq/engram/indexer/secrets"
	"github.com/engramhq/engram/indexer/source"
)

// check refuses, before anything is written, a file of a write that
// would land outside the repository or hold a secret (SPEC §6: writes
// stay inside and keep the repository buildable).
func (t *txn) check(p string, data []byte) error {
	if err := t.inside(p); err != nil {
		return err
	}
	return t.secretFree(p, data)
}

// inside refuses a path that is not a clean path inside the repository
// (outside .git), and one that goes through a symbolic link or ends at
// one: the repository's root may be a link (t.root is resolved), but a
// folder or file inside it that is a link would take the write outside
// the repository, and git would lose the link.
func (t *txn) inside(p string) error {
	parts := strings.Split(p, "/")
	if p == "" || path.Clean(p) != p || !filepath.IsLocal(filepath.FromSlash(p)) || slices.ContainsFunc(parts, func(s string) bool { return strings.EqualFold(s, ".git") }) {
		return fmt.Errorf("%q is not a path inside the repository (outside .git)", p)
	}
	for i := range parts {
		sub := strings.Join(parts[:i+1], "/")
		info, err := os.Lstat(t.abs(sub))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil // made by the write, as a folder
		case err != nil:
			return fmt.Errorf("write %s: %w", p, err)
		case info.Mode()&fs.ModeSymlink != 0:
			return fmt.Errorf("%s is a symbolic link: engram writes only inside the repository, never through a link (the note would land where it points, and git would lose the link); nothing was written: make %s a real folder or file", sub, sub)
		case i < len(parts)-1 && !info.IsDir():
			return fmt.Errorf("%s is a file, where %s needs a folder: move it away", sub, p)
		}
	}
	return nil
}

// baseScanner is the secret scanner of this process: making one compiles
// every rule, so it is made once, and each write gives it the
// repository's ignore file (Scanner.WithIgnore). It never changes once
// made.
var baseScanner = sync.OnceValues(func() (*secrets.Scanner, error) {
	s, _, err := secrets.New(nil)
	return s, err
})

// scanner is the build's secret scanner for this repository: the
// findings .gitleaksignore allows are allowed, when a build would read
// that file (it is tracked, and not a link).
func (t *txn) scanner() (*secrets.Scanner, error) {
	if t.scan != nil {
		return t.scan, nil
	}
	base, err := baseScanner()
	if err != nil {
		return nil, err
	}
	var ignore []byte
	if info, err := os.Lstat(t.abs(secrets.IgnoreFile)); err == nil && info.Mode().IsRegular() {
		if tracked, err := source.IsTracked(t.root, secrets.IgnoreFile); err == nil && tracked {
			if ignore, err = os.ReadFile(t.abs(secrets.IgnoreFile)); err != nil {
				return nil, fmt.Errorf("read %s: %w", secrets.IgnoreFile, err)
			}
		}
	}
	t.scan, _ = base.WithIgnore(ignore)
	return t.scan, nil
}

// secretFree refuses a file whose bytes (what a build will read) or
// whose name hold a secret that the build would refuse: scanned whole,
// a secret split across two fields is found as the build finds it. The
// error names where it is, the rule and the fingerprint (the line to
// allow it with in .gitleaksignore), never the secret.
func (t *txn) secretFree(p string, data []byte) error {
	f, where, err := t.secretIn(p, data)
	if err != nil || f == nil {
		return err
	}
	return fmt.Errorf("refusing to write a secret into the repository: %s; nothing was written. Remove it: a build refuses it too", secretAt(p, f, where))
}

// secretAt says where a secret a write would write is, without it: the
// file, the line and field, the rule and the fingerprint (the line that
// allows a false positive in .gitleaksignore). A secret in the file name
// (a title that holds one) is named by its rule only: the file name and
// the fingerprint would quote it.
func secretAt(p string, f *secrets.Finding, where string) string {
	if where == "" {
		return fmt.Sprintf("the title would put a secret (rule %s) into the file name", f.Rule)
	}
	return fmt.Sprintf("%s would hold a secret %s (rule %s, fingerprint %s; a false positive is allowed by its fingerprint in %s)",
		p, where, f.Rule, f.Fingerprint, secrets.IgnoreFile)
}

// secretIn is the first secret in the file p (its name, then its bytes)
// that the build would not allow, and where it is in the bytes ("" for
// the name); nil when none.
func (t *txn) secretIn(p string, data []byte) (*secrets.Finding, string, error) {
	s, err := t.scanner()
	if err != nil {
		return nil, "", err
	}
	for _, f := range s.Scan(p, []byte(p)) {
		if !f.Allowed {
			return &f, "", nil
		}
	}
	for _, f := range s.Scan(p, data) {
		if !f.Allowed {
			where := fmt.Sprintf("at line %d", f.Line)
			if field := fieldAt(data, f.Line); field != "" {
				where += ", " + field
			}
			return &f, where, nil
		}
	}
	return nil, "", nil
}

// fieldAt names what line (1-based) of a file a write made holds: in a
// note, the front matter key (the title, the task) or the body section
// (the Context, the Lessons Learned) and the labelled item of a decision;
// "" in a file that is not a note (a line of JSON is its own place).
func fieldAt(data []byte, line int) string {
	lines := bytes.Split(data, []byte("\n"))
	if line < 1 || line > len(lines) || !bytes.Equal(lines[0], []byte("---")) {
		return ""
	}
	fmEnd := 0
	for i := 1; i < len(lines); i++ {
		if bytes.Equal(lines[i], []byte("---")) {
			fmEnd = i
			break
		}
	}
	if line-1 < fmEnd {
		for i := line - 1; i > 0; i-- {
			if key, _, ok := bytes.Cut(lines[i], []byte(":")); ok && len(key) > 0 && key[0] != ' ' && key[0] != '-' {
				return "in the front matter's " + string(key)
			}
		}
		return "in the front matter"
	}
	item := ""
	if rest, ok := bytes.CutPrefix(lines[line-1], []byte("- **")); ok {
		label, _, _ := bytes.Cut(rest, []byte("**"))
		item = string(label)
	}
	section := ""
	for i := line - 1; i > fmEnd && section == ""; i-- {
		if rest, ok := bytes.CutPrefix(lines[i], []byte("## ")); ok {
			section = string(rest)
		}
	}
	switch {
	case section == "":
		return "in the body"
	case item != "":
		return "in " + section + ", " + item
	}
	return "in " + section
}
