package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/rhysd/actionlint"
	"go.yaml.in/yaml/v3"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/config"
	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/source"
)

// initFiles are the files engram init writes.
var initFiles = []string{"engram.toml", "netlify.toml", workflowPath}

// snapshotFiles reads every file under dir but .git, by slash path.
func snapshotFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			if d != nil && d.Name() == ".git" {
				return filepath.SkipDir
			}
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// trackedPaths are the files the memory repository at dir lists: those
// git tracks (committed or staged).
func trackedPaths(t *testing.T, dir string) []string {
	t.Helper()
	r, _, err := source.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range r.Files {
		out = append(out, f.Path)
	}
	return out
}

func TestInit(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "memory")
	code, stdout, stderr := engram(t, "init", dir)
	if code != exitOK {
		t.Fatalf("init: exit %d\n%s%s", code, stdout, stderr)
	}
	for _, want := range []string{"made " + dir + " a git repository", "wrote engram.toml", "wrote " + workflowPath, "staged", "Settings → Pages", "Netlify"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("init printed no %q:\n%s", want, stdout)
		}
	}
	files := snapshotFiles(t, dir)
	if len(files) != 6 {
		t.Errorf("init wrote %d files, want 6: %v", len(files), files)
	}
	for _, f := range initFiles {
		if _, ok := files[f]; !ok {
			t.Errorf("init wrote no %s", f)
		}
	}
	if got := trackedPaths(t, dir); len(got) != 6 {
		t.Errorf("git tracks %v, want the 6 files init wrote", got)
	}
	for name, data := range files {
		if m := regexp.MustCompile(`@[A-Z_]+@`).FindString(data); m != "" {
			t.Errorf("%s still holds %s", name, m)
		}
	}

	// engram check: no error; engram build: one episode, one pattern,
	// no error, nothing flagged by graph health.
	l, err := indexer.Load(context.Background(), indexer.Options{Repo: dir})
	if err != nil {
		t.Fatal(err)
	}
	if n := note.CountErrors(l.Diagnostics); n > 0 {
		t.Errorf("%d error diagnostics: %v", n, l.Diagnostics)
	}
	out := filepath.Join(t.TempDir(), "public")
	if code, stdout, stderr := engram(t, "build", "--strict", "--repo", dir, "--out", out); code != exitOK {
		t.Fatalf("build: exit %d\n%s%s", code, stdout, stderr)
	}
	var manifest struct{ Counts map[string]int }
	readJSONFile(t, filepath.Join(out, "api", "v1", "index.json"), &manifest)
	if manifest.Counts["episodes"] != 1 || manifest.Counts["patterns"] != 1 || manifest.Counts["antipatterns"] != 0 {
		t.Errorf("counts %v, want one episode and one pattern", manifest.Counts)
	}
	var health map[string]any
	readJSONFile(t, filepath.Join(out, "api", "v1", "health.json"), &health)
	for _, k := range []string{"tautologies", "placeholders", "fixtures", "default_rates", "fixture_episodes", "empty_episodes", "dangling", "cycles"} {
		if list, _ := health[k].([]any); len(list) > 0 {
			t.Errorf("health %s: %v", k, list)
		}
	}

	// Again: refused, naming every file, and nothing changes.
	code, _, stderr = engram(t, "init", dir)
	if code != exitFail || !strings.Contains(stderr, "engram.toml, episodes/") || !strings.Contains(stderr, workflowPath) || !strings.Contains(stderr, "--force") {
		t.Errorf("init again: exit %d\n%s", code, stderr)
	}
	writeFile(t, filepath.Join(dir, "engram.toml"), "title = \"mine\"\n")
	files["engram.toml"] = "title = \"mine\"\n"
	code, _, _ = engram(t, "init", dir)
	if after := snapshotFiles(t, dir); code != exitFail || !mapsEqual(after, files) {
		t.Errorf("a refused init changed the files (exit %d)", code)
	}

	// --force writes them again.
	if code, stdout, stderr := engram(t, "init", "--force", dir); code != exitOK || strings.Contains(stdout, "made ") {
		t.Fatalf("init --force: exit %d\n%s%s", code, stdout, stderr)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "engram.toml")); !strings.Contains(string(data), "title = \"Agent memory\"") {
		t.Errorf("--force left engram.toml:\n%s", data)
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func readJSONFile(t *testing.T, file string, v any) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
}

// TestInitExistingRepository inits into a repository with work of its
// own, and into a folder of one: only init's files are staged, and no
// repository is made inside the repository.
func TestInitExistingRepository(t *testing.T) {
	dir := t.TempDir()
	err := source.WriteRepo(dir, []source.Commit{{When: time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC), Files: map[string][]byte{
		"README.md": []byte("# Our memory\n"), "notes/retries.md": []byte("---\ntitle: retries\ntype: concept\n---\nRetrying.\n"),
		".gitignore": []byte("# ours\n"),
	}}})
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "scratch.txt"), "not for git\n")
	if code, stdout, stderr := engram(t, "init", dir); code != exitOK || strings.Contains(stdout, "made ") {
		t.Fatalf("init: exit %d\n%s%s", code, stdout, stderr)
	}
	got := trackedPaths(t, dir)
	if len(got) != 8 || slices.Contains(got, "scratch.txt") || !slices.Contains(got, "README.md") || !slices.Contains(got, workflowPath) {
		t.Errorf("git tracks %v: want README.md, notes/retries.md, .gitignore and init's 5 files", got)
	}
	// The repository's own .gitignore is left as it is.
	if data, err := os.ReadFile(filepath.Join(dir, ".gitignore")); err != nil || string(data) != "# ours\n" {
		t.Errorf(".gitignore is now %q (%v)", data, err)
	}

	// A second memory repository in a folder: the workflow's place at
	// the top is taken (by the first init), so init refuses and writes
	// nothing.
	sub := filepath.Join(dir, "content")
	code, _, stderr := engram(t, "init", sub)
	if code != exitFail || !strings.Contains(stderr, filepath.Join(dir, workflowPath)) || !strings.Contains(stderr, "--force") {
		t.Errorf("init in a folder with the workflow taken: exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(sub); err == nil {
		t.Error("a refused init made the folder")
	}
}

// TestInitInFolder: init in a folder of a code repository (issue 33)
// writes the memory repository there, and the workflow at the top of
// the repository, where GitHub runs it, building the folder; nothing of
// .github goes into the folder. engram check's annotations name the
// notes from the top, as GitHub does.
func TestInitInFolder(t *testing.T) {
	top := t.TempDir()
	err := source.WriteRepo(top, []source.Commit{{When: time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC), Files: map[string][]byte{
		"README.md": []byte("# Our service\n"), "src/main.go": []byte("package main\n"),
	}}})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(top, "agent memory") // not there yet; a space in its name
	code, stdout, stderr := engram(t, "init", dir)
	if code != exitOK {
		t.Fatalf("init: exit %d\n%s%s", code, stdout, stderr)
	}
	for _, want := range []string{"at the top of the repository", "base directory to agent memory"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("init printed no %q:\n%s", want, stdout)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, ".github")); err == nil {
		t.Error("init wrote .github in the folder, where GitHub never runs it")
	}
	wf := readWorkflow(t, top)
	version, _ := installVersion(mainVersion())
	checkWorkflowSteps(t, wf, version, "agent memory")
	if got := trackedPaths(t, top); !slices.Contains(got, workflowPath) || !slices.Contains(got, "agent memory/engram.toml") {
		t.Errorf("git tracks %v: want the workflow at the top and the notes in the folder", got)
	}
	if _, err := source.CommitFiles(top, trackedPaths(t, top), "engram init", "", time.Date(2026, 5, 2, 10, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}

	// The workflow's steps, run from the top as GitHub does, build the
	// folder into its public/.
	bin := buildEngram(t)
	runWorkflowBuild(t, top, bin, "https://example.github.io/service")
	mustExist(t, filepath.Join(dir, "public", "api", "v1", "index.json"))

	// An annotation names its note from the top.
	writeFile(t, filepath.Join(dir, "episodes", "broken.md"), "---\ntitle: [\n")
	code, stdout, _ = engram(t, "check", "--repo", dir, "--format", "github")
	if code != exitOK || !strings.Contains(stdout, "file=agent memory/episodes/broken.md") {
		t.Errorf("check --format github in a folder: exit %d\n%s", code, stdout)
	}
}

// TestInitFolderNames: a folder whose name a workflow cannot carry is
// refused before anything is written.
func TestInitFolderNames(t *testing.T) {
	top := t.TempDir()
	if err := source.WriteRepo(top, []source.Commit{{When: time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC), Files: map[string][]byte{"README.md": []byte("x\n")}}}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"${{ secrets.TOKEN }}", "line\nbreak"} {
		dir := filepath.Join(top, name)
		code, _, stderr := engram(t, "init", dir)
		if code != exitFail || !strings.Contains(stderr, "cannot be named in a GitHub workflow") {
			t.Errorf("init %q: exit %d\n%s", name, code, stderr)
		}
		if _, err := os.Stat(dir); err == nil {
			t.Errorf("init %q made the folder", name)
		}
	}
}

// TestWorkflowActionlint lints the workflow init writes, at the top of a
// repository and for a folder, with actionlint (its checks of syntax,
// expressions, action inputs and, when shellcheck is installed, the run:
// scripts). .ci/run installs shellcheck; with CI set it must be there.
func TestWorkflowActionlint(t *testing.T) {
	shellcheck, err := exec.LookPath("shellcheck")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("shellcheck is not installed (.ci/run installs it)")
		}
		t.Log("shellcheck is not installed: the run: scripts are not checked")
	}
	version, _ := installVersion(mainVersion())
	for _, sub := range []string{"", "memory", "agent memory/notes", "it's"} {
		t.Run(sub, func(t *testing.T) {
			var out bytes.Buffer
			l, err := actionlint.NewLinter(&out, &actionlint.LinterOptions{Shellcheck: shellcheck, Color: actionlint.ColorOptionKindNever})
			if err != nil {
				t.Fatal(err)
			}
			errs, err := l.Lint(workflowPath, workflowFile(version, sub).Data, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range errs {
				t.Errorf("actionlint: %s:%d:%d: %s [%s]", workflowPath, e.Line, e.Column, e.Message, e.Kind)
			}
		})
	}
}

// TestScaffoldGoVersions keeps the Go versions init writes in step with
// this project's go.mod and netlify.toml.
func TestScaffoldGoVersions(t *testing.T) {
	mod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^go ([0-9]+\.[0-9]+)`).FindSubmatch(mod)
	if m == nil || string(m[1]) != goMinor {
		t.Errorf("go.mod says go %s; goMinor is %s", m, goMinor)
	}
	var nf netlifyConfig
	if _, err := toml.DecodeFile("../../netlify.toml", &nf); err != nil {
		t.Fatal(err)
	}
	if got := nf.Build.Environment["GO_VERSION"]; got != netlifyGo {
		t.Errorf("netlify.toml pins Go %s; netlifyGo is %s", got, netlifyGo)
	}
}

type netlifyConfig struct {
	Build struct {
		Command     string
		Publish     string
		Environment map[string]string
	}
	Plugins []struct {
		Package string
		Inputs  struct{ Paths []string }
	}
}

type workflow struct {
	On          map[string]any `yaml:"on"`
	Permissions map[string]string
	Concurrency workflowConcurrency
	Jobs        map[string]workflowJob
}

type workflowConcurrency struct {
	Group            string
	CancelInProgress string `yaml:"cancel-in-progress"`
}

type workflowJob struct {
	Needs       string
	If          string
	Concurrency workflowConcurrency
	Environment struct{ Name, URL string }
	Steps       []workflowStep
}

type workflowStep struct {
	Name, ID, If, Uses, Run string
	With                    map[string]any
	Env                     map[string]string
}

func readWorkflow(t *testing.T, repo string) workflow {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repo, workflowPath))
	if err != nil {
		t.Fatal(err)
	}
	var wf workflow
	if err := yaml.Unmarshal(data, &wf); err != nil {
		t.Fatalf("%s: %v", workflowPath, err)
	}
	return wf
}

// TestInitWorkflowSteps reads the GitHub Actions workflow and the
// Netlify configuration init writes, checks their structure, and runs
// their commands as the hosts would, with the engram of this checkout:
// each builds the site.
func TestInitWorkflowSteps(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not installed")
	}
	bin := buildEngram(t)
	repo := t.TempDir()
	if code, stdout, stderr := engram(t, "init", repo); code != exitOK {
		t.Fatalf("init: exit %d\n%s%s", code, stdout, stderr)
	}
	// Dates come from git history, as in a checkout with fetch-depth 0.
	if _, err := source.CommitFiles(repo, trackedPaths(t, repo), "engram init", "", time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	version, _ := installVersion(mainVersion())
	checkWorkflow(t, readWorkflow(t, repo), version)

	// A push: configure-pages gives a project site's address (no "/"
	// at the end), under which the site lives.
	public := runWorkflowBuild(t, repo, bin, "https://example.github.io/memory")
	mustExist(t, filepath.Join(public, "api", "v1", "index.json"))
	checkPublished(t, public, "https://example.github.io/memory/")
	// A pull request: no Pages step, so BASE_URL is empty, and the site
	// links relatively.
	public = runWorkflowBuild(t, repo, bin, "")
	mustExist(t, filepath.Join(public, "api", "v1", "index.json"))
	checkPublished(t, public, "")

	var nf netlifyConfig
	if _, err := toml.DecodeFile(filepath.Join(repo, "netlify.toml"), &nf); err != nil {
		t.Fatal(err)
	}
	if nf.Build.Publish != "public" || nf.Build.Environment["GO_VERSION"] != netlifyGo || strings.Contains(nf.Build.Command, "--base-url") {
		t.Errorf("netlify.toml: %+v", nf.Build)
	}
	install, _, _ := strings.Cut(nf.Build.Command, " && ")
	if want := "go install github.com/engramhq/engram/cmd/engram@" + version; install != want {
		t.Errorf("netlify.toml installs with %q, want %q", install, want)
	}
	public = runNetlifyBuild(t, repo, bin, "https://memory.example.netlify.app")
	mustExist(t, filepath.Join(public, "api", "v1", "index.json"))
	checkPublished(t, public, "https://memory.example.netlify.app/")
	if _, err := os.Stat(filepath.Join(public, "_headers")); err != nil {
		t.Errorf("no _headers for Netlify: %v", err)
	}
	checkNetlifyCache(t, repo, nf)
}

// checkNetlifyCache: netlify.toml keeps engram's page store between
// builds (issue 30): ENGRAM_CACHE_DIR is a folder of the checkout that
// netlify-plugin-cache saves, the build put its store there, and git
// ignores it, so the build reads nothing of it and warns of nothing.
func checkNetlifyCache(t *testing.T, repo string, nf netlifyConfig) {
	t.Helper()
	dir := nf.Build.Environment[cacheEnv]
	if dir == "" || filepath.IsAbs(dir) {
		t.Fatalf("netlify.toml sets %s to %q: want a folder of the checkout", cacheEnv, dir)
	}
	saved := false
	for _, p := range nf.Plugins {
		saved = saved || p.Package == "netlify-plugin-cache" && slices.Contains(p.Inputs.Paths, dir)
	}
	if !saved {
		t.Errorf("netlify.toml has no netlify-plugin-cache saving %s: %+v", dir, nf.Plugins)
	}
	if stores, _ := filepath.Glob(filepath.Join(repo, dir, "*.pages")); len(stores) != 1 {
		t.Errorf("the Netlify build left page stores %v in %s, want one", stores, dir)
	}
	_, diags, err := source.Open(repo)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range diags {
		if strings.HasPrefix(d.Path, dir) && d.Severity != note.Info {
			t.Errorf("the page store's folder is reported: %s", d)
		}
	}
}

// checkWorkflow checks the workflow's triggers, permissions and steps.
func checkWorkflow(t *testing.T, wf workflow, version string) {
	t.Helper()
	for _, on := range []string{"push", "pull_request", "workflow_dispatch"} {
		if _, ok := wf.On[on]; !ok {
			t.Errorf("the workflow does not run on %s", on)
		}
	}
	if want := map[string]string{"contents": "read", "pages": "write", "id-token": "write"}; !mapsEqual(wf.Permissions, want) {
		t.Errorf("permissions %v, want %v", wf.Permissions, want)
	}
	checkWorkflowSteps(t, wf, version, "")
}

// checkWorkflowSteps checks the jobs and steps of a workflow for the
// memory repository at sub ("" at the top), and that only the default
// branch deploys: a pull request or another branch never uploads, and
// never waits in the deployments' concurrency group.
func checkWorkflowSteps(t *testing.T, wf workflow, version, sub string) {
	t.Helper()
	// Runs per branch or pull request; only deployments share "pages".
	if wf.Concurrency.Group != "engram-${{ github.ref }}" || wf.Concurrency.CancelInProgress != "${{ github.event_name == 'pull_request' }}" {
		t.Errorf("concurrency %+v", wf.Concurrency)
	}
	repoFlag, out := "", "public"
	if sub != "" {
		repoFlag, out = " --repo "+shellQuote(sub), shellQuote(sub+"/public")
	}
	steps := map[string]workflowStep{}
	for _, job := range wf.Jobs {
		for _, s := range job.Steps {
			if s.Uses != "" {
				if !strings.HasPrefix(s.Uses, "actions/") {
					t.Errorf("%s is not an official action", s.Uses)
				}
				name, _, _ := strings.Cut(s.Uses, "@")
				steps[name] = s
			}
			if s.Run != "" {
				steps[s.Name] = s
			}
		}
	}
	onDefault := "github.event_name != 'pull_request' && github.ref == format('refs/heads/{0}', github.event.repository.default_branch)"
	for _, tc := range []struct {
		step string
		ok   func(workflowStep) bool
	}{
		{"actions/checkout", func(s workflowStep) bool { return s.Uses == "actions/checkout@v6" && s.With["fetch-depth"] == 0 }},
		{"actions/setup-go", func(s workflowStep) bool { return s.Uses == "actions/setup-go@v6" && s.With["go-version"] == goMinor }},
		{"Install engram", func(s workflowStep) bool {
			return s.Run == "go install github.com/engramhq/engram/cmd/engram@"+version
		}},
		{"Check the notes", func(s workflowStep) bool { return s.Run == "engram check"+repoFlag+" --format github" }},
		{"actions/configure-pages", func(s workflowStep) bool {
			return s.Uses == "actions/configure-pages@v6" && s.ID == "pages" && s.If == onDefault
		}},
		// The page store is in the user's cache directory (os.UserCacheDir
		// on Linux, with no XDG_CACHE_HOME as on GitHub's runners).
		{"actions/cache", func(s workflowStep) bool {
			return s.Uses == "actions/cache@v4" && s.With["path"] == "~/.cache/engram" && s.With["key"] == "engram-${{ github.run_id }}" && s.With["restore-keys"] == "engram-"
		}},
		{"Build the site", func(s workflowStep) bool {
			return strings.HasPrefix(s.Run, "engram build"+repoFlag+" --out "+out+" ") && s.Env["BASE_URL"] == "${{ steps.pages.outputs.base_url }}"
		}},
		// Uploaded only where Pages was configured: the default branch.
		{"actions/upload-pages-artifact", func(s workflowStep) bool {
			return s.Uses == "actions/upload-pages-artifact@v5" && s.With["path"] == path.Join(sub, "public") && s.If == "steps.pages.outcome == 'success'"
		}},
		{"actions/deploy-pages", func(s workflowStep) bool { return s.Uses == "actions/deploy-pages@v5" && s.ID == "deployment" }},
	} {
		if s, ok := steps[tc.step]; !ok || !tc.ok(s) {
			t.Errorf("step %s: %+v", tc.step, s)
		}
	}
	deploy := wf.Jobs["deploy"]
	if deploy.Needs != "build" || deploy.Environment.Name != "github-pages" || deploy.Environment.URL != "${{ steps.deployment.outputs.page_url }}" ||
		deploy.If != onDefault || deploy.Concurrency.Group != "pages" || deploy.Concurrency.CancelInProgress != "false" {
		t.Errorf("deploy job: %+v", deploy)
	}
	if len(wf.Jobs["build"].Steps) == 0 || wf.Jobs["build"].If != "" {
		t.Errorf("build job: %+v", wf.Jobs["build"])
	}
}

// runWorkflowBuild runs the run: steps of the workflow's build job in
// order in repo, with bash as GitHub Actions does, each with its env:
// ${{ steps.pages.outputs.base_url }} is pagesURL ("" as on a pull
// request, where the Pages step is skipped). The step "Install engram" is
// left out: bin, on the PATH, holds the engram of this checkout. It
// returns the output directory, public/.
func runWorkflowBuild(t *testing.T, repo, bin, pagesURL string) string {
	t.Helper()
	for _, s := range readWorkflow(t, repo).Jobs["build"].Steps {
		if s.Run == "" || s.Name == "Install engram" {
			continue
		}
		env := []string{}
		for k, v := range s.Env {
			env = append(env, k+"="+strings.ReplaceAll(v, "${{ steps.pages.outputs.base_url }}", pagesURL))
		}
		if strings.Contains(s.Run+strings.Join(env, " "), "${{") {
			t.Fatalf("step %q: an expression that is not the Pages URL, or one inline in run:\n%s", s.Name, s.Run)
		}
		runStep(t, repo, bin, s.Name, s.Run, env)
	}
	return filepath.Join(repo, "public")
}

// runNetlifyBuild runs the build command of netlify.toml in repo, as
// Netlify does, with URL set to siteURL, less the go install before its
// &&: $(go env GOPATH)/bin is bin. It returns the publish directory.
func runNetlifyBuild(t *testing.T, repo, bin, siteURL string) string {
	t.Helper()
	var nf netlifyConfig
	if _, err := toml.DecodeFile(filepath.Join(repo, "netlify.toml"), &nf); err != nil {
		t.Fatal(err)
	}
	_, build, ok := strings.Cut(nf.Build.Command, " && ")
	if !ok {
		t.Fatalf("netlify.toml's command is not install && build: %q", nf.Build.Command)
	}
	env := []string{"URL=" + siteURL, "GOPATH=" + filepath.Dir(bin)}
	for k, v := range nf.Build.Environment {
		if k != "GO_VERSION" { // Netlify's, to install Go
			env = append(env, k+"="+v)
		}
	}
	runStep(t, repo, bin, "netlify build", build, env)
	return filepath.Join(repo, nf.Build.Publish)
}

func runStep(t *testing.T, dir, bin, name, script string, env []string) {
	t.Helper()
	cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	cmd.Env = append(cmd.Env, env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("step %q (%s): %v\n%s", name, script, err, out)
	}
}

func mustExist(t *testing.T, file string) {
	t.Helper()
	if _, err := os.Stat(file); err != nil {
		t.Error(err)
	}
}

// TestWorkflowSourcesExample uncomments what init writes to read another
// memory repository (issue 35): the workflow's checkout step and
// engram.toml's [[sources]] entry. The workflow must still pass
// actionlint, engram.toml must load with no diagnostic, and the step
// must check out the folder the entry reads, whatever folder of the
// worktree the memory repository is.
func TestWorkflowSourcesExample(t *testing.T) {
	version, _ := installVersion(mainVersion())
	files, err := scaffold(version, time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	toml := uncommentExample(t, string(files[0].Data))
	cfg, diags, err := config.Decode([]byte(toml))
	if err != nil || len(diags) > 0 {
		t.Fatalf("engram.toml with its [[sources]] example: %v %v\n%s", err, diags, toml)
	}
	if len(cfg.Sources) != 1 {
		t.Fatalf("the example lists %d sources; want 1", len(cfg.Sources))
	}
	for _, sub := range []string{"", "memory", "agent memory/notes"} {
		data := uncommentExample(t, string(workflowFile(version, sub).Data))
		l, err := actionlint.NewLinter(io.Discard, &actionlint.LinterOptions{Color: actionlint.ColorOptionKindNever})
		if err != nil {
			t.Fatal(err)
		}
		errs, err := l.Lint(workflowPath, []byte(data), nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range errs {
			t.Errorf("%q: actionlint: %s:%d:%d: %s [%s]", sub, workflowPath, e.Line, e.Column, e.Message, e.Kind)
		}
		var wf workflow
		if err := yaml.Unmarshal([]byte(data), &wf); err != nil {
			t.Fatal(err)
		}
		want := path.Join(sub, cfg.Sources[0].Path)
		var found bool
		for _, s := range wf.Jobs["build"].Steps {
			found = found || s.With["repository"] != nil && s.With["path"] == want
		}
		if !found {
			t.Errorf("%q: no step checks a repository out at %q, the path engram.toml's source reads\n%s", sub, want, data)
		}
	}
}

// uncommentExample removes the comment marks of the lines between
// "# BEGIN another memory repository" and its END, keeping their indent.
func uncommentExample(t *testing.T, text string) string {
	t.Helper()
	var out []string
	in, seen := false, false
	for _, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case trimmed == "# BEGIN another memory repository":
			in, seen = true, true
			continue
		case trimmed == "# END another memory repository":
			in = false
			continue
		case in:
			indent := line[:len(line)-len(strings.TrimLeft(line, " "))]
			line = indent + strings.TrimPrefix(strings.TrimPrefix(trimmed, "#"), " ")
		}
		out = append(out, line)
	}
	if !seen || in {
		t.Fatalf("no whole example block in:\n%s", text)
	}
	return strings.Join(out, "\n")
}

// TestInitSourcesBuild follows what init's comments say to read another
// memory repository: a second repository made by init is checked out at
// the folder the [[sources]] example reads, inside the first (untracked,
// as the workflow's step leaves it), the example is uncommented, and the
// build reads both: the second's notes under its namespace, each once,
// and none of them as the first repository's own.
func TestInitSourcesBuild(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "memory")
	other := filepath.Join(dir, filepath.FromSlash(sourceCheckout))
	// The checkout is a repository of its own, as actions/checkout makes it.
	if err := os.MkdirAll(other, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := source.Init(other); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{dir, other} {
		if code, stdout, stderr := engram(t, "init", d); code != exitOK {
			t.Fatalf("init %s: exit %d\n%s%s", d, code, stdout, stderr)
		}
	}
	toml := filepath.Join(dir, config.File)
	data, err := os.ReadFile(toml)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(toml, []byte(uncommentExample(t, string(data))), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "public")
	if code, stdout, stderr := engram(t, "build", "--strict", "--repo", dir, "--out", out); code != exitOK {
		t.Fatalf("build: exit %d\n%s%s", code, stdout, stderr)
	}
	var list struct {
		Items []struct{ ID, URL string }
	}
	data, err = os.ReadFile(filepath.Join(out, "api", "v1", "episodes.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &list); err != nil {
		t.Fatal(err)
	}
	var own, sourced int
	for _, e := range list.Items {
		if strings.HasPrefix(e.ID, "other:") {
			sourced++
		} else {
			own++
		}
	}
	if own != 1 || sourced != 1 {
		t.Errorf("episodes.json lists %d episodes of the repository and %d of the source; want 1 and 1: %+v", own, sourced, list.Items)
	}
}
