package config

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
)

// Source is one [[sources]] entry of engram.toml: another memory
// repository the build reads beside its own, under a namespace (SPEC §2,
// "Several repositories, one memory").
//
//	[[sources]]
//	namespace = "api"                  # required: [a-z0-9][a-z0-9-]*
//	path      = "../api-memory"        # required: relative to this repository's root, or absolute
//	name      = "API service memory"   # optional display name; default the namespace
//	url       = "https://git.example/org/api-memory"  # optional: http(s), its files are url/blob/<commit>/<path>
//	file_url  = "https://host/{commit}/{path}"        # optional: where url/blob/… is not the host's form
//
// Sources are not transitive: a build reads the sources its own
// engram.toml lists, never a source's own [[sources]], so two
// repositories may list each other. Of a source's engram.toml only
// [paths] (which folders hold its episodes and patterns) and
// [poisoning] allow apply to its notes, as its .gitleaksignore applies to
// its files; every other key (title, base_url, decay, ...) is the built
// repository's.
type Source struct {
	Namespace string `toml:"namespace"`
	Path      string `toml:"path"`
	Name      string `toml:"name"`
	URL       string `toml:"url"`
	FileURL   string `toml:"file_url"`
}

var namespaceRE = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)

// validateSources fills each source's name and refuses what cannot work:
// a namespace that is not a lower-case word, a missing path, a URL that
// is not http(s), two sources with one namespace. That a path is a
// readable directory other than the repository itself is for the build
// to check (indexer's sources.go): it needs the file system.
func (c *Config) validateSources() error {
	if c.Namespace != "" && !namespaceRE.MatchString(c.Namespace) {
		return fmt.Errorf("namespace %q must be a lower-case word: a letter or digit, then letters, digits or -", c.Namespace)
	}
	seen := map[string]int{}
	for i := range c.Sources {
		s := &c.Sources[i]
		if err := s.validate(); err != nil {
			return fmt.Errorf("%s: %w", s.Label(i), err)
		}
		if s.Namespace == c.Namespace {
			return fmt.Errorf("%s: namespace %q is this repository's own (namespace at the top of %s)", s.Label(i), s.Namespace, File)
		}
		if first, dup := seen[s.Namespace]; dup {
			return fmt.Errorf("%s: namespace %q is already the namespace of %s; each source needs its own", s.Label(i), s.Namespace, c.Sources[first].Label(first))
		}
		seen[s.Namespace] = i
	}
	return nil
}

// Label names the i-th source (from 0) in messages: [[sources]] 1
// (namespace "api").
func (s Source) Label(i int) string {
	return fmt.Sprintf("[[sources]] %d (namespace %q)", i+1, s.Namespace)
}

func (s *Source) validate() error {
	if !namespaceRE.MatchString(s.Namespace) {
		return fmt.Errorf("namespace must be a lower-case word: a letter or digit, then letters, digits or -")
	}
	if strings.TrimSpace(s.Path) == "" {
		return fmt.Errorf("path is required: the source's checkout or submodule, relative to this repository's root or absolute")
	}
	if s.Name == "" {
		s.Name = s.Namespace
	}
	if s.URL != "" {
		if err := checkWebURL("url", s.URL); err != nil {
			return err
		}
		s.URL = strings.TrimRight(s.URL, "/")
	}
	if s.FileURL != "" {
		if !strings.Contains(s.FileURL, "{path}") {
			return fmt.Errorf("file_url %q must hold {path} (and may hold {commit})", s.FileURL)
		}
		probe := strings.NewReplacer("{commit}", "c", "{path}", "p").Replace(s.FileURL)
		if err := checkWebURL("file_url", probe); err != nil {
			return fmt.Errorf("file_url %q must be an http:// or https:// URL with a host", s.FileURL)
		}
	}
	return nil
}

// checkWebURL accepts what CheckBaseURL accepts but a path: a source's
// pages are on another host.
func checkWebURL(key, s string) error {
	if err := CheckBaseURL(s); err != nil {
		return fmt.Errorf("%s: %w", key, err)
	}
	if u, _ := url.Parse(s); u.Scheme == "" {
		return fmt.Errorf("%s %q must be an http:// or https:// URL with a host", key, s)
	}
	return nil
}

// FileLink is the web address of the file at path (inside the source) as
// of commit: file_url with {commit} and {path} filled in, else
// url/blob/<commit>/<path>; "" when the source has no url, or no commit
// is known for url's form.
func (s Source) FileLink(commit, path string) string {
	esc := escapePath(path)
	switch {
	case s.FileURL != "":
		return strings.NewReplacer("{commit}", url.PathEscape(commit), "{path}", esc).Replace(s.FileURL)
	case s.URL != "" && commit != "":
		return s.URL + "/blob/" + url.PathEscape(commit) + "/" + esc
	}
	return ""
}

// escapePath escapes each segment of a slash-separated path.
func escapePath(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		parts[i] = url.PathEscape(s)
	}
	return strings.Join(parts, "/")
}

// SortedSources are the sources by namespace: the order a build reads
// them in, whatever the order engram.toml lists them in.
func (c *Config) SortedSources() []Source {
	out := slices.Clone(c.Sources)
	slices.SortFunc(out, func(a, b Source) int { return strings.Compare(a.Namespace, b.Namespace) })
	return out
}
