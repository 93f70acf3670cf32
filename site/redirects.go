package site

import (
	"bufio"
	"bytes"
	"path"
	"strings"

	"github.com/engramhq/engram/indexer/routes"
)

// A page whose JSON twin is an API file (an episode's is
// api/v1/episodes/<slug>.json) links that file as its alternate, and the
// same bytes are not written a second time as index.json beside the page.
// Where a client asks for index.json anyway, a rewrite serves the API
// file: the build writes the rewrites as _redirects (Netlify's format,
// status 200: the address stays), and Handler, which engram serve and the
// tests use, follows them.

// redirectsFile is the name of the rewrites in the output.
const redirectsFile = "_redirects"

// rewrite serves to for the path from; in both, ":slug" stands for one
// path element.
type rewrite struct{ from, to string }

// twinRewrites are the rewrites of the pages whose twin is an API file:
// one rule for all the pages of a folder of notes
// (/episodes/:slug/index.json), one each for the other pages.
func twinRewrites(ps []page) []rewrite {
	var out []rewrite
	seen := map[rewrite]bool{}
	for _, p := range ps {
		if p.api == "" {
			continue
		}
		dir := pageDir(p.path)
		r := rewrite{"/" + path.Join(dir, "index.json"), "/" + p.api}
		// A note's page and API file: episodes/x/ and api/v1/episodes/x.json.
		if folder, name := path.Split(dir); folder != "" && p.api == routes.Document(path.Clean(folder), name) {
			r = rewrite{"/" + routes.Twin(folder+":slug"), "/" + routes.Document(path.Clean(folder), ":slug")}
		}
		if !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
	}
	return out
}

// renderRedirects writes rules in the _redirects format.
func renderRedirects(rules []rewrite) []byte {
	var b bytes.Buffer
	b.WriteString("# Written by engram build: a page's JSON twin at index.json is the API\n# file it links as its alternate, served from there (status 200).\n")
	for _, r := range rules {
		b.WriteString(r.from + "  " + r.to + "  200\n")
	}
	return b.Bytes()
}

// parseRedirects reads the rewrites of a _redirects file engram wrote:
// "from to 200" lines; anything else is left out.
func parseRedirects(data []byte) []rewrite {
	var out []rewrite
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 3 && f[2] == "200" && strings.HasPrefix(f[0], "/") && strings.HasPrefix(f[1], "/") {
			out = append(out, rewrite{f[0], f[1]})
		}
	}
	return out
}

// apply returns the path r serves for urlPath, if r matches it.
func (r rewrite) apply(urlPath string) (string, bool) {
	before, after, slug := strings.Cut(r.from, ":slug")
	if !slug {
		return r.to, urlPath == r.from
	}
	if !strings.HasPrefix(urlPath, before) || !strings.HasSuffix(urlPath, after) || len(urlPath) <= len(before)+len(after) {
		return "", false
	}
	name := urlPath[len(before) : len(urlPath)-len(after)]
	if strings.Contains(name, "/") {
		return "", false
	}
	return strings.Replace(r.to, ":slug", name, 1), true
}
