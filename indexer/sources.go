package indexer

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/engramhq/engram/indexer/config"
	"github.com/engramhq/engram/indexer/events"
	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/parse"
	"github.com/engramhq/engram/indexer/secrets"
	"github.com/engramhq/engram/indexer/source"
)

// Federation (SPEC §2, "Several repositories, one memory"): the
// repositories engram.toml lists as [[sources]] are read beside the one
// built, each as the built one is (source.Open, the secret scan with its
// own .gitleaksignore, its own [paths]), and merged into one file list
// before anything parses: a source's file is listed under the source's
// path relative to the built repository (../api-memory/episodes/x.md), so
// every diagnostic points at a real file. After parsing, a source's notes
// take their ids under its namespace (api:EPISODE-…) and their links are
// rewritten to name what they named in their own repository
// (namespaceNotes); every later stage then spans all repositories
// without knowing of them.
//
// Sources are read in namespace order, whatever the order engram.toml
// lists them in, and never transitively. The reference time is --now,
// else the newest head commit among all the repositories read.

// fedSource is one [[sources]] repository, resolved and read.
type fedSource struct {
	conf  config.Source
	index int // in engram.toml, from 0
	// prefix is the source's directory relative to the built repository,
	// slash-separated: its files are listed under prefix/.
	prefix string
	dir    string // resolved, symlinks evaluated
	repo   *source.Repo
	own    config.Config // the source's engram.toml: its [paths], its poisoning allow list
}

// federation is the sources of a build.
type federation struct {
	sources []*fedSource
	// self is the built repository's own namespace (engram.toml's
	// namespace), "" when it has none.
	self string
}

// sourceError is a refusal of engram.toml's [[sources]] entry i.
func sourceError(s config.Source, i int, format string, args ...any) error {
	return fmt.Errorf("%s: %s: %s", config.File, s.Label(i), fmt.Sprintf(format, args...))
}

// resolveSources finds the directory of every source of cfg, in
// namespace order, and refuses a path that is missing, not a directory
// or unreadable, the repository itself or a folder that holds it, and
// the path of another source or one inside or around it.
func resolveSources(repoDir string, cfg config.Config) ([]*fedSource, error) {
	if len(cfg.Sources) == 0 {
		return nil, nil
	}
	root, err := realDir(repoDir)
	if err != nil {
		return nil, err
	}
	byDir := map[string]int{}
	var out []*fedSource
	for i, s := range cfg.Sources {
		fs, err := resolveSource(root, s, i)
		if err != nil {
			return nil, err
		}
		if first, dup := byDir[fs.dir]; dup {
			return nil, sourceError(s, i, "path %q is the directory of %s too; list each repository once", s.Path, cfg.Sources[first].Label(first))
		}
		for _, o := range out {
			if within(fs.dir, o.dir) || within(o.dir, fs.dir) {
				return nil, sourceError(s, i, "path %q and %s are one inside the other; their notes would be read twice", s.Path, o.conf.Label(o.index))
			}
		}
		byDir[fs.dir] = i
		out = append(out, fs)
	}
	sortSources(out)
	return out, nil
}

// resolveSource resolves one source's path against the repository's
// resolved directory root.
func resolveSource(root string, s config.Source, i int) (*fedSource, error) {
	p := filepath.FromSlash(s.Path)
	if !filepath.IsAbs(p) {
		p = filepath.Join(root, p)
	}
	dir, err := realDir(p)
	if err != nil {
		return nil, sourceError(s, i, "path %q: %v", s.Path, err)
	}
	if dir == root {
		return nil, sourceError(s, i, "path %q is this repository itself; a source is another repository", s.Path)
	}
	if within(root, dir) {
		return nil, sourceError(s, i, "path %q holds this repository; a source is another repository, beside it or inside it", s.Path)
	}
	rel, err := filepath.Rel(root, dir)
	if err != nil {
		return nil, sourceError(s, i, "path %q: %v", s.Path, err)
	}
	return &fedSource{conf: s, index: i, dir: dir, prefix: filepath.ToSlash(rel)}, nil
}

// within reports whether the directory inner is inside outer (both
// resolved, and not the same).
func within(inner, outer string) bool {
	rel, err := filepath.Rel(outer, inner)
	return err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// realDir is dir absolute, symlinks evaluated, checked to be a readable
// directory.
func realDir(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return "", errors.New("no such directory")
	}
	if err != nil {
		return "", unwrapPathError(err)
	}
	info, err := os.Stat(real)
	if err != nil {
		return "", unwrapPathError(err)
	}
	if !info.IsDir() {
		return "", errors.New("not a directory")
	}
	f, err := os.Open(real)
	if err == nil {
		_, err = f.ReadDir(1)
		f.Close()
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("unreadable: %v", unwrapPathError(err))
	}
	return real, nil
}

// unwrapPathError drops the path an *fs.PathError repeats.
func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func sortSources(ss []*fedSource) {
	slices.SortFunc(ss, func(a, b *fedSource) int { return strings.Compare(a.conf.Namespace, b.conf.Namespace) })
}

// openSources reads every source of cfg and merges it into repo and sec,
// the built repository as read and scanned: its files join repo.Files
// under its prefix, served by repo.FS; its secret findings join sec's.
// The diagnostics are the sources' own, at their files.
func openSources(ctx context.Context, opt Options, cfg config.Config, repo *source.Repo, sec *secrets.Input) (*federation, []note.Diagnostic, error) {
	ss, err := resolveSources(opt.Repo, cfg)
	if err != nil || len(ss) == 0 {
		return nil, nil, err
	}
	fed := &federation{sources: ss, self: cfg.Namespace}
	var diags []note.Diagnostic
	mfs := &multiFS{main: repo.FS}
	for _, s := range ss {
		d, err := s.open(ctx, opt.Redact, sec)
		if err != nil {
			return nil, nil, err
		}
		diags = append(diags, d...)
		mfs.parts = append(mfs.parts, fsPart{prefix: s.prefix + "/", fsys: s.repo.FS})
		if s.repo.RefTime.After(repo.RefTime) {
			repo.RefTime = s.repo.RefTime
		}
	}
	repo.FS = mfs
	repo.Files = fed.ownFiles(repo.Files, "")
	for _, s := range ss {
		repo.Files = append(repo.Files, fed.ownFiles(s.repo.Files, s.conf.Namespace)...)
	}
	return fed, diags, nil
}

// open reads the source as the build reads its own repository, its
// files scanned for secrets with its own .gitleaksignore, and adds what
// the scan found to sec, every path under the source's prefix.
func (s *fedSource) open(ctx context.Context, redact bool, sec *secrets.Input) ([]note.Diagnostic, error) {
	repo, diags, err := source.Open(s.dir)
	if err != nil {
		return nil, sourceError(s.conf, s.index, "%v", err)
	}
	s.repo = repo
	in, sdiags, err := scanSecrets(ctx, repo, redact)
	if err != nil {
		return nil, sourceError(s.conf, s.index, "%v", err)
	}
	diags = append(renameDiagnostics(diags, in), sdiags...)
	own, cdiags, err := config.Load(repo.FS)
	if err != nil {
		return nil, sourceError(s.conf, s.index, "its %v", err)
	}
	s.own = own
	diags = append(diags, cdiags...)
	diags = append(diags, s.unread()...)
	for i := range diags {
		diags[i].Path = s.path(diags[i].Path)
	}
	s.addSecrets(in, sec)
	for i := range repo.Files {
		repo.Files[i].Path = s.path(repo.Files[i].Path)
	}
	return diags, nil
}

// unread drops the files of the source the build does not read, each
// with an info diagnostic: its engram.toml is read for its [paths] and
// poisoning allow list only (its own [[sources]] are not read: sources
// are not transitive), and its feedback and events are its own.
func (s *fedSource) unread() []note.Diagnostic {
	var diags note.Diagnostics
	if len(s.own.Sources) > 0 {
		diags.Report(config.File, 1, 1, note.Info, "source-not-transitive", "this source's own [[sources]] are not read: a build reads the sources its own %s lists, never theirs", config.File)
	}
	kept := s.repo.Files[:0:0]
	for _, f := range s.repo.Files {
		switch {
		case f.Path == config.File:
		case isFeedback(f.Path) || events.IsFile(f.Path):
			diags.Report(f.Path, 1, 1, note.Info, "source-unread", "a source's feedback and events are not read; the build publishes those of the repository built")
		default:
			kept = append(kept, f)
		}
	}
	s.repo.Files = kept
	return diags
}

// path is a path of the source as the build lists it.
func (s *fedSource) path(p string) string {
	if p == "." {
		return s.prefix
	}
	return s.prefix + "/" + p
}

// addSecrets adds what the scan of the source found to sec.
func (s *fedSource) addSecrets(in *secrets.Input, sec *secrets.Input) {
	for _, f := range in.Found {
		f.Path = s.path(f.Path)
		sec.Found = append(sec.Found, f)
	}
	for p := range in.Withheld {
		if sec.Withheld == nil {
			sec.Withheld = map[string]bool{}
		}
		sec.Withheld[s.path(p)] = true
	}
	for from, to := range in.Renamed {
		if sec.Renamed == nil {
			sec.Renamed = map[string]string{}
		}
		sec.Renamed[s.path(from)] = s.path(to)
	}
}

// owner is the namespace of the source whose files p is under, "" for
// the built repository's own (resolveSources refuses sources one inside
// another, so at most one holds p).
func (fed *federation) owner(p string) string {
	for _, s := range fed.sources {
		if strings.HasPrefix(p, s.prefix+"/") {
			return s.conf.Namespace
		}
	}
	return ""
}

// ownFiles are the files of the repository ns ("" the built one) that
// are its own: a source that lies inside it reads its own files.
func (fed *federation) ownFiles(files []source.File, ns string) []source.File {
	kept := files[:0:0]
	for _, f := range files {
		if fed.owner(f.Path) == ns {
			kept = append(kept, f)
		}
	}
	return kept
}

// roots adds to the built repository's roots every source's own, under
// its prefix: one parser (and one parse store key) classifies every
// file by its own repository's [paths].
func (fed *federation) roots(r parse.Roots) parse.Roots {
	if fed == nil {
		return r
	}
	r.Episodes, r.Patterns = slices.Clone(r.Episodes), slices.Clone(r.Patterns)
	for _, s := range fed.sources {
		for _, d := range s.own.Paths.Episodes {
			r.Episodes = append(r.Episodes, s.prefix+"/"+strings.Trim(path.Clean(d), "/"))
		}
		for _, d := range s.own.Paths.Patterns {
			r.Patterns = append(r.Patterns, s.prefix+"/"+strings.Trim(path.Clean(d), "/"))
		}
	}
	return r
}

// allow is the poisoning allow list of every repository read.
func (fed *federation) allow(own []string) []string {
	if fed == nil {
		return own
	}
	out := slices.Clone(own)
	for _, s := range fed.sources {
		out = append(out, s.own.Poisoning.Allow...)
	}
	return out
}

// source is the source named ns.
func (fed *federation) source(ns string) *fedSource {
	if fed == nil {
		return nil
	}
	for _, s := range fed.sources {
		if s.conf.Namespace == ns {
			return s
		}
	}
	return nil
}

// tag sets each note's Source from its path.
func (fed *federation) tag(notes []note.Note) {
	if fed == nil {
		return
	}
	for i := range notes {
		notes[i].Source = fed.owner(notes[i].Path)
	}
}

// from is where the note at path of the source ns came from, for its
// documents and page; nil for the built repository's own notes.
func (fed *federation) from(ns, p string) *export.From {
	s := fed.source(ns)
	if s == nil {
		return nil
	}
	inner := path.Join(s.repo.Prefix, strings.TrimPrefix(p, s.prefix+"/"))
	return &export.From{Namespace: ns, Name: s.conf.Name, URL: s.conf.FileLink(s.repo.Head, inner)}
}

// manifest lists the sources for the manifest, in namespace order.
func (fed *federation) manifest() []export.SourceRepo {
	if fed == nil {
		return nil
	}
	out := make([]export.SourceRepo, len(fed.sources))
	for i, s := range fed.sources {
		out[i] = export.SourceRepo{Namespace: s.conf.Namespace, Name: s.conf.Name, URL: s.conf.URL, Commit: s.repo.Head}
	}
	return out
}

// multiFS serves the built repository's files from main and each
// source's under its prefix from its own file system.
type multiFS struct {
	main  fs.FS
	parts []fsPart
}

type fsPart struct {
	prefix string // with its trailing slash
	fsys   fs.FS
}

func (m *multiFS) pick(name string) (fs.FS, string) {
	best := -1
	fsys, rest := m.main, name
	for _, p := range m.parts {
		if strings.HasPrefix(name, p.prefix) && len(p.prefix) > best {
			best, fsys, rest = len(p.prefix), p.fsys, strings.TrimPrefix(name, p.prefix)
		}
	}
	return fsys, rest
}

func (m *multiFS) Open(name string) (fs.File, error) {
	fsys, rest := m.pick(name)
	return fsys.Open(rest)
}

func (m *multiFS) ReadFile(name string) ([]byte, error) {
	fsys, rest := m.pick(name)
	return fs.ReadFile(fsys, rest)
}

// repoOf is the repository of the source ns, or main for "".
func (fed *federation) repoOf(ns string, main *source.Repo) *source.Repo {
	if s := fed.source(ns); s != nil {
		return s.repo
	}
	return main
}

// withSources is fp, the fingerprint of the repository at dir, joined
// with each source's, in namespace order. An engram.toml that does not
// load leaves fp as it is: the build that reads it refuses it.
func withSources(dir, fp string) (string, error) {
	cfg, err := config.Read(dir)
	if err != nil || len(cfg.Sources) == 0 {
		return fp, nil
	}
	ss, err := resolveSources(dir, cfg)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\n", fp)
	for _, s := range ss {
		sfp, err := source.Fingerprint(s.dir, nil)
		if err != nil {
			return "", sourceError(s.conf, s.index, "%v", err)
		}
		fmt.Fprintf(h, "%q %q %q %q %q\n", s.conf.Namespace, s.prefix, s.conf.Name, s.conf.URL, sfp)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
