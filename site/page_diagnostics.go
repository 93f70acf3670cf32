package site

import (
	"sort"

	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/routes"
)

// diagnosticsPage lists the build's diagnostics file by file.
type diagnosticsPage struct {
	Files  []diagnosticFile        `json:"files"`
	Health export.DiagnosticCounts `json:"health"`
}

func diagnosticsPages(in input) []page {
	s := in.s
	return []page{{path: "diagnostics/_index.md", api: routes.Diagnostics, title: "Diagnostics",
		params: diagnosticsPage{Files: diagnosticFiles(s.Diagnostics), Health: s.Health.Diagnostics}}}
}

// diagnosticFile is a file's diagnostics, with its page when it has one.
type diagnosticFile struct {
	Path  string              `json:"path"`
	Items []export.Diagnostic `json:"items"`
}

func diagnosticFiles(ds []export.Diagnostic) []diagnosticFile {
	out := []diagnosticFile{}
	at := map[string]int{}
	for _, d := range ds {
		i, ok := at[d.Path]
		if !ok {
			i = len(out)
			at[d.Path] = i
			out = append(out, diagnosticFile{Path: d.Path})
		}
		out[i].Items = append(out[i].Items, d)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}
