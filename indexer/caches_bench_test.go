package indexer

import (
	"context"
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/engramhq/engram/indexer/bootstrap"
	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/gen"
	"github.com/engramhq/engram/indexer/search"
	"github.com/engramhq/engram/indexer/source"
	"github.com/engramhq/engram/indexer/store"
	"github.com/engramhq/engram/site"
)

// BenchmarkPageStore10k is the page store's part of a build at 10,000
// pages of 13 KB (128 MB, as at 10,000 notes): open, reuse the pages
// that did not change, keep the changed ones, and commit; changed is
// how many changed (one edit; a commit that moves every episode's age,
// a tenth...). The commit zeroes the changed pages' old bytes (issue 29).
func BenchmarkPageStore10k(b *testing.B) {
	const pages, size = 10_000, 13 << 10
	for _, changed := range []int{1, 100, 1000} {
		b.Run(fmt.Sprintf("changed=%d", changed), func(b *testing.B) {
			opt := Options{Repo: b.TempDir(), CacheDir: b.TempDir()}
			page := make([]byte, size)
			fill(rand.New(rand.NewPCG(1, 2)), page)
			keys := make([]site.PageKey, pages)
			s, err := store.OpenPages(opt.Repo, opt.CacheDir)
			if err != nil {
				b.Fatal(err)
			}
			for i := range keys {
				keys[i] = pageKey(fmt.Sprint(i))
				s.Put(keys[i], stamp(page, keys[i]))
			}
			if _, err := s.Commit(); err != nil {
				b.Fatal(err)
			}
			round := 0
			for b.Loop() {
				round++
				s, err := store.OpenPages(opt.Repo, opt.CacheDir)
				if err != nil {
					b.Fatal(err)
				}
				for i, k := range keys {
					if i%(pages/changed) != 0 {
						s.Get(k)
						continue
					}
					keys[i] = pageKey(fmt.Sprint(i, "-", round))
					s.Put(keys[i], stamp(page, keys[i]))
				}
				if _, err := s.Commit(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// stamp makes page the page of k: its first bytes are k.
func stamp(page []byte, k site.PageKey) []byte {
	copy(page, k[:])
	return page
}

func fill(rng *rand.Rand, p []byte) {
	for i := range p {
		p[i] = byte('a' + rng.IntN(26))
	}
}

// BenchmarkCacheScan10k is the scan of what the query cache holds
// (scanCache: every note's text, as written and rendered, and the
// cache's files as text) for gen.Sized(10_000), which a build and a
// refresh now do before they write it (issue 29), and the encoding of
// the cache's files (store.EncodeCache, which writeCache did before too).
func BenchmarkCacheScan10k(b *testing.B) {
	repo := b.TempDir()
	if err := source.WriteRepo(repo, gen.Generate(gen.Sized(10_000)).Commits); err != nil {
		b.Fatal(err)
	}
	in, err := Load(context.Background(), Options{Repo: repo})
	if err != nil {
		b.Fatal(err)
	}
	docs := export.Documents(in.Export)
	sdocs := search.DocsFromSite(docs)
	snap := snapshotOf(docs, bootstrap.Build(docs), nil)
	g, err := store.NewCachedGraph(snap.Graph)
	if err != nil {
		b.Fatal(err)
	}
	scan := in.Secrets.Scanner.Output(in.Secrets.Found)
	files, err := store.EncodeCache(snap, g)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("encode", func(b *testing.B) {
		for b.Loop() {
			if _, err := store.EncodeCache(snap, g); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("scan", func(b *testing.B) {
		for b.Loop() {
			if err := scanCache(context.Background(), scan, files, sdocs); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// pageKey is the page key of s, as the page store's tests make one.
func pageKey(s string) site.PageKey { return site.PageKey(sha256.Sum256([]byte(s))) }
