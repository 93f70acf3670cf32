package search

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func staticIndex(t *testing.T, docs []StaticDoc) (StaticMeta, map[string][]int64, [][]string) {
	t.Helper()
	files, err := StaticFiles(docs)
	if err != nil {
		t.Fatal(err)
	}
	var meta StaticMeta
	postings := map[string][]int64{}
	var rows [][]string
	var shards [][2]string // term, file
	for _, f := range files {
		switch {
		case f.Path == "api/v1/search/meta.json":
			if err := json.Unmarshal(f.Data, &meta); err != nil {
				t.Fatal(err)
			}
		case strings.HasPrefix(f.Path, "api/v1/search/t/"):
			var m map[string][]int64
			if err := json.Unmarshal(f.Data, &m); err != nil {
				t.Fatal(err)
			}
			for term, p := range m {
				postings[term] = p
				shards = append(shards, [2]string{term, f.Path})
			}
		case strings.HasPrefix(f.Path, "api/v1/search/d/"):
			var r [][]string
			if err := json.Unmarshal(f.Data, &r); err != nil {
				t.Fatal(err)
			}
			var n int
			if _, err := fmt.Sscanf(f.Path, "api/v1/search/d/%d.json", &n); err != nil {
				t.Fatal(err)
			}
			for len(rows) < (n+1)*DocShard {
				rows = append(rows, nil)
			}
			copy(rows[n*DocShard:], r)
		default:
			t.Errorf("unexpected file %s", f.Path)
		}
	}
	for _, ts := range shards {
		if want := fmt.Sprintf("api/v1/search/t/%x.json", TermShard(ts[0], meta.TermShards)); ts[1] != want {
			t.Errorf("%q is in %s, want %s", ts[0], ts[1], want)
		}
	}
	for len(rows) > 0 && rows[len(rows)-1] == nil {
		rows = rows[:len(rows)-1]
	}
	return meta, postings, rows
}

func TestStaticFiles(t *testing.T) {
	var docs []StaticDoc
	for i := range 300 {
		text := fmt.Sprintf("retry the payout %d times with backoff", i%7)
		if i == 42 {
			text += " zanzibar"
		}
		docs = append(docs, StaticDoc{ID: fmt.Sprintf("EP-%03d", i), Type: "episode", Outcome: "success", URL: fmt.Sprintf("/e/%d/", i),
			Title: fmt.Sprintf("EP-%03d", i), Snippet: text, Fields: []StaticField{{"body", text, 1}}})
	}
	docs = append(docs, StaticDoc{ID: "EMPTY", Type: "note", Title: "EMPTY"}) // a note with no text
	meta, postings, rows := staticIndex(t, docs)
	if meta.Docs != 301 || len(rows) != 301 || meta.DocShard != DocShard || meta.TermShards&(meta.TermShards-1) != 0 {
		t.Fatalf("meta %+v, %d rows", meta, len(rows))
	}
	// Documents are numbered by id; a planted word's only posting is its
	// document.
	if p := postings["zanzibar"]; len(p) != 2 || rows[p[0]][0] != "EP-042" {
		t.Errorf("zanzibar postings %v", p)
	}
	// A common word has a posting for every document that has it, by
	// document, stored as gaps.
	if p := postings["payout"]; len(p) != 2*300 {
		t.Errorf("payout has %d postings, want 300", len(p)/2)
	} else {
		doc := int64(0)
		for i := 0; i < len(p); i += 2 {
			if p[i] < 0 || i > 0 && p[i] == 0 {
				t.Fatalf("gap %d at %d", p[i], i)
			}
			doc += p[i]
		}
		if rows[doc][0] != "EP-299" {
			t.Errorf("last payout document %s", rows[doc][0])
		}
	}
	if _, ok := postings["the"]; ok {
		t.Error("a stop word has postings")
	}
	if !slices.Contains(meta.StopWords, "the") || slices.Contains(meta.StopWords, "payout") {
		t.Error("stop words")
	}
	// Deterministic, whatever the order of the input.
	a, _ := StaticFiles(docs)
	slices.Reverse(docs)
	b, _ := StaticFiles(docs)
	if len(a) != len(b) {
		t.Fatal("file count differs")
	}
	for i := range a {
		if a[i].Path != b[i].Path || string(a[i].Data) != string(b[i].Data) {
			t.Fatalf("%s differs with the input reversed", a[i].Path)
		}
	}
}

func TestStaticFilesEmpty(t *testing.T) {
	meta, postings, rows := staticIndex(t, nil)
	if meta.Docs != 0 || len(postings) != 0 || len(rows) != 0 || meta.TermShards != 1 {
		t.Errorf("meta %+v postings %d rows %d", meta, len(postings), len(rows))
	}
}

// TestTermShard pins FNV-1a: the script computes the same numbers.
func TestTermShard(t *testing.T) {
	for term, want := range map[string]int{"": 0x811c9dc5 & 255, "a": 0xe40c292c & 255} {
		if got := TermShard(term, 256); got != want {
			t.Errorf("TermShard(%q) = %x, want %x", term, got, want)
		}
	}
}
