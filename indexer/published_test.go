package indexer

import "github.com/engramhq/engram/indexer/export"

// Published is the registry of what every build publishes (export's
// table completed by the later stages' Docs): for the tests that hold
// builds to it (schema_test.go).
func Published() []export.Doc { return export.Merge(laterDocs()) }
