package main

import (
	"embed"
	"encoding/json"
	"path"
	"regexp"
	"runtime/debug"
	"strings"
	"time"

	"github.com/engramhq/engram/indexer/config"
	"github.com/engramhq/engram/indexer/write"
)

// scaffoldFS holds the files engram init writes (and the pre-push hook
// of engram hook install), with @NAME@ where a value goes.
//
//go:embed scaffold/*.tmpl
var scaffoldFS embed.FS

func scaffoldFile(name string) string {
	data, err := scaffoldFS.ReadFile("scaffold/" + name)
	if err != nil {
		panic("engram: scaffold/" + name + " is not embedded")
	}
	return string(data)
}

// The Go versions the files init writes ask for: go.mod's go line as
// major.minor for actions/setup-go, and the patch release that this
// project's own netlify.toml pins (TestScaffoldGoVersions keeps them in
// step).
const goMinor, netlifyGo = "1.26", "1.26.8"

// sourceCheckout is where the workflow's commented step checks out
// another memory repository, from the memory repository's folder, and
// the path its commented [[sources]] entry in engram.toml reads: inside
// the memory repository's folder, so one path serves both whatever the
// folder, and untracked, so the build reads it only as the source.
const sourceCheckout = ".sources/other"

// workflowPath is the GitHub Actions workflow engram init writes.
const workflowPath = ".github/workflows/engram.yml"

// scaffold is what engram init writes into the memory repository: the
// configuration, one example episode and one example pattern, and
// Netlify's build, which installs engram at version. The GitHub Actions
// workflow is workflowFile's: it belongs at the top of the git worktree.
func scaffold(version string, now time.Time) ([]write.File, error) {
	ep, err := write.RenderEpisode(exampleEpisode(now))
	if err != nil {
		return nil, err
	}
	pat, err := write.RenderPattern(examplePattern(exampleEpisode(now).Title))
	if err != nil {
		return nil, err
	}
	r := strings.NewReplacer("@VERSION@", version, "@GO_MINOR@", goMinor, "@NETLIFY_GO@", netlifyGo, "@SOURCE_PATH@", sourceCheckout)
	file := func(path, tmpl string) write.File {
		return write.File{Path: path, Data: []byte(r.Replace(scaffoldFile(tmpl)))}
	}
	return []write.File{
		file(config.File, "engram.toml.tmpl"),
		ep,
		pat,
		file("netlify.toml", "netlify.toml.tmpl"),
	}, nil
}

// workflowFile is the GitHub Actions workflow for the memory repository
// at sub, its slash path from the top of the git worktree ("" when it is
// the top), where the workflow is written: GitHub runs workflows only
// from there. The workflow installs engram at version.
func workflowFile(version, sub string) write.File {
	repo, out, where := "", "public", ""
	if sub != "" {
		repo = " --repo " + shellQuote(sub)
		out = shellQuote(path.Join(sub, "public"))
		quoted, _ := json.Marshal(sub + "/")
		where = "\n#\n# The memory repository is the folder " + string(quoted) + " of this repository."
	}
	outYAML, _ := json.Marshal(path.Join(sub, "public")) // a JSON string is a YAML one
	checkoutYAML, _ := json.Marshal(path.Join(sub, sourceCheckout))
	r := strings.NewReplacer("@VERSION@", version, "@GO_MINOR@", goMinor, "@REPO@", repo, "@OUT@", out,
		"@OUT_YAML@", string(outYAML), "@WHERE@", where, "@SOURCE_CHECKOUT@", string(checkoutYAML))
	return write.File{Path: workflowPath, Data: []byte(r.Replace(scaffoldFile("engram.yml.tmpl")))}
}

// exampleEpisode is a session as an agent records one: what it set out
// to do, how it went, its decisions, what happened, what it learnt.
func exampleEpisode(now time.Time) write.EpisodeInput {
	at := func(min int) string {
		return now.UTC().Add(time.Duration(min) * time.Minute).Format("2006-01-02T15:04:05Z")
	}
	duration := 20.0
	return write.EpisodeInput{
		Title:           "EPISODE-" + now.UTC().Format("2006-01-02") + "-session-01",
		Task:            "Start an agent memory repository with engram init and publish its site",
		Outcome:         "success",
		Date:            at(0),
		Tags:            []string{"engram", "setup"},
		DurationMinutes: &duration,
		Metrics:         map[string]float64{"tool_calls": 4, "errors": 0, "commits": 1},
		Context: "An example episode, written by engram init: one note for each agent session, saying what it set out to do (the task), " +
			"how it went (the outcome: success, partial or failure), what it decided and why, what happened, and what it learnt. " +
			"Agents write them with `engram new episode` or the MCP tool store_episode. Delete this one once yours have written some.",
		Decisions: []write.DecisionInput{{
			Title: "Where to publish the memory site", Type: "design", Timestamp: at(2),
			Context:   "The site and its JSON API must be rebuilt after every push, for people and for agents",
			Options:   []string{"GitHub Pages", "Netlify", "Build it locally only"},
			Chosen:    "GitHub Pages",
			Rationale: "The workflow engram init wrote builds, checks and deploys on every push, with no other account",
			Outcome:   "success",
			Effects:   []string{"d002"},
		}, {
			Title: "Check the notes before every push", Type: "implementation", Timestamp: at(5),
			Context:   "A note with an invalid outcome or broken front matter would be left out of the site",
			Options:   []string{"A pre-push hook", "Only the check in CI"},
			Chosen:    "A pre-push hook",
			Rationale: "engram hook install stops the push and names the file and line to fix, before anything is published",
			Outcome:   "success",
		}},
		Events: []write.EventInput{
			{Timestamp: at(1), Type: "milestone", Text: "engram init wrote engram.toml, netlify.toml, the GitHub Actions workflow and two example notes"},
			{Timestamp: at(8), Type: "tool_call", Text: "engram build wrote the site and its JSON API into public/"},
			{Timestamp: at(12), Type: "commit", Text: "Committed the new repository and pushed it"},
			{Timestamp: at(20), Type: "milestone", Text: "The workflow deployed the site to GitHub Pages"},
		},
		Lessons: []string{
			"Stage or commit a note before building: engram reads only the files git tracks, and dates each note from its history",
			"Keep one episode per session, and give every decision its options: what-if questions compare the options not chosen",
		},
	}
}

// examplePattern is a rule an agent can follow, with the example
// episode as its evidence.
func examplePattern(episode string) write.PatternInput {
	return write.PatternInput{
		Title:   "PATTERN-check-notes-before-push",
		Tags:    []string{"engram", "workflow"},
		Trigger: "a session is about to push new or edited memory notes",
		Action:  "run engram check --strict first (engram hook install does it on every push) and fix each error it names",
		Context: "An example pattern, written by engram init: a rule an agent can follow, saying when it applies (the trigger) and what to do (the action), " +
			"with the episodes that show how it went (the evidence). engram computes its success rate from the evidence and warns agents " +
			"about antipatterns, rules that keep failing. Agents write them with `engram new pattern` or the MCP tool add_pattern.",
		Evidence: []write.EvidenceInput{{Episode: episode, Outcome: "success", Text: "- the notes were checked before the first push"}},
	}
}

// versionRE matches a module version go install can fetch: a release
// (v1.2.3, v1.2.3-rc.1) or a pseudo-version, never one with build
// metadata ("+dirty": a build with uncommitted edits).
var versionRE = regexp.MustCompile(`^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$`)

// installVersion is the engram version to install (go install
// …@version) in the files engram init writes and in the pre-push hook's
// advice: the version this binary was built as (debug.BuildInfo's
// Main.Version), or "latest", with exact false, for a development build
// ("(devel)", "", "+dirty"), which no one can install.
func installVersion(built string) (v string, exact bool) {
	if versionRE.MatchString(built) {
		return built, true
	}
	return "latest", false
}

// mainVersion is the module version this binary was built as.
func mainVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	return info.Main.Version
}
