package indexer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/parse"
)

// maxTitleBytes caps a title: a file name must fit every file system.
const maxTitleBytes = 200

// maxFieldBytes caps one field of a note to write: the front matter cap
// of the parse stage, so that one runaway argument is refused by name
// before the note is made.
const maxFieldBytes = parse.MaxFrontMatterBytes

// notePath is the file of a new note titled title in folder: the title
// is the file name, so it must be one safe name, never a path.
func notePath(folder, title string) (string, error) {
	if err := checkTitle(title); err != nil {
		return "", err
	}
	return path.Join(folder, title+".md"), nil
}

func checkTitle(title string) error {
	switch {
	case strings.TrimSpace(title) == "":
		return fmt.Errorf("the title is empty: give one, such as EPISODE-2026-05-01-session-01 or PATTERN-retry-with-backoff")
	case len(title) > maxTitleBytes:
		return fmt.Errorf("the title is %d bytes, over the limit of %d: shorten it", len(title), maxTitleBytes)
	case strings.ContainsAny(title, `/\`):
		return fmt.Errorf("the title %q holds a / or \\: a title names one note, and is its file name, so it may not be a path; remove them", title)
	case strings.HasPrefix(title, "."):
		return fmt.Errorf("the title %q starts with a dot: start it with a letter or digit", title)
	case strings.ContainsAny(title, `<>:"|?*`):
		return fmt.Errorf("the title %q holds one of < > : \" | ? *, which some file systems refuse in a file name: remove it", title)
	case title != strings.TrimSpace(title) || strings.HasSuffix(title, "."):
		return fmt.Errorf("the title %q starts or ends with a space, or ends with a dot: remove it", title)
	case strings.IndexFunc(title, unicode.IsControl) >= 0:
		return fmt.Errorf("the title %q holds a control character (a line break or tab): remove it", title)
	case reservedName(title):
		return fmt.Errorf("the title %q is a reserved device name on Windows: choose another", title)
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
// a file in its folder: two such notes are one slug, which a build
// refuses (SPEC §6).
func checkFree(repo, p string) error {
	entries, err := os.ReadDir(filepath.Join(repo, filepath.FromSlash(path.Dir(p))))
	if err != nil {
		return nil // no folder yet: nothing in the way
	}
	base := path.Base(p)
	for _, e := range entries {
		if e.Name() != base && strings.EqualFold(e.Name(), base) {
			return fmt.Errorf("%s differs only by case from %s, which exists: two notes would have one slug; use that title, or another", p, path.Join(path.Dir(p), e.Name()))
		}
	}
	return nil
}

// found is a note the write path looked up by id.
type found struct {
	Path string // slash, relative to the repository
	Src  []byte
	Note note.Note
}

// findNote finds the markdown note whose title (or file name) is id,
// case-insensitively, as a build resolves a wikilink: first where engram
// puts notes (episodes/, patterns/, the top), then in every note of the
// repository.
func findNote(repo, id string) (found, error) {
	if strings.TrimSpace(id) == "" || strings.ContainsRune(id, 0) {
		return found{}, fmt.Errorf("no note named: give a note's title")
	}
	if checkTitle(id) == nil {
		for _, dir := range []string{"episodes", "patterns", "."} {
			if f, ok := readFound(repo, path.Join(dir, id+".md"), id); ok {
				return f, nil
			}
		}
	}
	var hit found
	err := filepath.WalkDir(repo, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return nil
		case d.IsDir() && strings.HasPrefix(d.Name(), ".") && p != repo:
			return filepath.SkipDir
		case d.IsDir() || !strings.HasSuffix(d.Name(), ".md") || hit.Path != "":
			return nil
		}
		rel, err := filepath.Rel(repo, p)
		if err == nil {
			if f, ok := readFound(repo, filepath.ToSlash(rel), id); ok {
				hit = f
				return fs.SkipAll
			}
		}
		return nil
	})
	if err != nil || hit.Path == "" {
		return found{}, fmt.Errorf("no note is titled %q in %s: give the title of an existing note (engram search finds one)", id, repo)
	}
	return hit, nil
}

// readFound reads the note at p and reports whether it is the note id.
func readFound(repo, p, id string) (found, bool) {
	f, ok := readNote(filepath.Join(repo, filepath.FromSlash(p)), p, func(src []byte) bool {
		return bytes.Contains(bytes.ToLower(src), bytes.ToLower([]byte(id))) || strings.EqualFold(strings.TrimSuffix(path.Base(p), ".md"), id)
	})
	if !ok || !strings.EqualFold(f.Note.Title, id) && !strings.EqualFold(f.Note.Permalink, id) {
		return found{}, false
	}
	return f, true
}

// readNote reads and parses the regular file full (the note p), when
// worth reports its bytes worth parsing.
func readNote(full, p string, worth func([]byte) bool) (found, bool) {
	if st, err := os.Lstat(full); err != nil || !st.Mode().IsRegular() || st.Size() > parse.MaxNoteBytes {
		return found{}, false
	}
	src, err := os.ReadFile(full)
	if err != nil || !worth(src) {
		return found{}, false
	}
	n, _, err := parse.New(parse.Roots{}).Parse(p, src)
	if err != nil {
		return found{}, false
	}
	return found{Path: p, Src: src, Note: n}, true
}

// feedbackTarget is the id feedback names: a markdown note's title, or
// an ai-agents episode file's id.
func feedbackTarget(repo, id string) (string, error) {
	if f, err := findNote(repo, id); err == nil {
		return f.Note.Title, nil
	}
	var hit string
	_ = filepath.WalkDir(repo, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && strings.HasPrefix(d.Name(), ".") && p != repo {
			return filepath.SkipDir
		}
		if err != nil || hit != "" || d.IsDir() || !strings.HasPrefix(d.Name(), "episode-") || !strings.HasSuffix(d.Name(), ".json") {
			return nil
		}
		src, err := os.ReadFile(p)
		var v struct {
			ID string `json:"id"`
		}
		if err == nil && json.Unmarshal(src, &v) == nil && strings.EqualFold(v.ID, id) {
			hit = v.ID
		}
		return nil
	})
	if hit == "" {
		return "", fmt.Errorf("no note is titled %q in %s: give the title of an existing note (engram search finds one)", id, repo)
	}
	return hit, nil
}
