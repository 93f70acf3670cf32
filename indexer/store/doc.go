// Package store is what engram keeps on disk, and how it writes there
// safely: the output a build publishes (claimed by a lock, filled aside,
// swapped in whole: output.go, swap.go), the lock files every writer of
// a shared directory takes (lock_*.go), files replaced atomically
// (atomic.go), the query cache's files (querycache.go: the parts of a
// query.Snapshot, one row of cacheParts each, its meta, the search
// index and the similarity model) and the stores a build keeps between
// builds beside it (CacheDir): the page store (pagecache.go: the
// rendered pages), the notes as parsed (parsecache.go) and the sums of
// the output files the secret scan passed (scanned.go).
//
// Its contract: a directory it publishes is replaced whole or not at
// all; two processes that write the same place take turns; the stores
// hold only what a passing build published (SPEC §6: the page store's
// invariant is stated in pagecache.go's doc comment). It decides
// nothing: the orchestrator (package indexer) says when to keep, refuse
// or drop what it holds, and knows the pipeline's order.
package store
