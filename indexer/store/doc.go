// Package store is what engram keeps on disk, and how it writes there
// safely: the output a build publishes (claimed by a lock, filled aside,
// swapped in whole: output.go, swap.go) and the lock files every writer
// of a shared directory takes (lock_*.go).
//
// Its contract: a directory it publishes is replaced whole or not at
// all, and two processes that write the same place take turns. It knows
// nothing of the pipeline's order; the orchestrator (package indexer)
// calls it.
package store
