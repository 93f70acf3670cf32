package gen

import (
	"bytes"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/source"
	"go.yaml.in/yaml/v3"
)

// corpora are the option sets every property test runs against.
var corpora = []struct {
	name string
	o    Options
}{
	{"default", Options{}},
	{"seed 7", Options{Seed: 7}},
	{"sized 1000", Sized(1000)},
	{"all bad kinds", Options{Episodes: 30, Patterns: 6, Antipatterns: 2, BadNotes: 10, Commits: 4}},
	{"one commit", Options{Episodes: 12, Patterns: 3, BadNotes: 1, Commits: 1}},
	{"patterns only", Options{Patterns: 5, Antipatterns: 2}},
	{"bad only", Options{BadNotes: 5}},
	{"near duplicates", Options{Episodes: 60, Patterns: 6, NearDuplicates: 10}},
}

func TestGenerateIsDeterministic(t *testing.T) {
	for _, tc := range corpora {
		t.Run(tc.name, func(t *testing.T) {
			a, b := Generate(tc.o), Generate(tc.o)
			if !reflect.DeepEqual(a, b) {
				t.Fatal("two runs with the same options differ")
			}
		})
	}
}

// TestNearDuplicates: the pairs are planted, each names the other, and
// their bodies differ only where the option says.
func TestNearDuplicates(t *testing.T) {
	for _, n := range []int{0, 1, 10, 30, 40} {
		c := Generate(Options{Episodes: 60, NearDuplicates: n})
		fsys := c.FS()
		twins := 0
		byTitle := map[string]Note{}
		for _, e := range c.Episodes() {
			byTitle[e.Title] = e
		}
		for _, e := range c.Episodes() {
			if e.Twin == "" {
				continue
			}
			twins++
			other := byTitle[e.Twin]
			if other.Twin != e.Title || other.Task != e.Task || !reflect.DeepEqual(other.Tags, e.Tags) {
				t.Errorf("%s and %s: not a pair (%q, %q / %q)", e.Title, e.Twin, other.Twin, other.Task, e.Task)
			}
			a, b := body(string(fsys[e.Path].Data)), body(string(fsys[other.Path].Data))
			a = strings.ReplaceAll(a, e.Word, "WORD")
			b = strings.ReplaceAll(b, other.Word, "WORD")
			if a != b {
				t.Errorf("%s and %s: bodies differ\n%s\n---\n%s", e.Title, other.Title, a, b)
			}
		}
		if want := 2 * min(n, 30); twins != want {
			t.Errorf("NearDuplicates %d: %d episodes in pairs, want %d", n, twins, want)
		}
	}
}

// body is an episode's text from its context to its lessons: what a twin
// repeats.
func body(s string) string {
	_, s, _ = strings.Cut(s, "## Context")
	s, _, _ = strings.Cut(s, "## Relations")
	s = regexp.MustCompile(`\d{4}-\d\d-\d\dT[0-9:]+Z`).ReplaceAllString(s, "TIME")
	s = regexp.MustCompile(`Revised in revision \d+ after review\.\n|- Revisit old notes when the [a-z ]+ changes\n`).ReplaceAllString(s, "")
	return strings.TrimSpace(s)
}

func TestSeedChangesOutput(t *testing.T) {
	tests := []struct {
		name string
		a, b Options
	}{
		{"default", Options{Seed: 1}, Options{Seed: 2}},
		{"sized", Sized(500), func() Options { o := Sized(500); o.Seed = -3; return o }()},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fa, fb := Generate(tc.a).FS(), Generate(tc.b).FS()
			same := 0
			for path, f := range fa {
				if g, ok := fb[path]; ok && bytes.Equal(f.Data, g.Data) {
					same++
				}
			}
			if same > len(fa)/10 {
				t.Errorf("%d of %d files identical across seeds", same, len(fa))
			}
		})
	}
}

func TestCounts(t *testing.T) {
	tests := []struct {
		name                          string
		o                             Options
		episodes, patterns, anti, bad int
		commits                       int
	}{
		{"zero value", Options{}, 120, 20, 4, 3, 15},
		{"sized 10000", Sized(10000), 8134, 1389, 277, 200, 100},
		{"commits capped", Options{Episodes: 3, Patterns: 1, Commits: 50}, 3, 1, 0, 0, 3},
		{"negative is zero", Options{Episodes: 4, Patterns: -2, BadNotes: 1}, 4, 0, 0, 1, 1},
		{"patterns only", Options{Patterns: 5, Antipatterns: 2}, 0, 5, 2, 0, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := Generate(tc.o)
			anti := 0
			for _, n := range c.Patterns() {
				if n.Type == "antipattern" {
					anti++
				}
			}
			got := []int{len(c.Episodes()), len(c.Patterns()) - anti, anti, len(c.Bad()), len(c.Commits)}
			want := []int{tc.episodes, tc.patterns, tc.anti, tc.bad, tc.commits}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("episodes, patterns, antipatterns, bad, commits = %v, want %v", got, want)
			}
			total := tc.episodes + tc.patterns + tc.anti + tc.bad
			if len(c.Notes) != total || len(c.FS()) != total {
				t.Errorf("%d notes, %d files, want %d", len(c.Notes), len(c.FS()), total)
			}
		})
	}
}

func TestSized(t *testing.T) {
	for _, n := range []int{1, 120, 10000, 100000} {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			if got := Sized(n).withDefaults().total(); got != n {
				t.Errorf("Sized(%d) makes %d notes", n, got)
			}
		})
	}
}

func TestCommits(t *testing.T) {
	for _, tc := range corpora {
		t.Run(tc.name, func(t *testing.T) {
			c := Generate(tc.o)
			seen := map[string]bool{}
			for i, cm := range c.Commits {
				if i > 0 && !cm.When.After(c.Commits[i-1].When) {
					t.Errorf("commit %d at %v is not after commit %d", i, cm.When, i-1)
				}
				added := 0
				for path := range cm.Files {
					if !seen[path] {
						seen[path] = true
						added++
					}
				}
				if added == 0 {
					t.Errorf("commit %d adds no note", i)
				}
			}
			if last := c.Commits[len(c.Commits)-1].When; !c.RefTime.Equal(last) {
				t.Errorf("RefTime %v, last commit %v", c.RefTime, last)
			}
		})
	}
}

func TestTitlesUnique(t *testing.T) {
	for _, tc := range corpora {
		t.Run(tc.name, func(t *testing.T) {
			c := Generate(tc.o)
			seen := map[string]string{}
			for _, n := range c.Notes {
				key := strings.ToLower(n.Title)
				if other, ok := seen[key]; ok {
					t.Errorf("%s and %s share a title", n.Path, other)
				}
				seen[key] = n.Path
				if !strings.HasSuffix(n.Path, "/"+n.Title+".md") {
					t.Errorf("%s: file name is not the title %s", n.Path, n.Title)
				}
				if !strings.Contains(frontMatterText(c, n), n.Title) {
					t.Errorf("%s: title %s not in front matter", n.Path, n.Title)
				}
			}
		})
	}
}

var wikilink = regexp.MustCompile(`\[\[([^\]|#]+)`)

func TestLinksResolve(t *testing.T) {
	decisionID := regexp.MustCompile(`^d\d{3}$`)
	for _, tc := range corpora {
		t.Run(tc.name, func(t *testing.T) {
			c := Generate(tc.o)
			fsys := c.FS()
			byTitle := map[string]Note{}
			for _, n := range c.Notes {
				if n.Bad == "" {
					byTitle[n.Title] = n
				}
			}
			for _, n := range c.Notes {
				src := string(fsys[n.Path].Data)
				var links []string
				for _, m := range wikilink.FindAllStringSubmatch(src, -1) {
					target := m[1]
					if decisionID.MatchString(target) {
						if !strings.Contains(src, "### "+target+":") {
							t.Errorf("%s: effect [[%s]] names no decision of the note", n.Path, target)
						}
						continue
					}
					links = append(links, target)
					to, ok := byTitle[target]
					switch {
					case !ok:
						t.Errorf("%s: [[%s]] resolves to no good note", n.Path, target)
					case to.AddedIn > n.AddedIn:
						t.Errorf("%s: [[%s]] is added in a later commit", n.Path, target)
					}
				}
				if n.Bad != "" && len(links) > 0 {
					t.Errorf("%s: bad note has links %v", n.Path, links)
				}
				if !reflect.DeepEqual(links, nilIfEmpty(n.Links)) {
					t.Errorf("%s: links %v, ground truth %v", n.Path, links, n.Links)
				}
			}
		})
	}
}

func nilIfEmpty(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
}

var evidenceLine = regexp.MustCompile(`^- \[\[([^\]]+)\]\] - (\w+)`)

func TestEvidence(t *testing.T) {
	for _, tc := range corpora {
		t.Run(tc.name, func(t *testing.T) {
			c := Generate(tc.o)
			fsys := c.FS()
			outcome := map[string]string{}
			for _, n := range c.Episodes() {
				outcome[n.Title] = n.Outcome
				if !strings.Contains(string(fsys[n.Path].Data), "\noutcome: "+n.Outcome+"\n") {
					t.Errorf("%s: outcome %s not in front matter", n.Path, n.Outcome)
				}
			}
			for _, n := range c.Patterns() {
				p := n.Pattern
				var got []Evidence
				for _, l := range section(string(fsys[n.Path].Data), "Evidence Episodes") {
					if m := evidenceLine.FindStringSubmatch(l); m != nil {
						got = append(got, Evidence{Episode: m[1], Outcome: m[2]})
					}
				}
				if !reflect.DeepEqual(got, p.Evidence) {
					t.Errorf("%s: evidence %v, ground truth %v", n.Path, got, p.Evidence)
				}
				for _, e := range got {
					if outcome[e.Episode] != e.Outcome {
						t.Errorf("%s: %s is %s, episode says %q", n.Path, e.Episode, e.Outcome, outcome[e.Episode])
					}
				}
				checkStats(t, n)
			}
		})
	}
}

func checkStats(t *testing.T, n Note) {
	t.Helper()
	p := n.Pattern
	if len(p.Evidence) == 0 {
		if p.StatsSource != "declared" || p.SuccessRate != p.DeclaredSuccessRate || p.Occurrences != p.DeclaredOccurrences {
			t.Errorf("%s: no evidence but stats %+v", n.Path, p)
		}
		return
	}
	sum := 0.0
	for _, e := range p.Evidence {
		sum += map[string]float64{"success": 1, "partial": 0.5}[e.Outcome]
	}
	rate := sum / float64(len(p.Evidence))
	if p.StatsSource != "evidence" || p.SuccessRate != rate || p.Occurrences != len(p.Evidence) {
		t.Errorf("%s: stats %v/%d from %s, want %v/%d", n.Path, p.SuccessRate, p.Occurrences, p.StatsSource, rate, len(p.Evidence))
	}
	if diff := p.DeclaredSuccessRate - rate; diff > 0.1 || diff < -0.1 {
		t.Errorf("%s: declared rate %v differs from %v", n.Path, p.DeclaredSuccessRate, rate)
	}
	if want := n.Type == "antipattern" || (rate <= 0.3 && len(p.Evidence) >= 2); p.Antipattern != want {
		t.Errorf("%s: antipattern %v, want %v", n.Path, p.Antipattern, want)
	}
}

var causalLine = regexp.MustCompile(`^- (\w+) \[\[([^\]]+)\]\](?: \(weight ([0-9.]+)\))?`)

func TestCausalEdges(t *testing.T) {
	for _, tc := range corpora {
		t.Run(tc.name, func(t *testing.T) {
			c := Generate(tc.o)
			fsys := c.FS()
			order := map[string]int{}
			for i, n := range c.Patterns() {
				order[n.Title] = i
			}
			for _, n := range c.Patterns() {
				var got []Edge
				for _, l := range section(string(fsys[n.Path].Data), "Causal Relationships") {
					m := causalLine.FindStringSubmatch(l)
					if m == nil {
						t.Errorf("%s: unexpected line %q", n.Path, l)
						continue
					}
					w, _ := strconv.ParseFloat(m[3], 64)
					got = append(got, Edge{Source: n.Title, Target: m[2], Type: m[1], Weight: w})
					if to, ok := order[m[2]]; !ok || to >= order[n.Title] {
						t.Errorf("%s: edge to %s is not to an earlier pattern", n.Path, m[2])
					}
				}
				if !reflect.DeepEqual(got, n.Pattern.Edges) {
					t.Errorf("%s: edges %v, ground truth %v", n.Path, got, n.Pattern.Edges)
				}
			}
		})
	}
}

// TestFrontMatterYAML checks that good notes decode as YAML maps with the
// required fields, and that bad notes fail the way their kind says.
func TestFrontMatterYAML(t *testing.T) {
	for _, tc := range corpora {
		t.Run(tc.name, func(t *testing.T) {
			c := Generate(tc.o)
			for _, n := range c.Notes {
				var m map[string]any
				err := yaml.Unmarshal([]byte(frontMatterText(c, n)), &m)
				switch n.Bad {
				case "":
					if err != nil || m["title"] != n.Title || m["type"] != n.Type {
						t.Errorf("%s: front matter %v, %v", n.Path, m, err)
					}
					if n.Kind == note.KindEpisode && (m["outcome"] != n.Outcome || m["task"] != n.Task) {
						t.Errorf("%s: outcome or task missing: %v", n.Path, m)
					}
				case BrokenYAML, ListFrontMatter:
					if err == nil {
						t.Errorf("%s: %s front matter decodes", n.Path, n.Bad)
					}
				case MissingOutcome, InvalidDate:
					if _, ok := m["outcome"]; err != nil || ok != (n.Bad == InvalidDate) {
						t.Errorf("%s: %s front matter %v, %v", n.Path, n.Bad, m, err)
					}
				}
			}
		})
	}
}

func TestCreatedDates(t *testing.T) {
	for _, tc := range corpora {
		t.Run(tc.name, func(t *testing.T) {
			c := Generate(tc.o)
			for _, n := range c.Notes {
				first, last := touched(c, n.Path)
				if first != n.AddedIn || last != n.UpdatedIn || !n.Updated.Equal(c.Commits[last].When) {
					t.Errorf("%s: touched in %d..%d, ground truth %d..%d", n.Path, first, last, n.AddedIn, n.UpdatedIn)
				}
				date := dateField(frontMatterText(c, n))
				want := c.Commits[first].When
				if n.DateSource == FromFrontMatter {
					want = parseDate(date)
				} else if n.Bad == "" && date != "" {
					t.Errorf("%s: has date %q but source %s", n.Path, date, n.DateSource)
				}
				if !n.Created.Equal(want) || want.IsZero() {
					t.Errorf("%s: created %v, want %v (date %q)", n.Path, n.Created, want, date)
				}
			}
		})
	}
}

// TestUndatedEpisodes checks the share of episodes that exercise the
// commit-date fallback, and that one of them is modified later, so its
// created date must come from its first commit, not its last.
func TestUndatedEpisodes(t *testing.T) {
	for _, o := range []Options{{}, Sized(1000)} {
		c := Generate(o)
		undated, modified := 0, 0
		for _, n := range c.Episodes() {
			if n.DateSource == FromCommit {
				undated++
				if n.UpdatedIn > n.AddedIn {
					modified++
				}
			}
		}
		share := float64(undated) / float64(len(c.Episodes()))
		if share < 0.12 || share > 0.28 || modified == 0 {
			t.Errorf("%d notes: %.2f of episodes undated, %d of them modified", len(c.Notes), share, modified)
		}
	}
}

func TestPlantedWords(t *testing.T) {
	for _, tc := range corpora {
		t.Run(tc.name, func(t *testing.T) {
			c := Generate(tc.o)
			count := map[string]int{}
			for _, f := range c.FS() {
				for _, w := range strings.FieldsFunc(string(f.Data), notLetter) {
					if strings.HasPrefix(w, "zq") {
						count[w]++
					}
				}
			}
			for _, n := range c.Notes {
				if count[n.Word] != 1 || !strings.Contains(string(c.FS()[n.Path].Data), n.Word) {
					t.Errorf("%s: word %q occurs %d times in the corpus", n.Path, n.Word, count[n.Word])
				}
			}
		})
	}
}

func notLetter(r rune) bool { return r < 'a' || r > 'z' }

// frontMatterText returns the lines between the opening "---" and the
// closing one, or to the end of the file when it is never closed.
func frontMatterText(c Corpus, n Note) string {
	lines := strings.Split(string(lastVersion(c, n.Path)), "\n")
	end := index(lines[1:], "---")
	if end < 0 {
		end = len(lines) - 1
	}
	return strings.Join(lines[1:1+end], "\n")
}

func lastVersion(c Corpus, path string) []byte {
	var data []byte
	for _, cm := range c.Commits {
		if d, ok := cm.Files[path]; ok {
			data = d
		}
	}
	return data
}

func touched(c Corpus, path string) (first, last int) {
	first = -1
	for i, cm := range c.Commits {
		if _, ok := cm.Files[path]; ok {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	return first, last
}

func dateField(fm string) string {
	for _, l := range strings.Split(fm, "\n") {
		if v, ok := strings.CutPrefix(l, "date: "); ok {
			return v
		}
	}
	return ""
}

// parseDate reads the date forms SPEC §2 allows; zero when none fits.
func parseDate(s string) time.Time {
	for _, layout := range []string{time.RFC3339Nano, time.DateTime, time.DateOnly} {
		if t, err := time.Parse(layout, s); err == nil {
			return t
		}
	}
	return time.Time{}
}

// section returns the non-empty lines under "## heading".
func section(src, heading string) []string {
	var out []string
	in := false
	for _, l := range strings.Split(src, "\n") {
		switch {
		case strings.HasPrefix(l, "## "):
			in = l == "## "+heading
		case in && l != "":
			out = append(out, l)
		}
	}
	return out
}

func index(lines []string, s string) int {
	for i, l := range lines {
		if l == s {
			return i
		}
	}
	return -1
}

func BenchmarkGenerate10k(b *testing.B) {
	o := Sized(10000)
	for b.Loop() {
		Generate(o)
	}
}

func BenchmarkGenerate100k(b *testing.B) {
	o := Sized(100000)
	for b.Loop() {
		Generate(o)
	}
}

// TestGitRoundTrip writes the default corpus with source.WriteRepo and
// reads it back with source.Open: the history git records must be the
// ground truth's.
func TestGitRoundTrip(t *testing.T) {
	c := Generate(Options{})
	dir := t.TempDir()
	if err := source.WriteRepo(dir, c.Commits); err != nil {
		t.Fatal(err)
	}
	repo, diags, err := source.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(diags) > 0 {
		t.Errorf("diagnostics: %v", diags)
	}
	if !repo.RefTime.Equal(c.RefTime) || len(repo.Files) != len(c.Notes) {
		t.Fatalf("ref time %v, %d files; want %v, %d", repo.RefTime, len(repo.Files), c.RefTime, len(c.Notes))
	}
	files := map[string]source.File{}
	for _, f := range repo.Files {
		files[f.Path] = f
	}
	for _, n := range c.Notes {
		h := files[n.Path].History
		if !h.Created.Equal(c.Commits[n.AddedIn].When) || !h.Updated.Equal(n.Updated) {
			t.Errorf("%s: git history %v..%v, want %v..%v", n.Path, h.Created, h.Updated, c.Commits[n.AddedIn].When, n.Updated)
		}
	}
}
