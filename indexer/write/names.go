package write

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"unicode"

	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/parse"
)

// maxTitleBytes caps a title: a file name must fit every file system.
const maxTitleBytes = 200

// maxFieldBytes caps one field of a note to write: the front matter cap
// of the parse stage, so that one runaway argument is refused by name
// before the note is made.
const maxFieldBytes = parse.MaxFrontMatterBytes

// plainNameRE is a title that is a safe file name as it is
// (EPISODE-2026-05-01-session-01, PATTERN-retry-with-backoff).
var plainNameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$`)

// notePath is the file of a new note titled title in folder. A title
// that is a plain file name names its file, as notes are named by
// convention; any other (free text, punctuation, another script) names
// it by its slug, as the build publishes it (export.Slug: lower case,
// dashes, a short hash when characters were lost), so that a file name
// never holds a space, a path or a character some file system refuses.
// The title itself stays the note's id, in its front matter.
func notePath(folder, title string) (string, error) {
	if err := checkTitle(title); err != nil {
		return "", err
	}
	name := title
	if !plainNameRE.MatchString(title) || strings.HasSuffix(title, ".") || reservedName(title) {
		name = export.Slug(title)
	}
	return path.Join(folder, name+".md"), nil
}

// checkTitle refuses a title that cannot be a note's id.
func checkTitle(title string) error {
	switch {
	case strings.TrimSpace(title) == "":
		return fmt.Errorf("the title is empty: give one, such as EPISODE-2026-05-01-session-01 or PATTERN-retry-with-backoff")
	case len(title) > maxTitleBytes:
		return fmt.Errorf("the title is %d bytes, over the limit of %d: shorten it", len(title), maxTitleBytes)
	case strings.ContainsAny(title, `/\`):
		return fmt.Errorf("the title %q holds a / or \\: a title names one note, so it may not be a path; remove them", title)
	case title != strings.TrimSpace(title):
		return fmt.Errorf("the title %q starts or ends with a space: remove it", title)
	case strings.IndexFunc(title, unicode.IsControl) >= 0:
		return fmt.Errorf("the title %q holds a control character (a line break or tab): remove it", title)
	case strings.IndexFunc(title, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) < 0:
		return fmt.Errorf("the title %q has no letter or digit: give a title that says what the note is about", title)
	}
	return nil
}

func reservedName(t string) bool {
	base, _, _ := strings.Cut(strings.ToUpper(t), ".")
	switch base {
	case "CON", "PRN", "AUX", "NUL":
		return true
	}
	return len(base) == 4 && (strings.HasPrefix(base, "COM") || strings.HasPrefix(base, "LPT")) && base[3] >= '1' && base[3] <= '9'
}

// checkFree refuses a new note whose file name differs only by case from
// a file in its folder: on a file system that ignores case (macOS,
// Windows) they are one file.
func checkFree(root, p string) error {
	entries, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(path.Dir(p))))
	if err != nil {
		return nil // no folder yet: nothing in the way
	}
	base := path.Base(p)
	for _, e := range entries {
		if e.Name() != base && strings.EqualFold(e.Name(), base) {
			return fmt.Errorf("%s differs only by case from %s, which exists: the two are one file where case is ignored; choose another title", p, path.Join(path.Dir(p), e.Name()))
		}
	}
	return nil
}
