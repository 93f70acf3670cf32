// Package store is what engram keeps on disk, and how it writes there
// safely: the output a build publishes (claimed by a lock, filled aside,
// swapped in whole: output.go, swap.go), the lock files every writer of
// a shared directory takes (lock_*.go), files replaced atomically
// (atomic.go), the query cache's files (querycache.go: the parts of a
// query.Snapshot, its meta, the search index and similarity model) and
// the stores a build keeps between builds beside it (CacheDir): the page store (pagecache.go: the rendered
// pages), the notes as parsed (parsecache.go) and the sums of the output
// files the secret scan passed (scanned.go).
//
// The stores hold only what a passing build published (SPEC §6): the
// page store's invariant is stated in pagecache.go's doc comment.
//
// Its contract: a directory it publishes is replaced whole or not at
// all, and two processes that write the same place take turns. It knows
// nothing of the pipeline's order; the orchestrator (package indexer)
// calls it.
package store
