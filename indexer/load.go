package indexer

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"path"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/engramhq/engram/indexer/aiagents"
	"github.com/engramhq/engram/indexer/causal"
	"github.com/engramhq/engram/indexer/config"
	"github.com/engramhq/engram/indexer/events"
	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/lessons"
	"github.com/engramhq/engram/indexer/mine"
	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/parse"
	"github.com/engramhq/engram/indexer/poison"
	"github.com/engramhq/engram/indexer/related"
	"github.com/engramhq/engram/indexer/search"
	"github.com/engramhq/engram/indexer/secrets"
	"github.com/engramhq/engram/indexer/source"
	"github.com/engramhq/engram/indexer/store"
)

// Loaded is a repository read, parsed and linked: everything a build
// publishes, and everything `engram check` reports.
type Loaded struct {
	Config      config.Config
	Export      export.Input
	Diagnostics []note.Diagnostic
	Counts      map[string]int
	// Expired are the events past retention, left out of the output:
	// what engram prune deletes.
	Expired []events.Execution
	// Secrets is what the secret scan found in every file read, and the
	// scanner for the output (SPEC §6).
	Secrets *secrets.Input
	// BaseURL is where the site lives, and which setting said so.
	BaseURL BaseURL
	// parses is the parse store this load read and what it will keep;
	// nil when it used none (store/parsecache.go).
	parses *store.ParseCache
}

// Load runs the source, parse and graph stages.
func Load(ctx context.Context, opt Options) (*Loaded, error) {
	return load(ctx, opt, &stopwatch{r: &Report{}}, false)
}

// load is Load, timing each stage on clock; with stored, it parses only
// the notes the parse store does not hold, and makes what it will keep.
func load(ctx context.Context, opt Options, clock *stopwatch, stored bool) (in *Loaded, err error) {
	opt = opt.withDefaults()
	clock.start("source")
	repo, diags, err := source.Open(opt.Repo)
	if err != nil {
		return nil, newRepoError(opt.Repo, err)
	}
	repo.Files, diags = withoutOutput(repo.Files, diags, opt)
	// Every file is scanned for secrets before anything parses it, and
	// read from then on with the secrets redacted.
	clock.start("secrets")
	sec, sdiags, err := scanSecrets(ctx, repo, opt.Redact)
	if err != nil {
		return nil, err
	}
	diags = append(renameDiagnostics(diags, sec), sdiags...)
	cfg, cdiags, err := config.Load(repo.FS)
	if err != nil {
		return nil, err
	}
	diags = append(diags, cdiags...)
	// The [[sources]] join the repository here, scanned as it is
	// (sources.go).
	fed, fdiags, err := openSources(ctx, opt, cfg, repo, sec)
	if err != nil {
		return nil, err
	}
	diags = append(diags, fdiags...)
	// What the messages may quote is scanned as the output is.
	quoted := sec.Scanner.Output(sec.Found)
	base, err := resolveBaseURL(opt, cfg.BaseURL)
	if err != nil {
		return nil, err
	}

	clock.start("parse")
	roots := fed.roots(parse.Roots{Episodes: cfg.Paths.Episodes, Patterns: cfg.Paths.Patterns})
	var pc *store.ParseCache
	if stored {
		pc = store.OpenParseCache(opt.Repo, opt.CacheDir, roots)
		defer func() {
			if err != nil {
				pc.Discard() // what Keep wrote: no build publishes it
			}
		}()
	}
	notes, files, pdiags, err := parseAll(ctx, repo, roots, pc)
	if err != nil {
		return nil, err
	}
	diags = append(diags, pdiags...)
	fed.tag(notes)
	// Private notes go first: a repeat of a private episode must not name
	// it, and is published or not on its own.
	counts := map[string]int{"files": len(repo.Files), "secrets": len(unallowed(sec.Found))}
	hidden := privateTitles(notes)
	notes, files, private := dropPrivate(notes, files, counts)
	notes, files, pdiags = dropRepeatedJSON(notes, files)
	diags = append(diags, pdiags...)
	if pc != nil {
		pc.Keep(notes) // the notes as parsed: what follows changes them
	}
	namespaceNotes(fed, notes)
	ref, rdiags := referenceTime(opt, repo, notes)
	diags = append(diags, rdiags...)
	meta, mdiags := noteMeta(notes, files, repo, ref, fed)
	diags = append(diags, mdiags...)
	feedback, fdiags := readFeedback(repo, notes)
	diags = append(diags, fdiags...)
	kept, expired, ediags := readEvents(repo, ref, *cfg.Events.RetentionDays)
	diags = append(diags, ediags...)
	counts["events_expired"] = len(expired)
	diags = append(diags, expireObservations(notes, meta, ref, cfg.ExportDecay().TTL)...)
	if err := checkUnique(notes, meta); err != nil {
		return nil, redactError(err, quoted)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	// The lessons' clusters and the related episodes read the notes and
	// nothing of the graph: they run beside poisoning and graph, which
	// wait for them (issue 30).
	var (
		aside    sync.WaitGroup
		clusters []export.LessonCluster
		found    related.Result
	)
	aside.Go(func() { clusters = clusterLessons(notes, meta) })
	aside.Go(func() { found = related.Analyze(notes, createdTimes(meta)) })
	clock.start("poisoning")
	poisoned := poison.Check(notes, func(p string) ([]byte, error) { return fs.ReadFile(repo.FS, p) }, fed.allow(cfg.Poisoning.Allow))
	diags = append(diags, poisoned.Diags...)
	diags = append(diags, unusedAllows(repo.FS, ownAllows(poisoned.Unused, cfg.Poisoning.Allow))...)
	if n := countTrue(poisoned.Poisoned); n > 0 {
		counts["poisoned"] = n
	}

	clock.start("graph")
	g := causal.Build(notes, causal.Options{
		AntipatternMaxSuccess:     *cfg.Antipatterns.MaxSuccess,
		AntipatternMinOccurrences: *cfg.Antipatterns.MinOccurrences,
		Poisoned:                  poisoned.Poisoned,
	})
	diags = append(diags, g.Diags...)
	if err := ctx.Err(); err != nil {
		aside.Wait() // they hold nothing of the context: let them end
		return nil, err
	}
	clock.start("mine")
	candidates := mine.Mine(notes, g, mine.Options{Analyze: search.Analyze})
	aside.Wait()
	redactDiagnostics(diags, quoted)
	note.SortDiagnostics(diags)
	counts["diagnostics"] = len(diags)
	counts["errors"] = note.CountErrors(diags)
	return &Loaded{
		parses: pc,
		Config: cfg,
		Export: export.Input{
			Title: cfg.Title, BaseURL: base.prefix(), RelativeLinks: base.URL == "", Generator: "engram " + config.Version,
			Commit: repo.Head, ReferenceTime: ref, Notes: notes, Meta: meta, Graph: g,
			Feedback: feedback, Decay: cfg.ExportDecay(), Diagnostics: public(diags, private, hidden), Lessons: clusters,
			Events: kept, RetentionDays: *cfg.Events.RetentionDays, Related: found.Work, Links: found.Links,
			Poisoning: flagged(poisoned.Findings), Candidates: candidates, Sources: fed.manifest(),
		},
		Diagnostics: diags,
		Counts:      counts,
		Expired:     expired,
		Secrets:     sec,
		BaseURL:     base,
	}, nil
}

// createdTimes are the notes' dates, in the notes' order.
func createdTimes(meta []export.Meta) []time.Time {
	out := make([]time.Time, len(meta))
	for i, m := range meta {
		out[i] = m.Created
	}
	return out
}

// scanSecrets scans every file of the repository for secrets, and from
// then on serves the repository with them redacted. Each finding is a
// diagnostic that names the rule and the fingerprint, never the secret:
// an error, or a warning when the build redacts; an allowed one is info.
func scanSecrets(ctx context.Context, repo *source.Repo, redact bool) (*secrets.Input, []note.Diagnostic, error) {
	paths := make([]string, len(repo.Files))
	for i, f := range repo.Files {
		paths[i] = f.Path
	}
	in, fsys, diags, err := secrets.ScanFS(ctx, repo.FS, paths)
	if err != nil {
		return nil, nil, err
	}
	repo.FS = fsys
	renameFiles(repo, in.Renamed)
	for _, f := range in.Found {
		diags = append(diags, secretDiagnostic(f, in, redact))
	}
	return in, diags, nil
}

// secretDiagnostic is the diagnostic of a secret found.
func secretDiagnostic(f secrets.Finding, in *secrets.Input, redact bool) note.Diagnostic {
	d := note.Diagnostic{Path: f.Path, Line: f.Line, Col: f.Col, Severity: note.Error, Rule: "secret"}
	what, fix := fmt.Sprintf("secret found (rule %s, fingerprint %s)", f.Rule, f.Fingerprint), "allow it in "+secrets.IgnoreFile+" if it is a false positive"
	if f.InName {
		what, fix = fmt.Sprintf("secret found in the file's path (rule %s, fingerprint %s)", f.Rule, f.Fingerprint), "rename the file (a path cannot be allowed)"
	}
	switch {
	case f.Allowed:
		d.Severity, d.Message = note.Info, what+"; allowed by "+secrets.IgnoreFile
	case in.Withheld[f.Path]:
		d.Message = what + " that could not be redacted; the file is not read"
	case redact:
		d.Severity, d.Message = note.Warning, what+"; published as "+secrets.Redacted(f.Rule)
	default:
		d.Message = what + "; " + fix + ", or build with --redact"
	}
	return d
}

// renameFiles gives the files whose path held a secret their redacted
// path (renamed: old → new), which the scanned file system serves them
// by; the files stay sorted by path.
func renameFiles(repo *source.Repo, renamed map[string]string) {
	if len(renamed) == 0 {
		return
	}
	for i, f := range repo.Files {
		if name, ok := renamed[f.Path]; ok {
			repo.Files[i].Path = name
		}
	}
	slices.SortStableFunc(repo.Files, func(a, b source.File) int { return strings.Compare(a.Path, b.Path) })
}

// renameDiagnostics names the paths of the diagnostics made before the
// secret scan (the source stage's: symlinks, untracked files) as the
// build names them from then on, with any secret in them redacted.
func renameDiagnostics(diags []note.Diagnostic, in *secrets.Input) []note.Diagnostic {
	for i := range diags {
		diags[i].Path = in.Name(diags[i].Path)
	}
	return diags
}

// unallowed are the findings that .gitleaksignore does not allow.
func unallowed(found []secrets.Finding) []secrets.Finding {
	var out []secrets.Finding
	for _, f := range found {
		if !f.Allowed {
			out = append(out, f)
		}
	}
	return out
}

// flagged keeps, of each note's poisoning findings, those the allow list
// does not name: what the note is flagged for.
func flagged(findings [][]poison.Finding) [][]poison.Finding {
	out := make([][]poison.Finding, len(findings))
	for i, fs := range findings {
		for _, f := range fs {
			if !f.Allowed {
				out[i] = append(out[i], f)
			}
		}
	}
	return out
}

// ownAllows are the unused allow entries of the built repository's own
// engram.toml (a source's are the source's to tidy).
func ownAllows(unused, own []string) []string {
	return slices.DeleteFunc(slices.Clone(unused), func(u string) bool { return !slices.Contains(own, u) })
}

// unusedAllows reports, at its line of engram.toml, each allowed
// fingerprint that names no finding: the text changed or went, and the
// entry allows nothing (or, after a rename, no longer what was reviewed).
func unusedAllows(fsys fs.FS, unused []string) []note.Diagnostic {
	if len(unused) == 0 {
		return nil
	}
	data, _ := fs.ReadFile(fsys, config.File)
	var diags note.Diagnostics
	for _, u := range unused {
		line, col := 1, 1
		if i := strings.Index(string(data), u); i >= 0 {
			line = strings.Count(string(data[:i]), "\n") + 1
			col = i - strings.LastIndex(string(data[:i]), "\n")
		}
		diags.Report(config.File, line, col, note.Warning, "poisoning-allow-unused", "poisoning.allow names %q, which matches no text: the text changed or is gone; remove the entry (or allow the new fingerprint engram check prints)", u)
	}
	return diags
}

func countTrue(bs []bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

// clusterLessons clusters the lessons of every episode (SPEC §3).
func clusterLessons(notes []note.Note, meta []export.Meta) []export.LessonCluster {
	var ls []lessons.Lesson
	for i := range notes {
		if n := &notes[i]; n.Episode != nil {
			for _, l := range n.Episode.Lessons {
				ls = append(ls, lessons.Lesson{Text: l.Text, Episode: n.Title, Date: meta[i].Created})
			}
		}
	}
	cs := lessons.Clusters(ls, lessons.Options{Analyze: search.AnalyzeKeepingNegations})
	families := map[int][]string{} // a family's first cluster -> its episodes
	size := map[int]int{}
	for _, c := range cs {
		families[c.Family] = append(families[c.Family], c.Episodes...)
		size[c.Family]++
	}
	var out []export.LessonCluster
	for _, c := range cs {
		lc := export.LessonCluster{Text: c.Text, Count: c.Count, Episodes: c.Episodes, Latest: c.Latest, Wordings: c.Members}
		for _, r := range c.Related {
			lc.Related = append(lc.Related, export.RelatedLesson{Text: cs[r.Cluster].Text, Score: r.Score, Opposite: r.Opposite})
		}
		if size[c.Family] > 1 {
			eps := slices.Clone(families[c.Family])
			slices.Sort(eps)
			lc.Family, lc.FamilyEpisodes = cs[c.Family].Text, slices.Compact(eps)
		}
		out = append(out, lc)
	}
	return out
}

// expireObservations leaves out the observations whose category has a TTL
// (engram.toml [ttl]) that the note's age exceeds, each listed as an info
// diagnostic at its line (SPEC §3, retention).
func expireObservations(notes []note.Note, meta []export.Meta, ref time.Time, ttl map[string]float64) []note.Diagnostic {
	if len(ttl) == 0 {
		return nil
	}
	var diags note.Diagnostics
	for i := range notes {
		n := &notes[i]
		age := ref.Sub(meta[i].Created).Hours() / 24
		kept := n.Observations[:0]
		for _, o := range n.Observations {
			if days, ok := ttl[strings.ToLower(o.Category)]; ok && age > days {
				diags.Report(n.Path, o.Line, 1, note.Info, "ttl-expired", "[%s] observation is %.0f days old, past its TTL of %g days; left out", o.Category, age, days)
				continue
			}
			kept = append(kept, o)
		}
		n.Observations = kept
	}
	return diags
}

// parsed is the outcome of reading one file.
type parsed struct {
	note  note.Note
	file  source.File
	diags []note.Diagnostic
	ok    bool
}

// parseAll parses every markdown file on all cores and accounts for every
// other file with a diagnostic. Results keep the order of repo.Files.
func parseAll(ctx context.Context, repo *source.Repo, roots parse.Roots, pc *store.ParseCache) ([]note.Note, []source.File, []note.Diagnostic, error) {
	p := parse.New(roots)
	results := make([]parsed, len(repo.Files))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				results[i] = readFile(repo, repo.Files[i], p, pc)
			}
		}()
	}
	var err error
	for i := range repo.Files {
		if err = ctx.Err(); err != nil {
			break
		}
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	if err != nil {
		return nil, nil, nil, err
	}
	var notes []note.Note
	var files []source.File
	var diags note.Diagnostics
	for _, r := range results {
		diags = append(diags, r.diags...)
		if r.ok {
			notes = append(notes, r.note)
			files = append(files, r.file)
		}
	}
	return notes, files, diags, nil
}

// readFile reads one file of the repository: a note is parsed, anything
// else is accounted for with an info diagnostic saying why it is skipped.
// A note the parse store pc holds (if any) is taken from there.
func readFile(repo *source.Repo, f source.File, p *parse.Parser, pc *store.ParseCache) parsed {
	info := func(rule, msg string) parsed {
		return parsed{diags: []note.Diagnostic{{Path: f.Path, Line: 1, Col: 1, Severity: note.Info, Message: msg, Rule: rule}}}
	}
	if f.Path == config.File || isFeedback(f.Path) || events.IsFile(f.Path) {
		return parsed{} // read by LoadConfig, readFeedback, readEvents
	}
	if reason, skip := skipReason(f.Path); skip {
		return info(reason.rule, reason.msg)
	}
	if f.Size > parse.MaxNoteBytes {
		return unread(f, []note.Diagnostic{{Path: f.Path, Line: 1, Col: 1, Severity: note.Error, Rule: "note-too-large",
			Message: fmt.Sprintf("note is %d bytes, over the limit of %d; not published", f.Size, parse.MaxNoteBytes)}})
	}
	src, err := fs.ReadFile(repo.FS, f.Path)
	if err != nil {
		return unread(f, []note.Diagnostic{{Path: f.Path, Line: 1, Col: 1, Severity: note.Error, Rule: "read", Message: err.Error()}})
	}
	var sum [sha256.Size]byte
	if pc != nil {
		n, diags, s, ok := pc.Get(f.Path, src)
		if ok {
			return parsed{note: n, file: f, diags: diags, ok: true}
		}
		sum = s
	}
	var n note.Note
	var diags note.Diagnostics
	if aiagents.IsEpisodeFile(f.Path) {
		// ai-agents episode JSON is published as it is (SPEC §2.4).
		n, diags, err = aiagents.Decode(f.Path, src)
	} else {
		n, diags, err = p.Parse(f.Path, src)
	}
	if err != nil {
		return unread(f, diags)
	}
	if pc != nil && !n.Private {
		pc.Put(f.Path, sum, diags)
	}
	return parsed{note: n, file: f, diags: diags, ok: true}
}

// unread is a note file that could not be read. It might say private:
// true, so it is withheld as a private note is: its path and diagnostics
// stay in the report, out of the output (SPEC §6).
func unread(f source.File, diags []note.Diagnostic) parsed {
	return parsed{note: note.Note{Path: f.Path, Private: true}, file: f, diags: diags, ok: true}
}

type skip struct{ rule, msg string }

// skipReason says why a file is not a note, or false for a note.
func skipReason(p string) (skip, bool) {
	base := path.Base(p)
	switch {
	case strings.EqualFold(path.Ext(p), ".md"):
		return skip{}, false
	case aiagents.IsEpisodeFile(p):
		return skip{}, false
	case base == "causal-graph.json" && path.Base(path.Dir(p)) == "causality":
		return skip{"aiagents-causal-graph", "ai-agents' causal graph is read by engram import, never published: engram computes its own graph"}, true
	case strings.HasSuffix(p, ".jsonl"):
		return skip{"unsupported-input", "JSONL is read in events/ (execution events) and feedback/ only; not published"}, true
	}
	return skip{"not-a-note", "not a markdown note; not published"}, true
}

// dropPrivate drops the private notes, and returns their paths.
func dropPrivate(notes []note.Note, files []source.File, counts map[string]int) ([]note.Note, []source.File, map[string]bool) {
	var n2 []note.Note
	var f2 []source.File
	private := map[string]bool{}
	for i, n := range notes {
		if n.Private {
			counts["private"]++
			private[n.Path] = true
			continue
		}
		n2 = append(n2, n)
		f2 = append(f2, files[i])
	}
	return n2, f2, private
}

// public are the diagnostics the output may show: none about a private
// note, whose path and text are absent everywhere (SPEC §6), and none
// that names one (hidden: the title keys of the private notes), such as
// a feedback line or a link naming a private note. The report keeps
// them all.
func public(diags []note.Diagnostic, private, hidden map[string]bool) []note.Diagnostic {
	out := make([]note.Diagnostic, 0, len(diags))
	for _, d := range diags {
		if !private[d.Path] && !namesPrivate(d.Message, hidden) {
			out = append(out, d)
		}
	}
	return out
}

// privateTitles are the title keys of the private notes that no public
// note shares: what a published diagnostic must not name.
func privateTitles(notes []note.Note) map[string]bool {
	hidden, shown := map[string]bool{}, map[string]bool{}
	for _, n := range notes {
		if k := causal.Key(qualified(&n)); k != "" && n.Private {
			hidden[k] = true
		} else if k != "" {
			shown[k] = true
		}
	}
	for k := range shown {
		delete(hidden, k)
	}
	return hidden
}

// namesPrivate reports whether a diagnostic's message names a hidden
// title as diagnostics name notes: quoted ("title", as %q writes it) or
// as a wikilink ([[title]], [[title|alias]], [[title#heading]]).
func namesPrivate(msg string, hidden map[string]bool) bool {
	if len(hidden) == 0 {
		return false
	}
	for rest := msg; ; {
		i := strings.IndexAny(rest, "\"[")
		if i < 0 {
			return false
		}
		rest = rest[i:]
		if q, err := strconv.QuotedPrefix(rest); err == nil {
			if s, err := strconv.Unquote(q); err == nil && hidden[causal.Key(s)] {
				return true
			}
			rest = rest[len(q):]
			continue
		}
		if link, ok := strings.CutPrefix(rest, "[["); ok {
			if target, _, ok := strings.Cut(link, "]]"); ok {
				target, _, _ = strings.Cut(target, "|")
				target, _, _ = strings.Cut(target, "#")
				if hidden[causal.Key(target)] {
					return true
				}
			}
		}
		rest = rest[1:]
	}
}

// dropRepeatedJSON keeps the first of the ai-agents JSON episodes that
// repeat an id (real repositories have them: a file rewritten under a new
// name); each repeat is a warning, not published. A markdown note whose
// title repeats is left to checkUnique, which refuses the build.
func dropRepeatedJSON(notes []note.Note, files []source.File) ([]note.Note, []source.File, []note.Diagnostic) {
	seen := map[string]string{}
	var diags note.Diagnostics
	keptN, keptF := notes[:0:0], files[:0:0]
	for i, n := range notes {
		k := causal.Key(qualified(&n))
		if first, dup := seen[k]; dup && aiagents.IsEpisodeFile(n.Path) {
			diags.Report(n.Path, 1, 1, note.Warning, "aiagents-repeated-id", "episode id %q is already published from %s; this file is not published", n.Title, first)
			continue
		}
		if _, dup := seen[k]; !dup {
			seen[k] = n.Path
		}
		keptN, keptF = append(keptN, n), append(keptF, files[i])
	}
	return keptN, keptF, diags
}

// checkUnique refuses notes whose titles differ only by case or Unicode
// normalisation, or whose slugs collide (SPEC §6). Every collision is in
// the one refusal, each naming all its files, so that an author fixes
// them in one go rather than one build at a time. A group of notes that
// share a path because they share a title is the title's collision
// alone.
func checkUnique(notes []note.Note, meta []export.Meta) error {
	titles := collisions(len(notes), func(i int) string { return causal.Key(notes[i].Title) })
	slugs := collisions(len(notes), func(i int) string { return export.Folder(&notes[i]) + "/" + meta[i].Slug })
	var found []string
	byTitle := map[int]int{} // note -> its title group
	for g, group := range titles {
		for _, i := range group {
			byTitle[i] = g
		}
		found = append(found, fmt.Sprintf("%s have the same title, ignoring case and Unicode normalisation; titles must be unique", pathList(notes, group, true)))
	}
	for _, group := range slugs {
		if oneTitle(group, byTitle) {
			continue
		}
		found = append(found, fmt.Sprintf("%s would be published at the same path %s; rename all but one", pathList(notes, group, false), export.Folder(&notes[group[0]])+"/"+meta[group[0]].Slug))
	}
	switch len(found) {
	case 0:
		return nil
	case 1:
		return fmt.Errorf("%w: %s", ErrRefused, found[0])
	}
	return fmt.Errorf("%w: %d collisions, each to fix:\n  %s", ErrRefused, len(found), strings.Join(found, "\n  "))
}

// collisions groups the indexes 0…n-1 by key, and returns the groups of
// two or more, in the order of their first index, each in index order.
func collisions(n int, key func(int) string) [][]int {
	first := map[string]int{} // key -> its group
	var groups [][]int
	for i := range n {
		k := key(i)
		g, seen := first[k]
		if !seen {
			g = len(groups)
			first[k] = g
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], i)
	}
	return slices.DeleteFunc(groups, func(g []int) bool { return len(g) < 2 })
}

// oneTitle reports whether every note of group is in one title group.
func oneTitle(group []int, byTitle map[int]int) bool {
	g, ok := byTitle[group[0]]
	for _, i := range group[1:] {
		h, in := byTitle[i]
		ok = ok && in && h == g
	}
	return ok
}

// pathList names the files of notes: "a and b", "a, b and c"; with
// titles, each file's title follows it in brackets.
func pathList(notes []note.Note, group []int, titles bool) string {
	paths := make([]string, len(group))
	for k, i := range group {
		paths[k] = notes[i].Path
		if titles {
			paths[k] += fmt.Sprintf(" (%q)", notes[i].Title)
		}
	}
	return strings.Join(paths[:len(paths)-1], ", ") + " and " + paths[len(paths)-1]
}

// withoutOutput drops engram's own output (and the directories a build
// writes beside it) when the output directory lies inside the repository,
// as public/ does when a memory repository builds itself, with what the
// source stage said of it (untracked or ignored files).
func withoutOutput(files []source.File, diags []note.Diagnostic, opt Options) ([]source.File, []note.Diagnostic) {
	skip := outputFilter(opt)
	if skip == nil {
		return files, diags
	}
	kept := files[:0:0]
	for _, f := range files {
		if !skip(f.Path) {
			kept = append(kept, f)
		}
	}
	keptD := diags[:0:0]
	for _, d := range diags {
		if !skip(d.Path) {
			keptD = append(keptD, d)
		}
	}
	return kept, keptD
}
