package site

import "github.com/engramhq/engram/indexer/export"

// GraphDoc lays out g and encodes it as /graph/index.json, for the
// benchmark of graph_bench_test.go, which needs a built repository and so
// lives in package site_test.
func GraphDoc(g export.Graph) ([]byte, error) {
	return encodeGraph(graphData(&export.Site{BaseURL: "/", Graph: g}, true))
}
