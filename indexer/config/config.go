// Package config is engram.toml: its keys, defaults and checks, read by
// the build (indexer.Load) and by the write path (a note's folders, an
// engram.toml a command writes must load), and engram's version, which
// every output and store is marked with.
package config

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"strings"
	"unicode"

	"github.com/BurntSushi/toml"

	"github.com/engramhq/engram/indexer/events"
	"github.com/engramhq/engram/indexer/export"
	"github.com/engramhq/engram/indexer/note"
)

// File is the name of the optional configuration file at the root of
// a memory repository.
const File = "engram.toml"

// Version is engram's version, written into every manifest.
const Version = "0.1.0"

// Config is engram.toml. The zero value is valid: Validate fills defaults.
type Config struct {
	Title   string `toml:"title"`
	BaseURL string `toml:"base_url"`
	// Namespace is this repository's own namespace, optional: the one
	// other repositories list it under as a source, so that a source's
	// link [[<namespace>:EPISODE-…]] names this repository's note when
	// this one is built.
	Namespace string `toml:"namespace"`
	Paths     struct {
		Episodes []string `toml:"episodes"`
		Patterns []string `toml:"patterns"`
	} `toml:"paths"`
	Antipatterns struct {
		MaxSuccess     *float64 `toml:"max_success"`
		MinOccurrences *int     `toml:"min_occurrences"`
	} `toml:"antipatterns"`
	Decay struct {
		// Lambda is λ of score = raw × exp(−λ × age_days).
		Lambda *float64 `toml:"lambda"`
		// StaleDays: older than this with no echo is stale.
		StaleDays *float64 `toml:"stale_days"`
	} `toml:"decay"`
	// TTL leaves out, after this many days, the notes of a type (episode,
	// concept, ...) and the observations of a category (fact, problem,
	// ...): [ttl] fact = 180.
	TTL       map[string]float64 `toml:"ttl"`
	Bootstrap struct {
		// Budget is the bootstrap's size in tokens.
		Budget *int `toml:"budget"`
	} `toml:"bootstrap"`
	Events struct {
		// RetentionDays: events older than this before the reference
		// time are left out of the output, and engram prune removes them.
		RetentionDays *int `toml:"retention_days"`
	} `toml:"events"`
	Poisoning struct {
		// Allow lists the fingerprints of memory-poisoning findings that
		// are meant (a note about prompt injection quotes one), reviewed
		// in the repository as .gitleaksignore is for secrets: each
		// fingerprint is printed with its finding.
		Allow []string `toml:"allow"`
	} `toml:"poisoning"`
	// Sources are the other memory repositories the build reads beside
	// this one (sources.go).
	Sources []Source `toml:"sources"`
}

// Validate fills defaults and reports values that cannot work.
func (c *Config) Validate() error {
	if c.Title == "" {
		c.Title = "Agent memory"
	}
	if c.BaseURL != "" {
		if err := CheckBaseURL(c.BaseURL); err != nil {
			return err
		}
		if !strings.HasSuffix(c.BaseURL, "/") {
			c.BaseURL += "/"
		}
	}
	if len(c.Paths.Episodes) == 0 {
		c.Paths.Episodes = []string{"episodes"}
	}
	if len(c.Paths.Patterns) == 0 {
		c.Paths.Patterns = []string{"patterns"}
	}
	if c.Antipatterns.MaxSuccess == nil {
		v := 0.3
		c.Antipatterns.MaxSuccess = &v
	}
	if c.Antipatterns.MinOccurrences == nil {
		v := 2
		c.Antipatterns.MinOccurrences = &v
	}
	if v := *c.Antipatterns.MaxSuccess; v < 0 || v > 1 {
		return fmt.Errorf("antipatterns.max_success %g is outside 0..1", v)
	}
	if *c.Antipatterns.MinOccurrences < 0 {
		return fmt.Errorf("antipatterns.min_occurrences must be at least 0")
	}
	if c.Decay.Lambda == nil {
		v := 0.01
		c.Decay.Lambda = &v
	}
	if c.Decay.StaleDays == nil {
		v := 90.0
		c.Decay.StaleDays = &v
	}
	if c.Bootstrap.Budget == nil {
		v := defaultBudget
		c.Bootstrap.Budget = &v
	}
	if v := *c.Decay.Lambda; v < 0 || v > 10 || v != v {
		return fmt.Errorf("decay.lambda %g is outside 0..10", v)
	}
	if v := *c.Decay.StaleDays; v < 0 || v != v {
		return fmt.Errorf("decay.stale_days must be at least 0")
	}
	if *c.Bootstrap.Budget < 1 {
		return fmt.Errorf("bootstrap.budget must be at least 1 token")
	}
	if c.Events.RetentionDays == nil {
		v := events.DefaultRetentionDays
		c.Events.RetentionDays = &v
	}
	if *c.Events.RetentionDays < 1 {
		return fmt.Errorf("events.retention_days must be at least 1 day")
	}
	for _, a := range c.Poisoning.Allow {
		if strings.TrimSpace(a) == "" {
			return fmt.Errorf("poisoning.allow holds an empty fingerprint; each entry is a fingerprint that engram check printed")
		}
	}
	for k, v := range c.TTL {
		if v <= 0 || v != v {
			return fmt.Errorf("ttl.%s must be a number of days above 0", k)
		}
	}
	return c.validateSources()
}

// CheckBaseURL accepts an http or https URL with a host, or a path from
// the root: every link on the site and in the JSON starts with it, so a
// javascript: or data: URL would run in a reader's browser.
func CheckBaseURL(s string) error {
	bad := fmt.Errorf("base_url %q must be an http:// or https:// URL with a host, or a path starting with /", s)
	if strings.ContainsAny(s, " \t\"'<>\\`?#") || strings.ContainsFunc(s, unicode.IsControl) {
		return fmt.Errorf("base_url %q holds a character a base URL cannot: a space, a quote, <, >, \\, `, ? or #", s)
	}
	u, err := url.Parse(s)
	if err != nil {
		return bad
	}
	switch strings.ToLower(u.Scheme) {
	case "":
		// A path; "//host" would be a host, not a path.
		if !strings.HasPrefix(s, "/") || strings.HasPrefix(s, "//") {
			return bad
		}
	case "http", "https":
		if u.Host == "" || u.Opaque != "" {
			return bad
		}
		if u.User != nil {
			return fmt.Errorf("base_url %q holds a user name or password; it would be published on every page", s)
		}
	default:
		return bad
	}
	return nil
}

// DefaultBudget is the bootstrap's default size in tokens (SPEC §4.1).
const defaultBudget = 2000

// ExportDecay is the decay of the scores as export takes it, the ttl
// keys lower-cased.
func (c *Config) ExportDecay() export.Decay {
	ttl := map[string]float64{}
	for k, v := range c.TTL {
		ttl[strings.ToLower(k)] = v
	}
	return export.Decay{Lambda: *c.Decay.Lambda, StaleDays: *c.Decay.StaleDays, TTL: ttl}
}

// Load reads engram.toml from the repository, if there is one.
// Unknown keys are reported as warnings; a file that does not parse, or
// values that cannot work, are errors.
func Load(fsys fs.FS) (Config, []note.Diagnostic, error) {
	var c Config
	data, err := fs.ReadFile(fsys, File)
	if errors.Is(err, fs.ErrNotExist) {
		return c, nil, c.Validate()
	}
	if err != nil {
		return c, nil, fmt.Errorf("read %s: %w", File, err)
	}
	return Decode(data)
}

// Decode reads engram.toml's bytes as Load does.
func Decode(data []byte) (Config, []note.Diagnostic, error) {
	var c Config
	md, err := toml.Decode(string(data), &c)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return c, nil, fmt.Errorf("%s:%d:%d: %s", File, pe.Position.Line, pe.Position.Col, pe.Message)
		}
		return c, nil, fmt.Errorf("%s: %w", File, err)
	}
	var diags note.Diagnostics
	for _, k := range md.Undecoded() {
		diags.Report(File, 1, 1, note.Warning, "config-unknown-key", "unknown key %q", k.String())
	}
	if err := c.Validate(); err != nil {
		return c, diags, fmt.Errorf("%s: %w", File, err)
	}
	return c, diags, nil
}

// Read reads and validates engram.toml of the repository at dir; a
// repository without one gets the defaults.
func Read(dir string) (Config, error) {
	c, _, err := Load(os.DirFS(dir))
	return c, err
}
