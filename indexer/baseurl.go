package indexer

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/engramhq/engram/indexer/export"
)

// BaseURL is where the published site lives (SPEC §4, "Where the site
// lives"): an http(s) URL ending in "/", or export.RelativeBase when no
// setting gave one, in which case the pages link relative to themselves
// and the sitemap, feeds and llms.txt relative to the site's root.
type BaseURL struct {
	URL string
	// From names the setting it came from: "--base-url", "engram.toml",
	// or the host's variable ("$URL", "$DEPLOY_PRIME_URL"); "" for none.
	From string
	// Why says why a setting that was given is not used.
	Why string
}

// Absolute reports whether the site has an absolute base URL.
func (b BaseURL) Absolute() bool { return b.URL != export.RelativeBase }

// resolveBaseURL picks the base URL: --base-url (opt.BaseURL), else
// engram.toml's base_url (configured, already validated), else the deploy
// URL the host set (opt.HostURL). A bad --base-url is an error; a host's
// variable that is not an http(s) URL is not used, and Why says so. A base
// URL that is a path ("/", "/memory/") has no host to make absolute links
// with: the site links relatively, which works under any path.
func resolveBaseURL(opt Options, configured string) (BaseURL, error) {
	var b BaseURL
	switch {
	case opt.BaseURL != "":
		if err := checkBaseURL(opt.BaseURL); err != nil {
			return b, fmt.Errorf("--base-url: %w", err)
		}
		b = BaseURL{URL: opt.BaseURL, From: "--base-url"}
	case configured != "":
		b = BaseURL{URL: configured, From: ConfigFile}
	case opt.HostURL != "":
		if err := checkBaseURL(opt.HostURL); err != nil || !hasHost(opt.HostURL) {
			return BaseURL{URL: export.RelativeBase, Why: fmt.Sprintf("%s is %q, not an http(s) URL", opt.HostURLFrom, opt.HostURL)}, nil
		}
		b = BaseURL{URL: opt.HostURL, From: opt.HostURLFrom}
	default:
		return BaseURL{URL: export.RelativeBase}, nil
	}
	if !strings.HasSuffix(b.URL, "/") {
		b.URL += "/"
	}
	if !hasHost(b.URL) {
		why := ""
		if b.URL != "/" {
			why = fmt.Sprintf("the base URL %q of %s has no host", b.URL, b.From)
		}
		return BaseURL{URL: export.RelativeBase, Why: why}, nil
	}
	return b, nil
}

func hasHost(s string) bool {
	u, err := url.Parse(s)
	return err == nil && u.Host != ""
}
