package site

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"weak"

	"github.com/gohugoio/hugo/hugofs"

	"github.com/spf13/afero"
	"golang.org/x/tools/txtar"
)

// testSite is a tiny Hugo site using the template names of Hugo's
// v0.146+ layout system (home, section, page, baseof).
const testSite = `
-- hugo.toml --
baseURL = "/"
title = "Engram test"
disableKinds = ["taxonomy", "term"]
[outputs]
home = ["html", "rss", "json"]
-- content/_index.md --
{"title": "Home"}
-- content/notes/_index.md --
{"title": "Notes"}
-- content/notes/alpha.md --
{
  "title": "Alpha",
  "date": "2024-01-02T03:04:05Z",
  "params": {"score": 0.5}
}
Body of *alpha*.
-- content/notes/beta.md --
{"title": "Beta", "date": "2024-02-03T04:05:06Z", "params": {"score": 0.25}}
Body of beta.
-- layouts/baseof.html --
<!doctype html>
<html><head><title>{{ .Title }}</title></head>
<body>{{ block "main" . }}{{ end }}</body></html>
-- layouts/home.html --
{{ define "main" }}<h1>{{ site.Title }}</h1>
<ul>{{ range site.RegularPages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}</ul>
{{ end }}
-- layouts/section.html --
{{ define "main" }}<h1>{{ .Title }}</h1>{{ range .Pages }}<a href="{{ .RelPermalink }}">{{ .Title }}</a>{{ end }}{{ end }}
-- layouts/page.html --
{{ define "main" }}<h1>{{ .Title }}</h1><p class="score">{{ .Params.score }}</p>{{ .Content }}{{ end }}
-- layouts/home.json --
{{- $notes := slice }}
{{- range site.RegularPages }}
{{- $notes = $notes | append (dict "title" .Title "url" .RelPermalink "score" .Params.score) }}
{{- end }}
{{- jsonify $notes }}
-- static/css/site.css --
body { margin: 0 }
`

func TestRenderHugo(t *testing.T) {
	pub := renderTestSite(t, writeSite(t, t.TempDir(), testSite))
	tests := []struct {
		file, want string
	}{
		{"index.html", "<h1>Engram test</h1>"},
		{"index.html", `<a href="/notes/alpha/">Alpha</a>`},
		{"index.html", `<meta name="generator" content="Hugo`},
		{"notes/index.html", `<a href="/notes/beta/">Beta</a>`},
		{"notes/alpha/index.html", "<title>Alpha</title>"},
		{"notes/alpha/index.html", `<p class="score">0.5</p>`},
		{"notes/alpha/index.html", "<p>Body of <em>alpha</em>.</p>"},
		{"notes/beta/index.html", `<p class="score">0.25</p>`},
		{"index.json", `{"score":0.5,"title":"Alpha","url":"/notes/alpha/"}`},
		{"index.xml", "<link>/notes/alpha/</link>"},
		{"sitemap.xml", "<loc>/notes/beta/</loc>"},
		{"sitemap.xml", "<lastmod>2024-02-03T04:05:06+00:00</lastmod>"},
		{"css/site.css", "body { margin: 0 }"},
	}
	for _, tt := range tests {
		t.Run(tt.file+"/"+tt.want, func(t *testing.T) {
			got, err := os.ReadFile(filepath.Join(pub, filepath.FromSlash(tt.file)))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(got, []byte(tt.want)) {
				t.Errorf("%s does not contain %q:\n%s", tt.file, tt.want, got)
			}
		})
	}
}

// TestRenderHugoDeterministic renders the same sources from two different
// working directories: the trees must match byte for byte, so neither
// build times nor absolute paths may leak into the output. Enough pages
// that Hugo renders in parallel.
func TestRenderHugoDeterministic(t *testing.T) {
	src := testSite + manyPages(200)
	first := renderTestSite(t, writeSite(t, t.TempDir(), src))
	second := renderTestSite(t, writeSite(t, t.TempDir(), src))
	assertSameTree(t, first, second)
}

func TestRenderHugoWithoutStatic(t *testing.T) {
	pub := renderTestSite(t, writeSite(t, t.TempDir(), `
-- hugo.toml --
title = "Bare"
-- layouts/home.html --
<h1>{{ site.Title }}</h1>
`))
	if got := fileBytes(t, filepath.Join(pub, "index.html")); string(got) != "<h1>Bare</h1>\n" {
		t.Errorf("index.html = %q", got)
	}
}

func TestRenderHugoStaysInWorkspace(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CACHE_HOME", "")
	work := writeSite(t, t.TempDir(), testSite)
	before := listTree(t, work)
	renderTestSite(t, work)

	for _, p := range listTree(t, work) {
		if !slices.Contains(before, p) && p != ".cache" && !strings.HasPrefix(p, ".cache/") {
			t.Errorf("render wrote %s into the work dir", p)
		}
	}
	if got := listTree(t, home); len(got) > 0 {
		t.Errorf("render wrote into $HOME: %v", got)
	}
}

// TestRenderHugoIgnoresHugoEnv runs Hugo's config loader as in a real
// binary, where it would read HUGO_* variables from the environment.
func TestRenderHugoIgnoresHugoEnv(t *testing.T) {
	want := renderTestSite(t, writeSite(t, t.TempDir(), testSite))

	evil := t.TempDir()
	t.Setenv("HUGO_TITLE", "Hijacked")
	t.Setenv("HUGO_BASEURL", "https://evil.example/")
	t.Setenv("HUGO_PUBLISHDIR", filepath.Join(evil, "public"))
	t.Setenv("HUGO_CACHEDIR", filepath.Join(evil, "cache"))
	t.Setenv("HUGO_ENVIRONMENT", "development")
	t.Setenv("HUGO_PARAMS_SCORE", "9")
	asBinary(t)
	got := renderTestSite(t, writeSite(t, t.TempDir(), testSite))

	assertSameTree(t, want, got)
	if leaked := listTree(t, evil); len(leaked) > 0 {
		t.Errorf("HUGO_* variables redirected output: %v", leaked)
	}
}

func TestRenderHugoErrors(t *testing.T) {
	tests := []struct {
		name, files, want string
	}{
		{
			name:  "logged error",
			files: "-- layouts/section.html --\n{{ errorf \"boom in %s\" .Title }}\n",
			want:  "logged 1 error(s): boom in Notes",
		},
		{
			name:  "template execution",
			files: "-- layouts/page.html --\n{{ .Nope }}\n",
			want:  "can't evaluate field Nope",
		},
		{
			name:  "network",
			files: "-- layouts/section.html --\n{{ resources.GetRemote \"https://example.org/x.json\" }}\n",
			want:  `"https://example.org/x.json" is not whitelisted`,
		},
		{
			name:  "process environment",
			files: "-- layouts/section.html --\n{{ os.Getenv \"HOME\" }}\n",
			want:  `"HOME" is not whitelisted`,
		},
		{
			name:  "bad config",
			files: "-- hugo.toml --\ntitle = \n",
			want:  "hugo.toml",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			work := writeSite(t, t.TempDir(), testSite, tt.files)
			err := renderHugo(context.Background(), work, filepath.Join(t.TempDir(), "public"))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("renderHugo() = %v, want error containing %q", err, tt.want)
			}
			if !strings.HasPrefix(err.Error(), "render site: ") {
				t.Errorf("error %q is not wrapped as render site", err)
			}
		})
	}
}

func TestRenderHugoCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	pub := filepath.Join(t.TempDir(), "public")
	err := renderHugo(ctx, writeSite(t, t.TempDir(), testSite), pub)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("renderHugo() = %v, want context.Canceled", err)
	}
	if _, err := os.Stat(pub); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("cancelled render created %s", pub)
	}
}

// TestRenderHugoStopsMidway: a context cancelled while Hugo renders
// stops it midway (issue 29: Ctrl-C waited for the whole render,
// seconds). The context is cancelled when the first page is written,
// so the test needs no clock: an unstopped render renders all 1,000
// pages, and returns no error. (How many it renders after the cancel
// depends on how soon the scheduler runs the stop, a few pages on a
// quiet machine.)
func TestRenderHugoStopsMidway(t *testing.T) {
	const pages = 1000
	work := writeSite(t, t.TempDir(), testSite, manyPages(pages))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Pages Hugo went on to render count, whether or not their file goes
	// anywhere (untilDone): rendering is the cost.
	var rendered atomic.Int32
	dst := onCreate{Fs: untilDone{Fs: hugofs.Os, ctx: ctx}, f: func(name string) {
		if strings.HasSuffix(name, ".html") && rendered.Add(1) == 1 {
			cancel()
		}
	}}
	pub := filepath.Join(t.TempDir(), "public")
	err := buildHugo(ctx, hugofs.Os, dst, work, pub, io.Discard)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("buildHugo() = %v, want context.Canceled", err)
	}
	if n := rendered.Load(); n >= pages {
		t.Errorf("Hugo rendered all %d pages although it was cancelled at the first", n)
	}
	t.Logf("%d pages rendered of %d", rendered.Load(), pages)
}

// onCreate calls f with the name of each file created or opened for
// writing.
type onCreate struct {
	afero.Fs
	f func(name string)
}

func (o onCreate) Create(name string) (afero.File, error) {
	o.f(name)
	return o.Fs.Create(name)
}

func (o onCreate) OpenFile(name string, flag int, perm os.FileMode) (afero.File, error) {
	if flag&(os.O_WRONLY|os.O_RDWR|os.O_CREATE) != 0 {
		o.f(name)
	}
	return o.Fs.OpenFile(name, flag, perm)
}

func TestRenderHugoLogsWarnings(t *testing.T) {
	work := writeSite(t, t.TempDir(), testSite,
		"-- layouts/section.html --\n{{ warnf \"careful with %s\" .Title }}\n")
	var log bytes.Buffer
	if err := renderHugoLog(context.Background(), work, filepath.Join(t.TempDir(), "public"), &log); err != nil {
		t.Fatal(err)
	}
	if got := log.String(); !strings.Contains(got, "WARN") || !strings.Contains(got, "careful with Notes") {
		t.Errorf("log = %q, want the template warning", got)
	}
}

func BenchmarkRenderHugo(b *testing.B) {
	const pages = 1000
	work := writeSite(b, b.TempDir(), testSite, manyPages(pages))
	out := b.TempDir()
	i := 0
	for b.Loop() {
		if err := renderHugo(context.Background(), work, filepath.Join(out, fmt.Sprint(i))); err != nil {
			b.Fatal(err)
		}
		i++
	}
	b.ReportMetric(float64(pages*b.N)/b.Elapsed().Seconds(), "pages/s")
}

// manyPages returns a txtar archive of n trivial notes.
func manyPages(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "-- content/notes/p%04d.md --\n", i)
		fmt.Fprintf(&b, "{\"title\": \"Page %d\", \"params\": {\"score\": %d}}\nBody of page %d.\n", i, i%7, i)
	}
	return b.String()
}

// renderTestSite renders work into a fresh directory and returns it.
func renderTestSite(t *testing.T, work string) string {
	t.Helper()
	pub := filepath.Join(t.TempDir(), "public")
	if err := renderHugo(context.Background(), work, pub); err != nil {
		t.Fatal(err)
	}
	return pub
}

// writeSite writes the files of the txtar archives into dir, later
// archives overriding earlier ones, and returns dir.
func writeSite(tb testing.TB, dir string, archives ...string) string {
	tb.Helper()
	for _, a := range archives {
		for _, f := range txtar.Parse([]byte(a)).Files {
			p := filepath.Join(dir, filepath.FromSlash(f.Name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				tb.Fatal(err)
			}
			if err := os.WriteFile(p, f.Data, 0o644); err != nil {
				tb.Fatal(err)
			}
		}
	}
	return dir
}

// asBinary hides the -test.* flags from os.Args for the rest of the test:
// Hugo's hugo.IsRunningAsTest looks for them and, when found, skips
// reading the process environment.
func asBinary(t *testing.T) {
	args := os.Args
	os.Args = args[:1]
	t.Cleanup(func() { os.Args = args })
}

// listTree returns the slash-separated paths below dir, sorted.
func listTree(t *testing.T, dir string) []string {
	t.Helper()
	var paths []string
	err := filepath.WalkDir(dir, func(p string, _ fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		paths = append(paths, filepath.ToSlash(rel))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return paths
}

func assertSameTree(t *testing.T, want, got string) {
	t.Helper()
	wantPaths, gotPaths := listTree(t, want), listTree(t, got)
	if !slices.Equal(wantPaths, gotPaths) {
		t.Fatalf("file lists differ:\nwant %v\ngot  %v", wantPaths, gotPaths)
	}
	for _, p := range wantPaths {
		w, g := fileBytes(t, filepath.Join(want, p)), fileBytes(t, filepath.Join(got, p))
		if !bytes.Equal(w, g) {
			t.Errorf("%s differs:\nwant %s\ngot  %s", p, w, g)
		}
	}
}

// fileBytes returns the contents of a file, or nil for a directory.
func fileBytes(t *testing.T, path string) []byte {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if info.IsDir() {
		return nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestRenderLetsGoOfTheSite: once a render returns, nothing holds its
// pages. Hugo keeps sorted page lists (.ByDate here) in a process-wide
// cache until the next render starts; at 100,000 notes that kept gigabytes
// alive through the rest of the build.
func TestRenderLetsGoOfTheSite(t *testing.T) {
	const project = `
-- hugo.toml --
baseURL = "/"
title = "Engram test"
disableKinds = ["taxonomy", "term", "rss", "sitemap"]
-- layouts/home.html --
{{ range .RegularPages.ByDate.Reverse }}{{ .Title }} {{ end }}
-- layouts/page.html --
{{ .Title }}
-- content/a.md --
{"title": "A", "date": "2024-01-02T03:04:05Z"}
-- content/b.md --
{"title": "B", "date": "2024-02-03T04:05:06Z"}
`
	src := afero.NewMemMapFs()
	for _, f := range txtar.Parse([]byte(project)).Files {
		if err := afero.WriteFile(src, path.Join(workDir, f.Name), f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	held := weak.Make(src.(*afero.MemMapFs))
	out := t.TempDir()
	if err := renderHugoFs(context.Background(), src, workDir, out, io.Discard, false, nil); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(filepath.Join(out, "index.html")); err != nil || !strings.Contains(string(data), "B A") {
		t.Fatalf("home page: %q, %v", data, err)
	}
	src = nil
	// Twice at least: what a finalizer's object holds goes a cycle after
	// it. And a few more, a moment apart: a goroutine of Hugo's that the
	// render started may still be ending when it returns, and its stack
	// holds the site until it has (in a whole run of the package this
	// failed 2 times in 3 with two cycles, never alone). What must not
	// happen is that the site stays reachable.
	for i := 0; i < 2 || i < 50 && held.Value() != nil; i++ {
		runtime.GC()
		if i >= 2 {
			time.Sleep(10 * time.Millisecond)
		}
	}
	if held.Value() != nil {
		t.Error("the render's sources (and so its pages) are still reachable after it returned")
	}
}

// renderHugo is renderHugoFs on the disk, discarding Hugo's log, as the
// tests of the renderer call it.
func renderHugo(ctx context.Context, workDir, publishDir string) error {
	return renderHugoLog(ctx, workDir, publishDir, io.Discard)
}

// renderHugoLog is renderHugo writing Hugo's warnings and errors to log.
func renderHugoLog(ctx context.Context, workDir, publishDir string, log io.Writer) error {
	return renderHugoFs(ctx, hugofs.Os, workDir, publishDir, log, false, nil)
}
