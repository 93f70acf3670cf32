package indexer

import (
	"context"
	"errors"
	"slices"
	"sync"

	"github.com/engramhq/engram/indexer/bootstrap"
	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/search"
	"github.com/engramhq/engram/indexer/store"
	"github.com/engramhq/engram/site"
)

// laterOf makes what the build publishes beside the documents, from
// them alone: the bootstrap fitted to budget, the static search index,
// every episode's similar episodes, and the families of the files these
// and the site publish, for the registry (export.Docs). Each reads docs and writes nothing of it, so they run at the
// same time (issue 30: a build uses the cores it has); the similar
// episodes are the stage "similar", which overlaps the end of "export".
// A build interrupted before "similar" begins, or while these run,
// returns its interruption.
//
// sdocs are the search documents of docs (pipeline's), which serve the
// static index and the similar episodes alike.
func laterOf(ctx context.Context, clock *stopwatch, docs *export.Site, sdocs []search.Doc, budget int) (export.Later, error) {
	var (
		wg                 sync.WaitGroup
		boot, static       []export.File
		areas              []export.BootstrapSlice
		bootErr, staticErr error
		similar            map[string][]export.Similar
	)
	wg.Go(func() {
		whole, slices := bootstrap.BuildAll(docs)
		boot, areas, bootErr = bootstrapFiles(whole, slices, budget)
	})
	wg.Go(func() { static, staticErr = search.StaticFiles(search.StaticDocs(sdocs)) })
	if err := store.Interrupted(ctx); err == nil {
		end := clock.begin("similar")
		wg.Go(func() {
			defer end()
			similar = similarEpisodes(search.NewSimilarity(sdocs))
		})
	}
	wg.Wait()
	if err := errors.Join(store.Interrupted(ctx), bootErr, staticErr); err != nil {
		return export.Later{}, err
	}
	return export.Later{Similar: similar, Budget: budget, Files: slices.Concat(boot, static), Slices: areas, Docs: laterDocs()}, nil
}

// laterDocs are the families of files the stages after export publish,
// for the registry (export.Merge): the bootstrap's, the static search
// index's and the site's own JSON twins, which have schemas too,
// published and listed in the manifest with the API's.
func laterDocs() []export.Doc {
	return slices.Concat(bootstrap.Docs(), search.StaticSchemas(), site.Docs())
}
