package indexer

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/engramhq/engram/indexer/config"
)

// BaseURL is where the published site lives (SPEC §4, "Where the site
// lives"), as the settings give it: an http(s) URL, or a path from the
// host's root ("/memory/"), ending in "/"; or none ("").
//
// Without one the site is relative: its pages link relative to
// themselves, and the files that live at its root (sitemap, RSS,
// feed.json, llms.txt) relative to the root, so that it works opened
// from disk or served under any path; the JSON's urls are then paths from
// the site's root.
type BaseURL struct {
	URL string
	// From names the setting it came from: "--base-url", "engram.toml",
	// or the host's variable ("$URL", "$CF_PAGES_URL", "$VERCEL_URL"...).
	From string
	// Why says why a setting that was given is not used.
	Why string
}

// Absolute reports whether the site has a base URL with a host, from
// which the sitemap and feeds make the absolute links they need.
func (b BaseURL) Absolute() bool { return hasHost(b.URL) }

// prefix is what the URLs of the site start with: the base URL, or "/"
// for a relative site (rewritten as the files are written).
func (b BaseURL) prefix() string {
	if b.URL == "" {
		return "/"
	}
	return b.URL
}

// resolveBaseURL picks the base URL: --base-url (opt.BaseURL), else
// engram.toml's base_url (configured, already validated), else the deploy
// URL the host set (opt.HostURL). A bad --base-url is an error; a host's
// variable that is not an http(s) URL is not used, and Why says so.
func resolveBaseURL(opt Options, configured string) (BaseURL, error) {
	var b BaseURL
	switch {
	case opt.BaseURL != "":
		if err := config.CheckBaseURL(opt.BaseURL); err != nil {
			return b, fmt.Errorf("--base-url: %w", err)
		}
		b = BaseURL{URL: opt.BaseURL, From: "--base-url"}
	case configured != "":
		b = BaseURL{URL: configured, From: config.File}
	case opt.HostURL != "":
		if err := config.CheckBaseURL(opt.HostURL); err != nil || !hasHost(opt.HostURL) {
			return BaseURL{Why: fmt.Sprintf("%s is %q, not an http(s) URL", opt.HostURLFrom, opt.HostURL)}, nil
		}
		b = BaseURL{URL: opt.HostURL, From: opt.HostURLFrom}
	default:
		return b, nil
	}
	if !strings.HasSuffix(b.URL, "/") {
		b.URL += "/"
	}
	return b, nil
}

func hasHost(s string) bool {
	u, err := url.Parse(s)
	return err == nil && u.Host != ""
}

// AbsoluteBaseURL checks a base URL given for answers read away from the
// site (engram mcp --base-url): an http(s) URL with a host, as
// engram.toml's base_url would be checked. It returns it ending in "/".
func AbsoluteBaseURL(s string) (string, error) {
	if err := config.CheckBaseURL(s); err != nil {
		return "", err
	}
	if !hasHost(s) {
		return "", fmt.Errorf("base URL %q is a path; answers need an http:// or https:// URL with a host", s)
	}
	if !strings.HasSuffix(s, "/") {
		s += "/"
	}
	return s, nil
}
