package indexer

import (
	"context"

	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/search"
)

// stages are what the stages a build and a query snapshot share made
// from one repository: each is nil until its stage has run.
type stages struct {
	// in is the repository loaded: source, secrets, parse, poisoning,
	// the graph, related work and lessons (load.go).
	in *Loaded
	// docs are the documents of the API (export.Documents).
	docs *export.Site
	// search are the search documents of docs, which the static search
	// index, the similar episodes and the similarity model read.
	search []search.Doc
}

// pipeline runs the stages that Build and the query snapshot (Snapshot's
// refresh) share, in their one order: load, then the caller's check of
// what was loaded (each refuses secrets in its own words, and Build
// records the load in its report), then export and the search documents.
// What follows is each reader's own: Build fits the bootstrap, finds the
// similar episodes, writes the files and the site and publishes
// (laterOf, build); the snapshot makes the bootstrap's candidates and
// the similarity model and writes the query cache (refresh).
//
// The stages are timed on clock under the names Report.Stages gives
// them ("export" covers the search documents); with stored, load parses
// only the notes the parse store does not hold. An error leaves in set
// when load itself succeeded, so that the caller can tell the two apart.
func pipeline(ctx context.Context, opt Options, clock *stopwatch, stored bool, check func(*Loaded) error) (stages, error) {
	var st stages
	in, err := load(ctx, opt, clock, stored)
	if err != nil {
		return st, err
	}
	st.in = in
	if err := check(in); err != nil {
		return st, err
	}
	clock.start("export")
	st.docs = export.Documents(in.Export)
	st.search = search.DocsFromSite(st.docs)
	return st, nil
}
