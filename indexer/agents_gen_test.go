package indexer_test

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/bootstrap"
	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/gen"
	"github.com/engramhq/engram/indexer/source"
	"github.com/engramhq/engram/indexer/store"
	"github.com/engramhq/engram/indexer/tokens"
)

// TestAgentFormatsGenerated checks what agents read (issue 4) on a
// generated repository no other test uses: 600 notes over 180 days, so
// that some episodes are stale, with planted lesson paraphrases.
func TestAgentFormatsGenerated(t *testing.T) {
	o := gen.Sized(600)
	o.Seed, o.Step = 424242, 72*time.Hour
	corpus := gen.Generate(o)
	repo := t.TempDir()
	if err := source.WriteRepo(repo, corpus.Commits); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "public")
	if _, err := indexer.Build(context.Background(), indexer.Options{Repo: repo, Out: out, CacheDir: t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	ref := corpus.RefTime
	// The score, age and stale flag are in episodes.json; the episode's
	// own file has the score's inputs (issue 30, decision 3).
	episodes := map[string]export.Episode{}
	var list export.List[export.EpisodeSummary]
	readJSON(t, filepath.Join(out, "api", "v1", "episodes.json"), &list)
	listed := map[string]export.Decayed{}
	for _, s := range list.Items {
		listed[s.ID] = s.Decayed
	}
	for _, n := range corpus.Episodes() {
		var e export.Episode
		readJSON(t, filepath.Join(out, "api", "v1", "episodes", export.Slug(n.Title)+".json"), &e)
		e.Decayed = listed[n.Title]
		episodes[n.Title] = e
	}

	t.Run("every episode's score, age and stale flag follow the formula", func(t *testing.T) {
		stale := 0
		for _, n := range corpus.Episodes() {
			e := episodes[n.Title]
			age := math.Max(0, ref.Sub(n.Created).Hours()/24)
			wantStale := age > 90
			score := math.Exp(-0.01 * age)
			if wantStale {
				score /= 2
				stale++
			}
			if !near(e.AgeDays, age) || e.Stale != wantStale || !near(e.Score, score) || e.Raw != 1 || e.Lambda != 0.01 {
				t.Errorf("%s: age %v stale %v score %v raw %v λ %v; want age %v stale %v score %v", n.Title, e.AgeDays, e.Stale, e.Score, e.Raw, e.Lambda, age, wantStale, score)
			}
		}
		if stale == 0 || stale == len(corpus.Episodes()) {
			t.Errorf("%d of %d episodes stale: the test proves little", stale, len(corpus.Episodes()))
		}
	})

	var b bootstrap.Bootstrap
	bjs := readJSON(t, filepath.Join(out, "api", "v1", "bootstrap.json"), &b)
	t.Run("recent failures and warnings", func(t *testing.T) {
		var recent []gen.Note
		for _, n := range corpus.Episodes() {
			if (n.Outcome == "failure" || n.Outcome == "partial") && ref.Sub(n.Created) <= 7*24*time.Hour {
				recent = append(recent, n)
			}
		}
		sort.SliceStable(recent, func(i, j int) bool { return recent[i].Created.After(recent[j].Created) })
		var want, got []string
		for _, n := range recent[:min(len(recent), bootstrap.MaxItems)] {
			want = append(want, n.Title)
		}
		for _, it := range b.RecentFailures {
			got = append(got, it.ID)
		}
		slices.Sort(want)
		slices.Sort(got)
		if len(want) == 0 || !slices.Equal(got, want) {
			t.Errorf("recent failures %q, want %q", got, want)
		}
		anti := map[string]bool{}
		for _, n := range corpus.Patterns() {
			anti[n.Title] = n.Pattern.Antipattern
		}
		if len(b.Warnings) == 0 {
			t.Error("no warnings")
		}
		// Antipatterns first, then lessons: of a failed or partial
		// episode, or that say to avoid something.
		lessons := false
		for _, it := range b.Warnings {
			switch {
			case anti[it.ID] && !lessons:
			case strings.HasPrefix(it.Text, "After a failure: ") || strings.HasPrefix(it.Text, "After a partial outcome: ") ||
				strings.HasPrefix(strings.ToLower(it.Text), "avoid") || strings.HasPrefix(strings.ToLower(it.Text), "never"):
				lessons = true
			default:
				t.Errorf("warning %s (%q) is neither an antipattern nor a lesson that warns, or an antipattern after a lesson", it.ID, it.Text)
			}
		}
	})

	t.Run("within budget at the default and at 500", func(t *testing.T) {
		md, err := os.ReadFile(filepath.Join(out, "api", "v1", "bootstrap.md"))
		if err != nil {
			t.Fatal(err)
		}
		if n := tokens.Count(string(bjs)); n > 2000 || n != b.Tokens || b.BudgetTokens != 2000 || tokens.Count(string(md)) > 2000 {
			t.Errorf("default: json %d tokens (says %d), md %d, budget %d", n, b.Tokens, tokens.Count(string(md)), b.BudgetTokens)
		}
		snap, _, err := indexer.Snapshot(context.Background(), indexer.Options{Repo: repo, Out: out}, store.PartBootstrap)
		if err != nil {
			t.Fatal(err)
		}
		small, js, md, err := bootstrap.Fit(snap.Bootstrap, 500)
		if err != nil {
			t.Fatal(err)
		}
		if tokens.Count(string(js)) > 500 || tokens.Count(string(md)) > 500 || len(small.Warnings)+len(small.Patterns) == 0 {
			t.Errorf("--budget 500: json %d tokens, md %d, %d warnings, %d patterns", tokens.Count(string(js)), tokens.Count(string(md)), len(small.Warnings), len(small.Patterns))
		}
	})

	t.Run("paraphrased lessons form exactly the planted clusters", func(t *testing.T) {
		var lessons export.List[export.Lesson]
		readJSON(t, filepath.Join(out, "api", "v1", "lessons.json"), &lessons)
		families := corpus.LessonFamilies()
		wordings := map[string]map[string]bool{} // family -> wordings planted
		for _, n := range corpus.Episodes() {
			if f := n.Lesson.Family; f != "" {
				if wordings[f] == nil {
					wordings[f] = map[string]bool{}
				}
				wordings[f][n.Lesson.Text] = true
			}
		}
		for f, eps := range families {
			var found []export.Lesson
			for _, l := range lessons.Items {
				for _, w := range l.Wordings {
					if wordings[f][w] {
						found = append(found, l)
						break
					}
				}
			}
			if len(found) != 1 {
				t.Errorf("family %s is in %d clusters, want 1", f, len(found))
				continue
			}
			l := found[0]
			want := slices.Clone(eps)
			slices.Sort(want)
			var ws []string
			for w := range wordings[f] {
				ws = append(ws, w)
			}
			slices.Sort(ws)
			if l.Count != len(eps) || !slices.Equal(l.Episodes, want) || !slices.Equal(l.Wordings, ws) {
				t.Errorf("family %s: count %d episodes %d wordings %q; want %d, %d, %q", f, l.Count, len(l.Episodes), l.Wordings, len(eps), len(want), ws)
			}
		}
		if len(families) < 4 {
			t.Errorf("%d families planted", len(families))
		}
	})

	t.Run("every API file has its schema", func(t *testing.T) { validateAll(t, out) })
}

// readJSON decodes a file into v (when not nil) and returns its bytes.
func readJSON(t *testing.T, path string, v any) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if v != nil {
		if err := json.Unmarshal(data, v); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
	return data
}
