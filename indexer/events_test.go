package indexer_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/source"
)

// eventsRef is the commit time of eventsRepo: the reference time.
var eventsRef = time.Date(2026, 9, 1, 12, 0, 0, 0, time.UTC)

// eventLine is one events line; ts is RFC 3339 or Unix milliseconds.
func eventLine(id, workflow, typ, ts, data string) string {
	if !strings.HasPrefix(ts, "1") {
		ts = `"` + ts + `"`
	}
	return `{"id":"` + id + `","workflow_id":"` + workflow + `","event_type":"` + typ + `","timestamp":` + ts + `,"data":` + data + `}`
}

// eventsFiles is a memory repository with events: one bad line in the
// middle of a file, an unknown type, Unix milliseconds, an empty file,
// CRLF, and two events past the 30-day retention.
func eventsFiles() map[string][]byte {
	ms := func(t time.Time) string { return strconv.FormatInt(t.UnixMilli(), 10) }
	return map[string][]byte{
		"episodes/a.md": []byte(episodeNote("EP-A", "2026-08-20")),
		"events/2026/deploy.jsonl": []byte(strings.Join([]string{
			eventLine("ev-expired-1", "deploy", "speculation_start", "2026-07-01T00:00:00Z", `{"context":{"service":"api"}}`),
			eventLine("ev-1", "deploy", "speculation_start", "2026-08-30T10:00:00Z", `{"context":{"service":"api","env":"prod"},"prediction":"success"}`),
			`{"workflow_id": "deploy", "event_type": "task_complete", "timestamp": "not a time"}`,
			eventLine("ev-2", "deploy", "task_complete", ms(time.Date(2026, 8, 30, 11, 0, 0, 0, time.UTC)), `{"context":{"service":"api","env":"prod"},"result":"success"}`),
			eventLine("ev-3", "deploy", "rollback", "2026-08-31T09:00:00Z", `{"result":{"status":"failure"}}`),
		}, "\n") + "\n"),
		"events/backfill.jsonl": []byte(strings.Join([]string{
			eventLine("ev-4", "Backfill", "ail_decision", "2026-08-25T00:00:00Z", `{"context":{"table":"ledger"},"decision":"batch 1000"}`),
			eventLine("ev-expired-2", "Backfill", "task_complete", "2026-07-15T00:00:00Z", `{"result":"success"}`),
		}, "\r\n") + "\r\n"),
		"events/empty.jsonl":    {},
		"events/old-only.jsonl": []byte(eventLine("ev-expired-3", "gone", "task_complete", "2026-06-01T00:00:00Z", `{}`) + "\n"),
		"other/stray.jsonl":     []byte("{}\n"),
	}
}

func eventsRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := source.WriteRepo(dir, []source.Commit{{When: eventsRef, Files: eventsFiles(), Message: "events"}}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestEvents: workflows are published from the events within retention;
// bad lines are reported at file:line and the others kept; events past
// retention are absent from every output file and listed in the report.
func TestEvents(t *testing.T) {
	repo := eventsRepo(t)
	out := filepath.Join(t.TempDir(), "public")
	r := build(t, repo, out)

	var got []string
	for _, d := range r.Diagnostics {
		got = append(got, d.String())
	}
	all := strings.Join(got, "\n")
	for _, want := range []string{
		`events/2026/deploy.jsonl:3:1: warning: bad "timestamp": parse time "not a time": not an RFC 3339 or ISO 8601 date; line skipped [events-field]`,
		`events/2026/deploy.jsonl:1:1: info: 1 event older than 30 days left out (line 1)`,
		`events/2026/deploy.jsonl:5:1: info: event_type "rollback" is not one of speculation_start, task_complete, ail_decision, hil_decision (line 5); kept [events-unknown-type]`,
		`events/backfill.jsonl:2:1: info: 1 event older than 30 days left out (line 2)`,
		`events/old-only.jsonl:1:1: info: 1 event older than 30 days left out (line 1)`,
		`other/stray.jsonl:1:1: info: JSONL is read in events/ (execution events) and feedback/ only; not published [unsupported-input]`,
	} {
		if !strings.Contains(all, want) {
			t.Errorf("missing diagnostic %q in:\n%s", want, all)
		}
	}
	if strings.Contains(all, "events/empty.jsonl") {
		t.Errorf("an empty events file is fine:\n%s", all)
	}
	if r.Counts["events_expired"] != 3 || r.Counts["events"] != 4 || r.Counts["workflows"] != 2 {
		t.Errorf("counts %v", r.Counts)
	}

	var list struct {
		Items []struct {
			ID           string
			Events       int
			First, Last  string
			Counts       map[string]int
			SuccessRatio *float64 `json:"success_ratio"`
			URL          string
		}
	}
	readJSON(t, filepath.Join(out, "api", "v1", "workflows.json"), &list)
	if len(list.Items) != 2 {
		t.Fatalf("workflows %+v", list.Items)
	}
	d, b := list.Items[0], list.Items[1]
	if d.ID != "deploy" || d.Events != 3 || d.First != "2026-08-30T10:00:00Z" || d.Last != "2026-08-31T09:00:00Z" ||
		d.Counts["rollback"] != 1 || d.SuccessRatio == nil || *d.SuccessRatio != 0.5 || d.URL != "/workflows/deploy/" {
		t.Errorf("deploy %+v", d)
	}
	if b.ID != "Backfill" || b.Events != 1 || b.SuccessRatio != nil {
		t.Errorf("Backfill %+v", b)
	}
	var wf struct {
		Timeline []struct {
			ID, Timestamp string
			Source        struct{ Path string }
		}
	}
	readJSON(t, filepath.Join(out, "api", "v1", "workflows", "deploy.json"), &wf)
	if len(wf.Timeline) != 3 || wf.Timeline[1].ID != "ev-2" || wf.Timeline[1].Timestamp != "2026-08-30T11:00:00Z" {
		t.Errorf("timeline %+v", wf.Timeline)
	}
	for _, p := range []string{"workflows/index.html", "workflows/deploy/index.html", "workflows/backfill/index.html"} {
		if _, err := os.Stat(filepath.Join(out, p)); err != nil {
			t.Error(err)
		}
	}

	// Must show: an event past retention is in no output file.
	for p, data := range tree(t, out) {
		for _, id := range []string{"ev-expired-1", "ev-expired-2", "ev-expired-3"} {
			if bytes.Contains(data, []byte(id)) {
				t.Errorf("%s publishes %s, which is past retention", p, id)
			}
		}
	}
}

// TestEventsRetentionDays: [events] retention_days in engram.toml.
func TestEventsRetentionDays(t *testing.T) {
	files := eventsFiles()
	files["engram.toml"] = []byte("[events]\nretention_days = 3\n")
	dir := t.TempDir()
	if err := source.WriteRepo(dir, []source.Commit{{When: eventsRef, Files: files}}); err != nil {
		t.Fatal(err)
	}
	l, err := indexer.Load(context.Background(), indexer.Options{Repo: dir})
	if err != nil {
		t.Fatal(err)
	}
	// Kept: the events of 2026-08-30 and later.
	if n := len(l.Export.Events); n != 3 || l.Counts["events_expired"] != 4 {
		t.Errorf("%d kept, %d expired", n, l.Counts["events_expired"])
	}
	files["engram.toml"] = []byte("[events]\nretention_days = 0\n")
	bad := t.TempDir()
	if err := source.WriteRepo(bad, []source.Commit{{When: eventsRef, Files: files}}); err != nil {
		t.Fatal(err)
	}
	if _, err := indexer.Load(context.Background(), indexer.Options{Repo: bad}); err == nil || !strings.Contains(err.Error(), "retention_days") {
		t.Errorf("retention_days = 0: err %v", err)
	}
}

// TestPrune: engram prune lists the expired lines; with Apply it rewrites
// only those files and commits them with go-git, and a build afterwards
// has nothing past retention.
func TestPrune(t *testing.T) {
	repo := eventsRepo(t)
	ctx := context.Background()
	res, err := indexer.Prune(ctx, indexer.Options{Repo: repo}, indexer.PruneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Expired != 3 || len(res.Files) != 3 || res.Commit != "" || res.Files[0].Path != "events/2026/deploy.jsonl" || res.Files[0].Lines[0] != 1 {
		t.Fatalf("dry run %+v", res)
	}
	before := tree(t, repo)

	when := eventsRef.Add(time.Hour)
	res, err = indexer.Prune(ctx, indexer.Options{Repo: repo}, indexer.PruneOptions{Apply: true, When: when})
	if err != nil {
		t.Fatal(err)
	}
	r, err := git.PlainOpen(repo)
	if err != nil {
		t.Fatal(err)
	}
	head, err := r.Head()
	if err != nil {
		t.Fatal(err)
	}
	c, err := r.CommitObject(head.Hash())
	if err != nil {
		t.Fatal(err)
	}
	if c.Hash.String() != res.Commit || c.Author.Name != "engram" || !c.Author.When.Equal(when) ||
		!strings.HasPrefix(c.Message, "engram prune: remove 3 events older than 30 days\n") ||
		!strings.Contains(c.Message, "events/backfill.jsonl: line 2\n") {
		t.Errorf("commit %s by %s at %s:\n%s", c.Hash, c.Author.Name, c.Author.When, c.Message)
	}
	parent, err := c.Parent(0)
	if err != nil {
		t.Fatal(err)
	}
	changes, err := object.DiffTree(mustTree(t, parent), mustTree(t, c))
	if err != nil {
		t.Fatal(err)
	}
	var changed []string
	for _, ch := range changes {
		changed = append(changed, ch.From.Name+"|"+ch.To.Name)
	}
	want := "events/2026/deploy.jsonl|events/2026/deploy.jsonl events/backfill.jsonl|events/backfill.jsonl events/old-only.jsonl|"
	if strings.Join(changed, " ") != want {
		t.Errorf("changed %v, want %s", changed, want)
	}
	after := tree(t, repo)
	wantDeploy := strings.SplitN(string(before["events/2026/deploy.jsonl"]), "\n", 2)[1]
	if string(after["events/2026/deploy.jsonl"]) != wantDeploy {
		t.Errorf("deploy.jsonl is now:\n%s", after["events/2026/deploy.jsonl"])
	}
	if got := string(after["events/backfill.jsonl"]); got != strings.SplitN(string(before["events/backfill.jsonl"]), "\r\n", 2)[0]+"\r\n" {
		t.Errorf("backfill.jsonl is now %q", got)
	}
	if _, ok := after["events/old-only.jsonl"]; ok {
		t.Error("old-only.jsonl had only expired events and should be gone")
	}
	wt, _ := r.Worktree()
	if st, err := wt.Status(); err != nil || !st.IsClean() {
		t.Errorf("status after prune: %v\n%s", err, st)
	}
	// Nothing is past retention any more.
	res, err = indexer.Prune(ctx, indexer.Options{Repo: repo}, indexer.PruneOptions{Apply: true, When: when})
	if err != nil || res.Expired != 0 || res.Commit != "" {
		t.Errorf("second prune: %+v, %v", res, err)
	}
}

func mustTree(t *testing.T, c *object.Commit) *object.Tree {
	t.Helper()
	tr, err := c.Tree()
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestPruneRefuses: no commit without git, nor over uncommitted changes;
// the files stay as they were.
func TestPruneRefuses(t *testing.T) {
	ctx := context.Background()
	plain := t.TempDir()
	for p, data := range eventsFiles() {
		full := filepath.Join(plain, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	now := eventsRef
	_, err := indexer.Prune(ctx, indexer.Options{Repo: plain, Now: &now}, indexer.PruneOptions{Apply: true, When: now})
	if !errors.Is(err, source.ErrNotGit) {
		t.Errorf("plain directory: err %v", err)
	}

	repo := eventsRepo(t)
	edited := append(eventsFiles()["events/backfill.jsonl"], []byte("{\"note\":\"work in progress\"}\r\n")...)
	if err := os.WriteFile(filepath.Join(repo, "events", "backfill.jsonl"), edited, 0o644); err != nil {
		t.Fatal(err)
	}
	before := tree(t, repo)
	_, err = indexer.Prune(ctx, indexer.Options{Repo: repo}, indexer.PruneOptions{Apply: true, When: eventsRef})
	if !errors.Is(err, source.ErrUncommitted) || !strings.Contains(err.Error(), "events/backfill.jsonl") {
		t.Errorf("uncommitted change: err %v", err)
	}
	for p, data := range tree(t, repo) {
		if !bytes.Equal(data, before[p]) && !strings.HasPrefix(p, ".git/") {
			t.Errorf("%s changed", p)
		}
	}
}

// TestEventsHostile: nothing an event contains runs script on the site
// or steers Hugo; a long workflow's page shows its newest events and
// leaves the rest to the JSON; the user's keys keep their case.
func TestEventsHostile(t *testing.T) {
	var lines []string
	lines = append(lines, `{"id":"x1","workflow_id":"<script>alert(1)</script>","event_type":"<img src=x onerror=alert(2)>","timestamp":"2026-08-30T00:00:00Z",`+
		`"data":{"context":{"UserID":"</code><script>alert(3)</script>","shortcode":"{{< param \"title\" >}}"},"result":"<b onmouseover=alert(4)>"}}`)
	for i := range 600 {
		lines = append(lines, eventLine("long-"+strconv.Itoa(i), "long", "task_complete",
			strconv.FormatInt(time.Date(2026, 8, 20, 0, i, 0, 0, time.UTC).UnixMilli(), 10), `{"result":"success"}`))
	}
	dir := t.TempDir()
	err := source.WriteRepo(dir, []source.Commit{{When: eventsRef, Files: map[string][]byte{
		"episodes/a.md":    []byte(episodeNote("EP-A", "2026-08-20")),
		"events/bad.jsonl": []byte(strings.Join(lines, "\n")),
	}}})
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "public")
	build(t, dir, out)
	pages, _ := filepath.Glob(filepath.Join(out, "workflows", "script-alert-1-script-*", "index.html"))
	if len(pages) != 1 {
		t.Fatalf("hostile workflow page: %v", pages)
	}
	for _, p := range append(pages, filepath.Join(out, "workflows", "index.html")) {
		page, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, bad := range []string{"<script>alert", "<img src=x", "<b onmouseover", "</code><script>"} {
			if bytes.Contains(page, []byte(bad)) {
				t.Errorf("%s contains %q", p, bad)
			}
		}
		if bytes.Contains(page, []byte("UserID")) != (p == pages[0]) {
			t.Errorf("%s: the context key UserID should keep its case on the workflow page", p)
		}
	}
	long, err := os.ReadFile(filepath.Join(out, "workflows", "long", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(long, []byte("The 100 oldest events are not shown here")) || bytes.Contains(long, []byte(">long-99 ")) ||
		!bytes.Contains(long, []byte("long-100 ")) || !bytes.Contains(long, []byte("long-599 ")) {
		t.Error("the long workflow's page should show its 500 newest events")
	}
	var wf struct{ Timeline []struct{ ID string } }
	readJSON(t, filepath.Join(out, "api", "v1", "workflows", "long.json"), &wf)
	if len(wf.Timeline) != 600 {
		t.Errorf("long.json has %d events, want all 600", len(wf.Timeline))
	}
}
