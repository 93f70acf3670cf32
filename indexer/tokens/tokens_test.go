package tokens

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/pkoukk/tiktoken-go-loader/assets"
)

// TestCountConcurrent comes first so that, in a plain `go test -race`, its
// goroutines are the ones racing to build the encoder.
func TestCountConcurrent(t *testing.T) {
	texts := []string{"hello world", "こんにちは、世界。", "👨‍👩‍👧‍👦", strings.Repeat("lorem ipsum ", 200)}
	want := []int{2, 4, 11, 402}
	var wg sync.WaitGroup
	for g := range 16 {
		wg.Go(func() {
			for i := range 20 {
				k := (g + i) % len(texts)
				if got := Count(texts[k]); got != want[k] {
					t.Errorf("Count(text %d) = %d in goroutine %d, want %d", k, got, g, want[k])
					return
				}
			}
		})
	}
	wg.Wait()
}

// TestCount checks counts against OpenAI's tiktoken (o200k_base,
// encode_ordinary); the ids are in testdata/o200k.jsonl.
func TestCount(t *testing.T) {
	tests := []struct {
		name string
		text string
		want int
	}{
		{"empty", "", 0},
		{"hello world", "hello world", 2}, // [24912 2375]
		{"punctuation", "Hello, world!", 4},
		{"pangram", "The quick brown fox jumps over the lazy dog.", 10},
		{"sentence", "Engram keeps a team's decisions, failures and lessons as plain markdown notes in git, and builds a causal graph from them.", 25},
		{"chinese", "请考试我的软件！12345", 7},
		{"japanese", "こんにちは、世界。", 4},
		{"emoji", "👍", 1},
		{"zwj emoji", "👨‍👩‍👧‍👦", 11},
		{"emoji run", "🎉🚀✨", 5},
		{"go", "func Count(s string) int { return len(enc.EncodeOrdinary(s)) }", 16},
		{"c-like", "if (a[i] != b[j]) { x += 0x1F; } // ok?", 22},
		{"blank line with spaces", "today\n \n", 2},
		{"special token as text", "hello <|endoftext|>", 8},
		{"spaces", "   ", 1},
		{"newlines", "\n\n\n", 1},
		{"digits in threes", "1234567", 3},
		{"contractions", "don't WON'T I'll", 4},
		{"combining accent", "caf\u00e9 cafe\u0301", 4},
		{"long run", strings.Repeat("x", 1000), 125},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Count(tt.text); got != tt.want {
				t.Errorf("Count(%q) = %d, want %d", tt.text, got, tt.want)
			}
		})
	}
}

// TestMatchesOpenAI compares token ids, not only counts, with those of
// OpenAI's own tiktoken for several hundred texts: prose, markdown, code,
// scripts, emoji and random mixtures. testdata/reference.cjs made the file.
func TestMatchesOpenAI(t *testing.T) {
	f, err := os.Open("testdata/o200k.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	enc, err := newEncoder()
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		var c struct {
			Text string
			IDs  []int
		}
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("line %d: %v", n+1, err)
		}
		n++
		if got := enc.EncodeOrdinary(c.Text); !slices.Equal(got, c.IDs) {
			t.Errorf("line %d: %q encodes to %v, OpenAI's tiktoken to %v", n, c.Text, got, c.IDs)
		}
		if got := Count(c.Text); got != len(c.IDs) {
			t.Errorf("line %d: Count(%q) = %d, want %d", n, c.Text, got, len(c.IDs))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n < 400 {
		t.Fatalf("read %d reference texts, want at least 400", n)
	}
}

// TestCountIsNotLenOverFour keeps anyone from swapping in the heuristic
// SPEC §4.1 rules out: for each text here len/4 is more than 30% off.
func TestCountIsNotLenOverFour(t *testing.T) {
	for _, s := range []string{
		"こんにちは、世界。",                               // 27 bytes: 6 by len/4, 4 tokens
		"👨‍👩‍👧‍👦",                                 // 25 bytes: 6 by len/4, 11 tokens
		"if (a[i] != b[j]) { x += 0x1F; } // ok?", // 10 by len/4, 22 tokens
		strings.Repeat("x", 1000),                 // 250 by len/4, 125 tokens
		strings.Repeat(" ", 64),                   // 16 by len/4, 1 token
	} {
		got, guess := Count(s), len(s)/4
		if 10*max(got-guess, guess-got) <= 3*guess {
			t.Errorf("Count(%q) = %d is within 30%% of len/4 = %d", s, got, guess)
		}
	}
}

// TestEmbeddedRanks checks that the loader embeds OpenAI's file, byte for
// byte (tiktoken publishes this SHA-256 for o200k_base.tiktoken), and that
// the encoder builds from it: the only way initialisation could fail.
func TestEmbeddedRanks(t *testing.T) {
	const want = "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d"
	b, err := assets.Assets.ReadFile(Encoding + ".tiktoken")
	if err != nil {
		t.Fatal(err)
	}
	if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != want {
		t.Errorf("embedded %s.tiktoken has SHA-256 %x, want %s", Encoding, sum, want)
	}
	enc, err := newEncoder()
	if err != nil {
		t.Fatalf("newEncoder: %v", err)
	}
	if got := enc.Decode(enc.EncodeOrdinary("hello world")); got != "hello world" {
		t.Errorf("round trip gave %q", got)
	}
}

// TestOffline runs Count in a child process that has no usable proxy, an
// empty TMPDIR and no tiktoken cache setting, and checks that it counts and
// leaves TMPDIR empty: nothing was downloaded or cached.
func TestOffline(t *testing.T) {
	if os.Getenv("ENGRAM_TOKENS_CHILD") == "1" {
		if got := Count("hello world"); got != 2 {
			t.Fatalf("Count(hello world) = %d offline, want 2", got)
		}
		return
	}
	tmp := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestOffline$", "-test.count=1")
	cmd.Env = append(withoutCacheVars(os.Environ()),
		"ENGRAM_TOKENS_CHILD=1", "TMPDIR="+tmp,
		"HTTP_PROXY=http://127.0.0.1:9", "HTTPS_PROXY=http://127.0.0.1:9", "NO_PROXY=")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("offline child: %v\n%s", err, out)
	}
	entries, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Errorf("counting offline left %s in TMPDIR", e.Name())
	}
}

func withoutCacheVars(env []string) []string {
	return slices.DeleteFunc(slices.Clone(env), func(kv string) bool {
		for _, k := range []string{"TIKTOKEN_CACHE_DIR=", "DATA_GYM_CACHE_DIR=", "TMPDIR=", "HTTP_PROXY=", "HTTPS_PROXY=", "NO_PROXY=", "http_proxy=", "https_proxy=", "no_proxy="} {
			if strings.HasPrefix(kv, k) {
				return true
			}
		}
		return false
	})
}

// TestCountOddInput: nothing a note holds may make Count panic.
func TestCountOddInput(t *testing.T) {
	tests := []struct{ name, text, same string }{
		{"invalid byte", "\xff", "\uFFFD"},
		{"invalid bytes inside", "a\xffb\xfe\xfd", "a\uFFFDb\uFFFD\uFFFD"},
		{"encoded surrogate", "\xed\xa0\x80", "\uFFFD\uFFFD\uFFFD"},
		{"truncated rune", "caf\xc3", "caf\uFFFD"},
		{"nul", "a\x00b", "a\x00b"},
		{"special tokens", "<|endoftext|><|endofprompt|><|fim_prefix|>", "<|endoftext|><|endofprompt|><|fim_prefix|>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, want := Count(tt.text), Count(tt.same)
			if got != want || got == 0 {
				t.Errorf("Count(%q) = %d, want %d, the count of %q", tt.text, got, want, tt.same)
			}
		})
	}
}

// FuzzCount: for any valid UTF-8, the tokens decode back to the text and
// there is at least one and at most one per byte.
func FuzzCount(f *testing.F) {
	for _, s := range []string{"", "hello world", "today\n \n", "👨‍👩‍👧‍👦", "a\xffb", "<|endoftext|>"} {
		f.Add(s)
	}
	enc, err := newEncoder()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := Count(s)
		if !utf8.ValidString(s) {
			return
		}
		ids := enc.EncodeOrdinary(s)
		if n != len(ids) || (s != "" && n < 1) || n > len(s) {
			t.Fatalf("Count(%q) = %d for %d ids, %d bytes", s, n, len(ids), len(s))
		}
		if got := enc.Decode(ids); got != s {
			t.Fatalf("%q decodes back to %q", s, got)
		}
	})
}

func BenchmarkCount(b *testing.B) {
	md, err := os.ReadFile("testdata/episode.md")
	if err != nil {
		b.Fatal(err)
	}
	s := string(md)
	Count(s) // build the encoder outside the timing
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		Count(s)
	}
}

// BenchmarkCountRun shows the quadratic cost of one unsplittable run.
func BenchmarkCountRun(b *testing.B) {
	for _, n := range []int{1 << 10, 4 << 10, 16 << 10} {
		s := strings.Repeat("x", n)
		b.Run(fmt.Sprintf("%dKB", n>>10), func(b *testing.B) {
			Count(s)
			b.SetBytes(int64(n))
			for b.Loop() {
				Count(s)
			}
		})
	}
}

func BenchmarkNewEncoder(b *testing.B) {
	for b.Loop() {
		if _, err := newEncoder(); err != nil {
			b.Fatal(err)
		}
	}
}
