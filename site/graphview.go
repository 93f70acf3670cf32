package site

import (
	"github.com/spf13/afero"

	"github.com/engramhq/engram/indexer/export"
)

// graphParams are the front matter params of the /graph/ page.
// (Scaffolding: the graph explorer fills this in.)
func graphParams(s *export.Site) map[string]any {
	return map[string]any{"kind": "graph"}
}

// writeGraphData writes the explorer's data into the Hugo project's
// static files. (Scaffolding: the graph explorer fills this in.)
func writeGraphData(fsys afero.Fs, dir string, s *export.Site) error {
	return nil
}
