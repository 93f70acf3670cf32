package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/engramhq/engram/indexer"
	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/source"
)

func cmdCheck(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	repo := fs.String("repo", "", "memory repository (default: . or ./content)")
	format := fs.String("format", "text", "text, json or github")
	strict := fs.Bool("strict", false, "exit 1 when any error diagnostic is found")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *format != "text" && *format != "json" && *format != "github" {
		return fmt.Errorf("%w: check: --format must be text, json or github, not %q", errUsage, *format)
	}
	if *repo == "" {
		*repo = defaultRepo()
	}
	l, err := indexer.Load(ctx, indexer.Options{Repo: *repo})
	if err != nil {
		return err
	}
	ds := l.Diagnostics
	if *format == "github" {
		ds = fromWorktreeTop(*repo, ds)
	}
	if err := writeDiagnostics(stdout, ds, *format); err != nil {
		return err
	}
	if n := l.Counts["secrets"]; n > 0 {
		return fmt.Errorf("%w: %d secrets found (listed above); engram build refuses them unless --redact", indexer.ErrRefused, n)
	}
	if *strict && note.CountErrors(l.Diagnostics) > 0 {
		return errStrict
	}
	return nil
}

func writeDiagnostics(w io.Writer, ds []note.Diagnostic, format string) error {
	switch format {
	case "json":
		if ds == nil {
			ds = []note.Diagnostic{}
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(map[string]any{"version": 1, "items": ds})
	case "github":
		for _, d := range ds {
			fmt.Fprintln(w, githubAnnotation(d))
		}
		return nil
	}
	for _, d := range ds {
		fmt.Fprintln(w, d.String())
	}
	return nil
}

// fromWorktreeTop names the files of ds from the top of the git worktree
// holding the memory repository at repo, as GitHub names a repository's
// files in annotations: a memory repository in a folder of a code
// repository has its notes' annotations on the right files. ds is
// returned as it is outside git.
func fromWorktreeTop(repo string, ds []note.Diagnostic) []note.Diagnostic {
	_, prefix, err := source.Worktree(repo)
	if err != nil || prefix == "" {
		return ds
	}
	out := make([]note.Diagnostic, len(ds))
	for i, d := range ds {
		d.Path = path.Join(prefix, d.Path)
		out[i] = d
	}
	return out
}

// githubAnnotation renders a diagnostic as a GitHub workflow command.
func githubAnnotation(d note.Diagnostic) string {
	level := map[note.Severity]string{note.Error: "error", note.Warning: "warning", note.Info: "notice"}[d.Severity]
	esc := strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ",", "%2C", ":", "%3A")
	msg := strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(d.Message + " [" + d.Rule + "]")
	return fmt.Sprintf("::%s file=%s,line=%d,col=%d,title=%s::%s", level, esc.Replace(d.Path), max(d.Line, 1), max(d.Col, 1), esc.Replace(d.Rule), msg)
}
