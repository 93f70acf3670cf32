package export

import "slices"

// Later is what the stages after export make from the documents: the
// similar episodes (search), the bootstrap's budget and files, and the
// static search index's files.
type Later struct {
	// Similar lists each episode's similar episodes, by episode id.
	Similar map[string][]Similar
	// Budget is the bootstrap's token budget, named in llms.txt.
	Budget int
	// Files are written and listed in the manifest with the rest.
	Files []File
	// Slices index the bootstraps by area, in the manifest.
	Slices []BootstrapSlice
	// Docs are the families of files the later stages publish: those
	// of Files, and the site's own JSON twins (the registry's later
	// families, registry.go).
	Docs []Doc
}

// With returns the documents to publish: s with what the later stages
// made. s itself is not changed, so the stages that read it see the
// same documents whatever order they run in.
func (s *Site) With(l Later) *Site {
	out := *s
	out.Episodes = slices.Clone(s.Episodes)
	for i := range out.Episodes {
		if m, ok := l.Similar[out.Episodes[i].ID]; ok {
			out.Episodes[i].Similar = m
		}
	}
	out.Budget = l.Budget
	out.Manifest.BootstrapSlices = append([]BootstrapSlice{}, l.Slices...)
	out.lateDocs = slices.Clone(l.Docs)
	out.Extra = slices.Concat(s.Extra, l.Files)
	return &out
}
