package main

import (
	"encoding/json"
	"encoding/xml"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// checkPublished checks the files of a built site that other programs
// read at its address (SPEC §4, "Where the site lives"): with a base URL
// (base, ending in "/"), the sitemap validates against the sitemaps.org
// schema, the RSS feed and feed.json link absolutely, under base, and
// feed.json keeps the rules of JSON Feed 1.1; with or without one, every
// link in llms.txt names a file of the site.
func checkPublished(t *testing.T, public, base string) {
	t.Helper()
	if base != "" {
		validateSitemap(t, filepath.Join(public, "sitemap.xml"))
		checkRSS(t, filepath.Join(public, "index.xml"), base)
		checkFeedTitles(t, public)
	}
	checkJSONFeed(t, filepath.Join(public, "feed.json"), base)
	checkLLMsLinks(t, public, base)
}

// validateSitemap validates a sitemap with xmllint against the schema
// of sitemaps.org (testdata/schema/sitemap.xsd); every <loc> is then an
// absolute URL of 12 characters or more.
func validateSitemap(t *testing.T, file string) {
	t.Helper()
	xmllint, err := exec.LookPath("xmllint")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("xmllint is not installed (Debian's libxml2-utils; .ci/run installs it)")
		}
		t.Log("xmllint is not installed (Debian's libxml2-utils): the sitemap is not validated against sitemap.xsd")
		return
	}
	out, err := exec.Command(xmllint, "--noout", "--nonet", "--schema", filepath.Join("testdata", "schema", "sitemap.xsd"), file).CombinedOutput()
	if err != nil {
		t.Errorf("the sitemap does not validate against sitemap.xsd: %v\n%.2000s", err, out)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var sm struct {
		URLs []struct {
			Loc string `xml:"loc"`
		} `xml:"url"`
	}
	if err := xml.Unmarshal(data, &sm); err != nil {
		t.Fatal(err)
	}
	if len(sm.URLs) < 5 {
		t.Errorf("the sitemap lists %d pages", len(sm.URLs))
	}
	for _, u := range sm.URLs {
		if !isAbsoluteURL(u.Loc) {
			t.Errorf("sitemap <loc> %q is not absolute", u.Loc)
		}
	}
}

// checkRSS checks that the feed's channel and items link absolutely,
// under base.
func checkRSS(t *testing.T, file, base string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	// RSS's <link> holds a URL, Atom's <atom:link rel="self"> an href.
	type link struct {
		XMLName xml.Name
		Text    string `xml:",chardata"`
		Href    string `xml:"href,attr"`
	}
	var rss struct {
		Version string `xml:"version,attr"`
		Channel struct {
			Links []link `xml:"link"`
			Items []struct {
				Link string `xml:"link"`
				GUID string `xml:"guid"`
			} `xml:"item"`
		} `xml:"channel"`
	}
	if err := xml.Unmarshal(data, &rss); err != nil {
		t.Fatalf("index.xml: %v", err)
	}
	if rss.Version != "2.0" || len(rss.Channel.Items) == 0 {
		t.Errorf("index.xml: RSS %q with %d items", rss.Version, len(rss.Channel.Items))
	}
	var links []string
	for _, l := range rss.Channel.Links {
		if l.XMLName.Space == "" {
			links = append(links, l.Text)
		} else {
			links = append(links, l.Href)
		}
	}
	if len(links) != 2 {
		t.Errorf("index.xml: channel links %v, want the site's and the feed's own", links)
	}
	for _, it := range rss.Channel.Items {
		links = append(links, it.Link, it.GUID)
	}
	for _, l := range links {
		if !strings.HasPrefix(l, base) {
			t.Errorf("index.xml links %q, not an absolute URL under %s", l, base)
		}
	}
}

// checkFeedTitles: feed.json titles each episode as the RSS feed does
// (its page's title, the task's headline), never by its id alone.
func checkFeedTitles(t *testing.T, public string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(public, "index.xml"))
	if err != nil {
		t.Fatal(err)
	}
	var rss struct {
		Items []struct {
			Title string `xml:"title"`
			Link  string `xml:"link"`
		} `xml:"channel>item"`
	}
	if err := xml.Unmarshal(data, &rss); err != nil {
		t.Fatal(err)
	}
	rssTitle := map[string]string{}
	for _, it := range rss.Items {
		rssTitle[it.Link] = it.Title
	}
	var feed struct {
		Items []struct{ Title, URL string }
	}
	readJSONFile(t, filepath.Join(public, "feed.json"), &feed)
	matched := 0
	for _, it := range feed.Items {
		if want, ok := rssTitle[it.URL]; ok {
			matched++
			if it.Title != want || strings.HasPrefix(it.Title, "EPISODE-") {
				t.Errorf("feed.json titles %s %q; the RSS feed %q", it.URL, it.Title, want)
			}
		}
	}
	if matched == 0 {
		t.Error("no episode of feed.json is an item of the RSS feed")
	}
}

// checkJSONFeed checks feed.json against the rules of JSON Feed 1.1
// (https://www.jsonfeed.org/version/1.1/): the version URL, a title,
// items each with a unique id and content_text or content_html, RFC 3339
// dates, tags as strings, and absolute URLs (under base) wherever it has
// one, when the site has a base URL.
func checkJSONFeed(t *testing.T, file, base string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var feed map[string]any
	if err := json.Unmarshal(data, &feed); err != nil {
		t.Fatalf("feed.json: %v", err)
	}
	str := func(m map[string]any, k string) (string, bool) {
		s, ok := m[k].(string)
		return s, ok
	}
	if v, _ := str(feed, "version"); v != "https://jsonfeed.org/version/1.1" {
		t.Errorf("feed.json: version %q", v)
	}
	if v, ok := str(feed, "title"); !ok || v == "" {
		t.Error("feed.json: no title")
	}
	checkURL := func(where, u string) {
		if base != "" && !strings.HasPrefix(u, base) {
			t.Errorf("feed.json: %s %q is not an absolute URL under %s", where, u, base)
		}
	}
	for _, k := range []string{"home_page_url", "feed_url"} {
		if v, ok := feed[k]; ok {
			s, isStr := v.(string)
			if !isStr {
				t.Errorf("feed.json: %s is not a string", k)
			}
			checkURL(k, s)
		}
	}
	if feedURL, _ := str(feed, "feed_url"); base != "" && feedURL != base+"feed.json" {
		t.Errorf("feed.json: feed_url %q is not the feed's own address", feedURL)
	}
	items, ok := feed["items"].([]any)
	if !ok || len(items) == 0 {
		t.Fatalf("feed.json: items %T with %d entries", feed["items"], len(items))
	}
	ids := map[string]bool{}
	for i, raw := range items {
		it, ok := raw.(map[string]any)
		if !ok {
			t.Errorf("feed.json: item %d is not an object", i)
			continue
		}
		id, ok := str(it, "id")
		if !ok || id == "" || ids[id] {
			t.Errorf("feed.json: item %d: id %q missing, empty or repeated", i, id)
		}
		ids[id] = true
		text, hasText := str(it, "content_text")
		html, hasHTML := str(it, "content_html")
		if !hasText && !hasHTML || text == "" && html == "" {
			t.Errorf("feed.json: %s has neither content_text nor content_html", id)
		}
		for _, k := range []string{"url", "external_url", "image", "banner_image"} {
			if v, ok := it[k]; ok {
				s, isStr := v.(string)
				if !isStr {
					t.Errorf("feed.json: %s: %s is not a string", id, k)
				}
				checkURL(id+" "+k, s)
			}
		}
		for _, k := range []string{"date_published", "date_modified"} {
			if v, ok := it[k]; ok {
				s, _ := v.(string)
				if _, err := time.Parse(time.RFC3339, s); err != nil {
					t.Errorf("feed.json: %s: %s %q is not RFC 3339", id, k, s)
				}
			}
		}
		if v, ok := it["tags"]; ok {
			tags, isList := v.([]any)
			for _, tag := range tags {
				if _, isStr := tag.(string); !isStr {
					isList = false
				}
			}
			if !isList {
				t.Errorf("feed.json: %s: tags are not a list of strings", id)
			}
		}
	}
}

var markdownLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// checkLLMsLinks checks that every link of llms.txt names a file the
// build wrote: under base with one, relative to llms.txt (the site's
// root) without.
func checkLLMsLinks(t *testing.T, public, base string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(public, "llms.txt"))
	if err != nil {
		t.Fatal(err)
	}
	links := markdownLink.FindAllStringSubmatch(string(data), -1)
	if len(links) < 10 {
		t.Fatalf("llms.txt has %d links", len(links))
	}
	for _, m := range links {
		link := m[1]
		rel := link
		if base != "" {
			var ok bool
			if rel, ok = strings.CutPrefix(link, base); !ok {
				t.Errorf("llms.txt links %q, not under %s", link, base)
				continue
			}
		} else if u, err := url.Parse(link); err != nil || u.IsAbs() || strings.HasPrefix(link, "/") {
			t.Errorf("llms.txt links %q, not relative to itself", link)
			continue
		}
		rel = strings.TrimPrefix(rel, "./")
		if rel == "" || strings.HasSuffix(rel, "/") {
			rel += "index.html"
		}
		if fi, err := os.Stat(filepath.Join(public, filepath.FromSlash(rel))); err != nil || fi.IsDir() {
			t.Errorf("llms.txt links %q: no such file in the site (%v)", link, err)
		}
	}
}

func isAbsoluteURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != ""
}
