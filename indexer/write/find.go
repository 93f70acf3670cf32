package write

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/engramhq/engram/indexer/aiagents"
	"github.com/engramhq/engram/indexer/causal"
	"github.com/engramhq/engram/indexer/config"
	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/parse"
	"github.com/engramhq/engram/indexer/source"
	"github.com/engramhq/engram/indexer/store"
)

// found is a note of the repository as a build reads it.
type found struct {
	Path string // slash, relative to the repository
	Src  []byte
	Note note.Note
}

// json reports whether the note is an ai-agents episode file, which
// engram reads but never rewrites.
func (f found) json() bool { return aiagents.IsEpisodeFile(f.Path) }

// place is where a build publishes a note: its folder and slug. Two
// notes at one place refuse the build (SPEC §6), as two of one title do.
func place(n *note.Note) string { return export.Folder(n) + "/" + export.Slug(n.Title) }

// noteIndex knows what a build reads as the title, permalink and place
// of every note file of the repository, so that a write finds the notes
// it would clash with. Parsing every note (a second at 10,000 notes)
// would cost a write ten times its budget, so what was read is kept in
// the repository's cache (notes.gob, beside the query cache; gob decodes
// 10,000 entries ten times faster than JSON) by each file's size and
// modification time, and only new or changed files are parsed again.
type noteIndex struct {
	root   string
	name   string // the repository as the user gave it, for messages
	parser *parse.Parser
	notes  []noteInfo
	// cache and format are where the index is kept and what it was made
	// by; dirty is an index that changed since it was read.
	cache, format string
	dirty         bool
	// planned are the notes this write is about to write: they clash
	// with one another as with the repository's.
	planned []found
}

// noteInfo is what the index keeps of one note file.
type noteInfo struct {
	Path    string
	Size    int64
	ModTime int64
	// Title and Permalink are the note's, as causal.Key compares them;
	// Place is where the build publishes it.
	Title     string
	Permalink string
	Place     string
	// Private is a note the build withholds (private: true, or a file
	// it cannot read, which has no title).
	Private bool
	// fresh is an entry read from the file by this write (not kept,
	// and not written by it).
	fresh bool
}

func infoOf(n note.Note) noteInfo {
	return noteInfo{Path: n.Path, Title: causal.Key(n.Title), Permalink: permalinkKey(n.Permalink), Place: place(&n), Private: n.Private}
}

// permalinkKey is a permalink as the build resolves a link by it.
func permalinkKey(p string) string {
	if p == "" {
		return ""
	}
	return causal.Key(strings.Trim(p, "/"))
}

// index reads the note files of the repository as the source stage
// walks it (tracked or not: a note only on disk is one `git add` away
// from the build), with the repository's parser (engram.toml [paths]).
func (t *txn) index() (*noteIndex, error) {
	if t.notes != nil {
		return t.notes, nil
	}
	listed, err := source.ListFiles(t.root)
	if err != nil {
		return nil, err
	}
	cfg, _ := config.Read(t.root) // one that does not load is refused by the build; the defaults do here
	x := &noteIndex{root: t.root, name: t.opt.Repo, parser: parse.New(parse.Roots{Episodes: cfg.Paths.Episodes, Patterns: cfg.Paths.Patterns})}
	x.format = fmt.Sprintf("engram %s notes 2 %q %q", config.Version, cfg.Paths.Episodes, cfg.Paths.Patterns)
	x.cache = t.notesCache()
	kept := readNotesCache(x.cache, x.format)
	var stale []int
	for _, f := range listed {
		if !isNoteFile(f.Path) {
			continue
		}
		if c, ok := kept[f.Path]; ok && c.Size == f.Size && c.ModTime == f.ModTime {
			x.notes = append(x.notes, c)
			continue
		}
		stale = append(stale, len(x.notes))
		x.notes = append(x.notes, noteInfo{Path: f.Path, Size: f.Size, ModTime: f.ModTime})
	}
	x.readAll(stale)
	x.dirty = len(stale) > 0 || len(kept) != len(x.notes)
	t.notes = x
	return x, nil
}

// save keeps the index for the next write (txn.end calls it), with the
// notes this write planned and wrote (written), as they are on disk now:
// engram wrote them, so they are known without reading them again.
func (x *noteIndex) save(written []string) {
	for _, f := range x.planned {
		info, err := os.Lstat(filepath.Join(x.root, filepath.FromSlash(f.Path)))
		if !slices.Contains(written, f.Path) || err != nil {
			continue
		}
		n := infoOf(f.Note)
		n.Path, n.Size, n.ModTime = f.Path, info.Size(), info.ModTime().UnixNano()
		if i := slices.IndexFunc(x.notes, func(e noteInfo) bool { return e.Path == f.Path }); i >= 0 {
			x.notes[i] = n
		} else {
			x.notes = append(x.notes, n)
		}
		x.dirty = true
	}
	if x.dirty {
		writeNotesCache(x.cache, x.format, x.notes)
	}
}

// readAll parses the notes at the given indexes, on all cores.
func (x *noteIndex) readAll(todo []int) {
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(todo)) {
		wg.Go(func() {
			for i := range jobs {
				info := noteInfo{Private: true} // unreadable: withheld, no title
				if f, ok := x.read(x.notes[i].Path); ok {
					info = infoOf(f.Note)
				}
				info.Path, info.Size, info.ModTime, info.fresh = x.notes[i].Path, x.notes[i].Size, x.notes[i].ModTime, true
				x.notes[i] = info
			}
		})
	}
	for _, i := range todo {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
}

// notesCache is the file the index is kept in: beside the repository's
// query cache, not in it (a build replaces that directory whole), ""
// when there is no cache directory.
func (t *txn) notesCache() string {
	dir, err := store.CacheDir(t.root, t.opt.CacheDir)
	if err != nil {
		return ""
	}
	return dir + ".notes.gob"
}

type notesCacheFile struct {
	Format string
	Notes  []noteInfo
}

// readNotesCache reads the kept index, by path; a missing or unreadable
// one, or one of another format, is empty.
func readNotesCache(file, format string) map[string]noteInfo {
	kept := map[string]noteInfo{}
	data, err := os.ReadFile(file)
	var c notesCacheFile
	if err != nil || gob.NewDecoder(bytes.NewReader(data)).Decode(&c) != nil || c.Format != format {
		return kept
	}
	for _, n := range c.Notes {
		kept[n.Path] = n
	}
	return kept
}

// writeNotesCache keeps the index. A file read by this write that had
// changed in the two seconds before is left out: a change within the
// file system's time resolution after it was read would not show in its
// size and time. The cache is only a cache: a failure to write it is no
// failure.
func writeNotesCache(file, format string, notes []noteInfo) {
	if file == "" {
		return
	}
	recent := time.Now().Add(-2 * time.Second).UnixNano()
	c := notesCacheFile{Format: format}
	for _, n := range notes {
		if !n.fresh || n.ModTime < recent {
			c.Notes = append(c.Notes, n)
		}
	}
	var b bytes.Buffer
	if gob.NewEncoder(&b).Encode(c) != nil || os.MkdirAll(filepath.Dir(file), 0o755) != nil {
		return
	}
	// Renamed into place, not synced: a cache lost to a crash is read
	// again from the notes, and a sync costs more than the rest.
	tmp, err := os.CreateTemp(filepath.Dir(file), filepath.Base(file)+".tmp-*")
	if err != nil {
		return
	}
	_, err = tmp.Write(b.Bytes())
	if cerr := tmp.Close(); err == nil && cerr == nil && os.Rename(tmp.Name(), file) == nil {
		return
	}
	os.Remove(tmp.Name())
}

// isNoteFile is a file a build reads as a note (load.go's readFile).
func isNoteFile(p string) bool {
	return strings.EqualFold(path.Ext(p), ".md") || aiagents.IsEpisodeFile(p)
}

// matching reads again, as the build does, the notes whose index entry
// match says are wanted, and the planned notes match wants, by path;
// notes that no longer read are left out.
func (x *noteIndex) matching(match func(noteInfo) bool) []found {
	var out []found
	for _, info := range x.notes {
		if !match(info) {
			continue
		}
		if f, ok := x.read(info.Path); ok {
			out = append(out, f)
		}
	}
	for _, f := range x.planned {
		if match(infoOf(f.Note)) {
			out = append(out, f)
		}
	}
	return out
}

// read parses one note file as the build does.
func (x *noteIndex) read(p string) (found, bool) {
	src, err := os.ReadFile(filepath.Join(x.root, filepath.FromSlash(p)))
	if err != nil || len(src) > parse.MaxNoteBytes {
		return found{}, false
	}
	var n note.Note
	if aiagents.IsEpisodeFile(p) {
		n, _, err = aiagents.Decode(p, src)
	} else {
		n, _, err = x.parser.Parse(p, src)
	}
	if err != nil {
		return found{}, false
	}
	return found{Path: p, Src: src, Note: n}, true
}

// clashes are the notes a build would refuse beside n: same lists those
// of n's title (in any case or Unicode normalisation, as the build
// compares titles), other those of another title published at n's place.
// A private note is left out of other (the build drops it first) and
// kept in same: engram never writes a note beside a private one of its
// title, nor over it.
func (x *noteIndex) clashes(n note.Note) (same, other []found) {
	key, at := causal.Key(n.Title), place(&n)
	for _, f := range x.matching(func(i noteInfo) bool { return i.Title == key || !i.Private && i.Place == at }) {
		switch {
		case causal.Key(f.Note.Title) == key:
			same = append(same, f)
		case !f.Note.Private && place(&f.Note) == at:
			other = append(other, f)
		}
	}
	return same, other
}

// find is the note a reader may know as id (a title, else a permalink,
// compared as the build compares them); private notes are absent, as
// everywhere else, and the message for one is the message for no note.
// withJSON admits ai-agents episode files.
func (x *noteIndex) find(id string, withJSON bool) (found, error) {
	key := causal.Key(id)
	var byPermalink []found
	for _, f := range x.matching(func(i noteInfo) bool { return i.Title == key || i.Permalink == key }) {
		switch {
		case f.Note.Private || f.json() && !withJSON:
		case causal.Key(f.Note.Title) == key:
			return f, nil
		case permalinkKey(f.Note.Permalink) == key:
			byPermalink = append(byPermalink, f)
		}
	}
	if len(byPermalink) > 0 {
		return byPermalink[0], nil
	}
	return found{}, fmt.Errorf("no note is titled %q in %s: give the title of an existing note (engram search finds one)", id, x.name)
}

// findNote is the markdown note whose title or permalink is id.
func (t *txn) findNote(id string) (found, error) {
	if strings.TrimSpace(id) == "" || strings.ContainsRune(id, 0) {
		return found{}, fmt.Errorf("no note named: give a note's title")
	}
	x, err := t.index()
	if err != nil {
		return found{}, err
	}
	return x.find(id, false)
}
