package indexer_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/engramhq/engram/indexer"
)

// buildDemo builds the demo repository once per test into a temp dir.
func buildDemo(t *testing.T) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "public")
	if _, err := indexer.Build(context.Background(), indexer.Options{Repo: "../content", Out: out}); err != nil {
		t.Fatal(err)
	}
	return out
}

var llmsLink = regexp.MustCompile(`^- \[([^\]]+)\]\(([^)\s]+)\)(: .+)?$`)

// TestLLMsTxt checks llms.txt against llmstxt.org's format: an H1 first,
// then an optional blockquote and prose, then H2 sections made only of
// "- [name](url): notes" items; and every link names a file the build
// wrote.
func TestLLMsTxt(t *testing.T) {
	out := buildDemo(t)
	f, err := os.Open(filepath.Join(out, "llms.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	line, section, links := 0, "", 0
	for sc.Scan() {
		line++
		s := sc.Text()
		switch {
		case line == 1:
			if !strings.HasPrefix(s, "# ") || len(s) < 3 {
				t.Fatalf("line 1 is not an H1: %q", s)
			}
		case strings.HasPrefix(s, "# "):
			t.Errorf("line %d: a second H1", line)
		case strings.HasPrefix(s, "## "):
			section = s[3:]
		case strings.HasPrefix(s, "#"):
			t.Errorf("line %d: only H1 and H2 headings belong in llms.txt: %q", line, s)
		case section != "" && s != "":
			m := llmsLink.FindStringSubmatch(s)
			if m == nil {
				t.Errorf("line %d in %q is not a \"- [name](url): notes\" item: %q", line, section, s)
				continue
			}
			links++
			target := filepath.Join(out, filepath.FromSlash(strings.TrimPrefix(m[2], "/")))
			if strings.HasSuffix(m[2], "/") {
				target = filepath.Join(target, "index.html")
				if strings.HasSuffix(m[2], "/schema/") {
					target = filepath.Join(out, "api", "v1", "schema")
				}
			}
			if _, err := os.Stat(target); err != nil {
				t.Errorf("line %d links %s, which the build did not write", line, m[2])
			}
		}
	}
	if links < 8 || section != "Optional" {
		t.Errorf("%d links, last section %q", links, section)
	}
}

// TestFeedJSON checks feed.json against JSON Feed 1.1: the version URL, a
// title, items each with a unique id and content, RFC 3339 dates, and one
// item per episode, newest first.
func TestFeedJSON(t *testing.T) {
	out := buildDemo(t)
	data, err := os.ReadFile(filepath.Join(out, "feed.json"))
	if err != nil {
		t.Fatal(err)
	}
	var feed map[string]any
	if err := json.Unmarshal(data, &feed); err != nil {
		t.Fatal(err)
	}
	if feed["version"] != "https://jsonfeed.org/version/1.1" || feed["title"] == "" {
		t.Errorf("version %v title %v", feed["version"], feed["title"])
	}
	items, ok := feed["items"].([]any)
	if !ok || len(items) != 26 {
		t.Fatalf("items: %d, want the demo's 26 episodes", len(items))
	}
	seen := map[string]bool{}
	prev := ""
	for _, it := range items {
		m := it.(map[string]any)
		id, _ := m["id"].(string)
		if id == "" || seen[id] {
			t.Errorf("item id %q is empty or repeated", id)
		}
		seen[id] = true
		if text, _ := m["content_text"].(string); text == "" {
			t.Errorf("%s: no content_text", id)
		}
		pub, _ := m["date_published"].(string)
		if _, err := time.Parse(time.RFC3339, pub); err != nil {
			t.Errorf("%s: date_published %q: %v", id, pub, err)
		}
		if prev != "" && pub > prev {
			t.Errorf("%s: not newest first", id)
		}
		prev = pub
	}
}

// TestPendingDemo: of the demo's two threads, only the one no episode
// derives from is pending, in pending.json and on the home page; the
// other lists its episodes.
func TestPendingDemo(t *testing.T) {
	out := buildDemo(t)
	var pending struct {
		Items []struct{ ID, Type, URL string }
	}
	data, err := os.ReadFile(filepath.Join(out, "api", "v1", "pending.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &pending); err != nil {
		t.Fatal(err)
	}
	if len(pending.Items) != 1 || pending.Items[0].ID != "Thread: Outbound payout idempotency" || pending.Items[0].Type != "thread" {
		t.Fatalf("pending = %+v", pending.Items)
	}
	home, _ := os.ReadFile(filepath.Join(out, "index.html"))
	// Built without a base URL, the pages link relatively (to index.html).
	if !strings.Contains(string(home), `id="pending"`) || !strings.Contains(string(home), `href="`+strings.TrimPrefix(pending.Items[0].URL, "/")+`index.html"`) {
		t.Error("the home page does not list the pending thread")
	}
	// Notes have pages, not JSON files of their own: the ledger thread's
	// page lists the five episodes that name it.
	pages, _ := filepath.Glob(filepath.Join(out, "notes", "thread-ledger-amount-migration*", "index.html"))
	if len(pages) != 1 {
		t.Fatalf("ledger thread page: %v", pages)
	}
	page, _ := os.ReadFile(pages[0])
	if strings.Contains(string(page), `id="pending"`) || strings.Count(string(page), `href="../../episodes/episode-`) < 5 {
		t.Errorf("ledger thread page: pending banner or fewer than 5 episode links")
	}
}
