package query

import (
	"strings"

	"github.com/engramhq/engram/indexer/export"
)

// Rebase makes the snapshot's site paths ("/episodes/x/") absolute under
// base ("https://host/memory/", ending in "/"), for answers read away
// from the site (engram mcp --base-url, issue 32): the URLs of the
// episodes, patterns, antipatterns and pending notes it holds, and of the
// search and similar hits it answers later. A URL already absolute (the
// site was built with engram.toml's base_url) is kept. An empty base
// keeps them all.
func (s *Snapshot) Rebase(base string) {
	s.base = base
	if base == "" {
		return
	}
	for i := range s.Episodes {
		e := &s.Episodes[i]
		e.URL, e.JSONURL = s.abs(e.URL), s.abs(e.JSONURL)
	}
	for _, ps := range [][]export.PatternSummary{s.Patterns, s.Antipatterns} {
		for i := range ps {
			p := &ps[i]
			p.URL, p.JSONURL = s.abs(p.URL), s.abs(p.JSONURL)
			for k := range p.Evidence {
				p.Evidence[k].URL = s.abs(p.Evidence[k].URL)
			}
		}
	}
	for i := range s.Pending {
		s.Pending[i].URL = s.abs(s.Pending[i].URL)
	}
}

// abs is u under the snapshot's base, when it is a site path.
func (s *Snapshot) abs(u string) string {
	if s.base == "" || !strings.HasPrefix(u, "/") || strings.HasPrefix(u, "//") {
		return u
	}
	return s.base + u[1:]
}
