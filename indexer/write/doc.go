// Package write is engram's write path: the notes, events and feedback
// the write commands and the MCP write tools add to a memory repository
// (NewEpisode, UpsertEpisode, NewPattern, RecordFeedback, AddEvents,
// LinkEpisodeToConcept, MarkThreadStatus, WriteFiles), and engram import
// and extract, which write notes from ai-agents files and session logs.
//
// Every write is one transaction (txn, repo.go): it takes the writers'
// lock, plans the files, checks them all (inside the repository and
// through no symbolic link, no secret the build's scanner would refuse:
// check.go; no note whose title or place the build would refuse beside
// it: find.go), writes them atomically, then stages or commits them; a
// failure puts back what was there. So a write never leaves a repository
// a build refuses (SPEC §6). It imports no orchestrator: what it needs of
// the repository's configuration comes from indexer/config, its lock and
// cache directory from indexer/store.
package write
