package site

import "github.com/engramhq/engram/indexer/export"

// notesPage is the list of the other notes; it lists Hugo's pages of the
// section, and needs nothing more.
type notesPage struct{}

func notesPages(in input) []page {
	return []page{{path: "notes/_index.md", twin: notesList(in.s), title: "Notes", params: notesPage{}}}
}

// notesList is the twin of the notes page.
func notesList(s *export.Site) export.List[export.Ref] {
	items := []export.Ref{}
	for _, n := range s.Notes {
		items = append(items, export.Ref{ID: n.ID, Type: n.Type, URL: n.URL})
	}
	return export.List[export.Ref]{Version: export.SchemaVersion, ReferenceTime: s.Manifest.ReferenceTime, Items: items}
}
