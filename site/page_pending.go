package site

import (
	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/routes"
)

// pendingPage lists the threads and sessions no episode derives from.
type pendingPage struct {
	Pending []export.PendingItem `json:"pending"`
}

func pendingPages(in input) []page {
	return []page{{path: "pending/_index.md", api: routes.Pending, title: "Pending threads", params: pendingPage{Pending: in.s.Pending}}}
}
