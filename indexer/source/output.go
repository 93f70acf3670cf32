package source

import (
	"io/fs"
	"os"
	"path/filepath"

	"github.com/engramhq/engram/indexer/note"
	"github.com/engramhq/engram/indexer/routes"
)

// outputMarkers are the files every engram build writes into its output:
// the manifest and its schema. A directory that holds both is an earlier
// build's output (public/ of `engram build --out public`, or the
// .public.engram-old a killed build left), never notes: reading it back
// would publish bootstrap.md and llms.txt as notes of the next build.
var outputMarkers = []string{routes.Manifest, routes.Schema("index")}

// isOutput reports whether the directory full, whose entries are given,
// is an engram build's output.
func isOutput(full string, entries []fs.DirEntry) bool {
	hasAPI := false
	for _, e := range entries {
		hasAPI = hasAPI || e.Name() == "api" && e.IsDir()
	}
	if !hasAPI {
		return false
	}
	for _, m := range outputMarkers {
		if info, err := os.Lstat(filepath.Join(full, filepath.FromSlash(m))); err != nil || !info.Mode().IsRegular() {
			return false
		}
	}
	return true
}

// outputDiag accounts for an output directory that is not read.
func outputDiag(rel string) note.Diagnostic {
	return note.Diagnostic{Path: rel + "/", Severity: note.Info, Rule: "source-output",
		Message: "this directory is an engram build's output (" + outputMarkers[0] + "), not notes: not read (keep it out of git, e.g. in .gitignore)"}
}
