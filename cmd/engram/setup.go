package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/engramhq/engram/indexer/source"
	"github.com/engramhq/engram/indexer/store"
)

// engram setup CLIENT writes the client's MCP configuration (and its
// session-start hook, where the client runs one) into the project: the
// git repository of the memory repository, at its top level, where the
// client looks for project configuration. Every file is edited in
// place: engram's entry is added or removed and the other bytes stay as
// they were; --remove gives back the bytes before setup, and deletes
// only files and folders setup made that hold nothing else.

// setupClient is what engram setup writes for one client (docs/mcp.md
// cites each file's documentation).
type setupClient struct {
	name string
	// mcp is the MCP configuration file, relative to the project;
	// servers its JSON key of servers ("" for Codex's TOML).
	mcp, servers string
	// workspace is the variable the client sets to the project folder
	// in its configuration ("" when a relative path is read from it).
	workspace string
	stdio     bool // the entry says "type": "stdio"
	// hooks is the hook configuration ("" when engram installs none:
	// noHook says why), and script where the hook's script goes.
	hooks, script string
	// top is the shell expression of the project folder in a hook.
	top    string
	noHook string
}

const hookScriptName = "engram-session-start.sh"

var setupClients = []setupClient{
	{name: "claude-code", mcp: ".mcp.json", servers: "mcpServers",
		hooks: ".claude/settings.json", script: ".claude/hooks/" + hookScriptName, top: `"$CLAUDE_PROJECT_DIR"`},
	{name: "codex", mcp: ".codex/config.toml",
		hooks: ".codex/hooks.json", script: ".codex/hooks/" + hookScriptName, top: `"$(git rev-parse --show-toplevel)"`},
	{name: "cursor", mcp: ".cursor/mcp.json", servers: "mcpServers", workspace: "${workspaceFolder}",
		noHook: "Cursor's hooks answer in JSON, not with the markdown the session-start script prints"},
	{name: "vscode", mcp: ".vscode/mcp.json", servers: "servers", workspace: "${workspaceFolder}", stdio: true,
		noHook: "VS Code's agent hooks are a preview whose session-start output is JSON, not the markdown the session-start script prints"},
}

func clientNames() string {
	names := make([]string, len(setupClients))
	for i, c := range setupClients {
		names[i] = c.name
	}
	return strings.Join(names, ", ")
}

// errNotOurs marks an entry or file that engram did not write: it is
// left as it is.
type notOursError string

func (e notOursError) Error() string { return string(e) }

func errNotOurs(s string) error { return notOursError(s) }

// setupChange is one file setup writes or removes.
type setupChange struct {
	rel      string // slash path in the project
	old      []byte // nil when the file does not exist
	new      []byte // nil to delete the file
	perm     os.FileMode
	dirsMade []string
}

func cmdSetup(_ context.Context, args []string, stdout, _ io.Writer) error {
	flags := flag.NewFlagSet("setup", flag.ContinueOnError)
	repo := flags.String("repo", "", "memory repository (default: . or ./content)")
	dry := flags.Bool("dry-run", false, "print what would be written, and write nothing")
	remove := flags.Bool("remove", false, "undo engram setup for this client")
	force := flags.Bool("force", false, "replace an engram entry or hook script that engram setup did not write")
	pos, err := parseArgs(flags, args, 1, "CLIENT")
	if err != nil {
		return err
	}
	i := slices.IndexFunc(setupClients, func(c setupClient) bool { return c.name == pos[0] })
	if i < 0 {
		return fmt.Errorf("%w: setup takes a client: %s; not %q", errUsage, clientNames(), pos[0])
	}
	c := setupClients[i]
	if *repo == "" {
		*repo = defaultRepo()
	}
	top, rel, err := setupProject(*repo)
	if err != nil {
		return err
	}
	plan := c.plan
	if *remove {
		plan = c.unplan
	}
	changes, err := plan(top, rel, *force)
	if err != nil {
		return fmt.Errorf("setup %s: %w", c.name, err)
	}
	if *dry {
		printPlan(stdout, changes)
	} else if err := applyChanges(top, changes); err != nil {
		return fmt.Errorf("setup %s: %w", c.name, err)
	} else {
		reportChanges(stdout, top, changes)
	}
	if c.noHook != "" && !*remove {
		fmt.Fprintf(stdout, "no session-start hook for %s: %s; its agent can call the bootstrap tool at the start of a session (docs/mcp.md)\n", c.name, c.noHook)
	}
	return nil
}

// setupProject is the project's top folder and the memory repository's
// slash path in it ("." for the top).
func setupProject(repo string) (top, rel string, err error) {
	if st, err := os.Stat(repo); err != nil || !st.IsDir() {
		return "", "", fmt.Errorf("%s is not a directory: give the memory repository with --repo", repo)
	}
	h, err := source.FindHooks(repo)
	if errors.Is(err, source.ErrNotGit) {
		return "", "", fmt.Errorf("setup: %s is in no git repository, and a client reads its configuration from the project's: run git init there first (or give the memory repository with --repo)", repo)
	}
	if err != nil {
		return "", "", fmt.Errorf("setup: %w", err)
	}
	rel = strings.Trim(filepath.ToSlash(h.Prefix), "/")
	if rel == "" {
		rel = "."
	}
	return h.Top, rel, nil
}

// entry is the client's MCP server entry for the memory repository at
// rel, as one line of JSON.
func (c setupClient) entry(rel string) string {
	repo := rel
	if c.workspace != "" {
		repo = c.workspace
		if rel != "." {
			repo += "/" + rel
		}
	}
	typ := ""
	if c.stdio {
		typ = `"type": "stdio", `
	}
	return `{` + typ + `"command": "engram", "args": ["mcp", "--repo", ` + quoteJSON(repo) + `]}`
}

// tomlEntry is Codex's table for the memory repository at rel.
func tomlEntry(rel string) string {
	return "[mcp_servers.engram]\ncommand = \"engram\"\nargs = [\"mcp\", \"--repo\", " + quoteJSON(rel) + "]\n"
}

// hookEntry is the SessionStart entry that runs the script on the
// memory repository at rel (Claude Code's and Codex's shape).
func (c setupClient) hookEntry(rel string) string {
	repo := c.top
	if rel != "." {
		repo += "/" + shellQuote(rel)
	}
	cmd := "ENGRAM_REPO=" + repo + " sh " + c.top + "/" + c.script
	return `{"hooks": [{"type": "command", "command": ` + quoteJSON(cmd) + `}]}`
}

// setupMarker is the line that says engram setup wrote a hook script.
const setupMarker = "# engram: written by `engram setup`; `engram setup --remove` deletes it"

// sessionScript is docs/hooks/session-start.sh with the marker.
func sessionScript() []byte {
	s := scaffoldFile("session-start.sh.tmpl")
	shebang, rest, _ := strings.Cut(s, "\n")
	return []byte(shebang + "\n" + setupMarker + "\n" + rest)
}

// plan is what setup writes.
func (c setupClient) plan(top, rel string, force bool) ([]setupChange, error) {
	var out []setupChange
	ch, err := c.planMCP(top, rel, force)
	if err != nil {
		return nil, err
	}
	out = append(out, ch)
	if c.hooks == "" {
		return out, nil
	}
	old, err := readOptional(top, c.script)
	if err != nil {
		return nil, err
	}
	if old != nil && !hasSetupMarker(old) && !force {
		return nil, fmt.Errorf("%s exists and engram did not write it; it is left as it is (engram setup --force replaces it)", c.script)
	}
	out = append(out, setupChange{rel: c.script, old: old, new: sessionScript(), perm: 0o755})
	ch, err = c.planHook(top, rel)
	if err != nil {
		return nil, err
	}
	return append(out, ch), nil
}

func (c setupClient) planMCP(top, rel string, force bool) (setupChange, error) {
	old, err := readOptional(top, c.mcp)
	if err != nil {
		return setupChange{}, err
	}
	ch := setupChange{rel: c.mcp, old: old, perm: 0o644}
	if c.servers == "" {
		ch.new, err = tomlAdd(old, tomlEntry(rel), force)
		return ch, refuse(c.mcp, err)
	}
	doc := old
	if doc == nil {
		doc = []byte("{}\n")
	}
	chain, err := jsonWalk(doc, []string{c.servers}, '{')
	if err != nil {
		return ch, refuse(c.mcp, err)
	}
	want := c.entry(rel)
	if len(chain) == 2 {
		if i := chain[1].find("engram"); i >= 0 {
			switch {
			case sameJSON(chain[1].members[i].value, []byte(want)):
				ch.new = old
			case force:
				ch.new = replaceValue(doc, chain[1], i, want)
			default:
				return ch, fmt.Errorf("%s has an engram server that is not the one engram setup writes; it is left as it is (engram setup --force replaces it)", c.mcp)
			}
			return ch, nil
		}
	}
	ch.new, err = jsonAdd(doc, []string{c.servers}, "engram", want)
	return ch, refuse(c.mcp, err)
}

// planHook adds the SessionStart entry, or replaces engram's (the one
// that runs engram's script) when it differs.
func (c setupClient) planHook(top, rel string) (setupChange, error) {
	old, err := readOptional(top, c.hooks)
	if err != nil {
		return setupChange{}, err
	}
	ch := setupChange{rel: c.hooks, old: old, perm: 0o644}
	doc := old
	if doc == nil {
		doc = []byte("{}\n")
	}
	path := []string{"hooks", "SessionStart"}
	chain, err := jsonWalk(doc, path, '[')
	if err != nil {
		return ch, refuse(c.hooks, err)
	}
	want := c.hookEntry(rel)
	if len(chain) == 3 {
		for i, m := range chain[2].members {
			if sameJSON(m.value, []byte(want)) {
				ch.new = old
				return ch, nil
			}
			if c.runsScript(m) {
				ch.new = replaceValue(doc, chain[2], i, want)
				return ch, nil
			}
		}
	}
	ch.new, err = jsonAdd(doc, path, "", want)
	return ch, refuse(c.hooks, err)
}

// runsScript reports whether a SessionStart entry runs engram's script.
func (c setupClient) runsScript(m jsonMember) bool {
	return bytes.Contains(m.value, []byte("/"+c.script))
}

// unplan is what --remove writes: each file back to its bytes before
// setup, or deleted when setup made it and it holds nothing else.
func (c setupClient) unplan(top, rel string, force bool) ([]setupChange, error) {
	var out []setupChange
	ch, err := c.unplanMCP(top, rel, force)
	if err != nil {
		return nil, err
	}
	out = append(out, ch)
	if c.hooks == "" {
		return out, nil
	}
	old, err := readOptional(top, c.hooks)
	if err != nil {
		return nil, err
	}
	ch = setupChange{rel: c.hooks, old: old, new: old, perm: 0o644}
	if old != nil {
		cut, found, err := jsonCut(old, []string{"hooks", "SessionStart"}, '[', c.runsScript)
		if err != nil {
			return nil, refuse(c.hooks, err)
		}
		if found {
			ch.new = emptied(cut)
		}
	}
	out = append(out, ch)
	old, err = readOptional(top, c.script)
	if err != nil {
		return nil, err
	}
	ch = setupChange{rel: c.script, old: old, new: old, perm: 0o755}
	if old != nil && (hasSetupMarker(old) || force) {
		ch.new = nil
	}
	return append(out, ch), nil
}

func (c setupClient) unplanMCP(top, rel string, force bool) (setupChange, error) {
	old, err := readOptional(top, c.mcp)
	if err != nil || old == nil {
		return setupChange{rel: c.mcp}, err
	}
	ch := setupChange{rel: c.mcp, old: old, new: old, perm: 0o644}
	if c.servers == "" {
		cut, found, err := tomlRemove(old, tomlEntry(rel), force)
		if err != nil {
			return ch, refuse(c.mcp, err)
		}
		if found {
			ch.new = cut
			if len(bytes.TrimSpace(cut)) == 0 {
				ch.new = nil
			}
		}
		return ch, nil
	}
	want := c.entry(rel)
	var differs bool
	cut, found, err := jsonCut(old, []string{c.servers}, '{', func(m jsonMember) bool {
		if m.key != "engram" {
			return false
		}
		differs = !sameJSON(m.value, []byte(want))
		return !differs || force
	})
	if err != nil {
		return ch, refuse(c.mcp, err)
	}
	if differs && !force {
		return ch, fmt.Errorf("%s has an engram server that is not the one engram setup writes; it is left as it is (engram setup --remove --force removes it)", c.mcp)
	}
	if found {
		ch.new = emptied(cut)
	}
	return ch, nil
}

// emptied is nil (delete the file) for an object left with nothing in
// it, else doc.
func emptied(doc []byte) []byte {
	if emptyJSON(doc) {
		return nil
	}
	return doc
}

// refuse says which file a configuration error is about; the file is
// left as it is.
func refuse(rel string, err error) error {
	var no notOursError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &no):
		return fmt.Errorf("%s: %w; it is left as it is (engram setup --force replaces it)", rel, err)
	}
	return fmt.Errorf("%s: %w; engram setup changed nothing: fix the file, or add engram's entry yourself (docs/mcp.md)", rel, err)
}

func readOptional(top, rel string) ([]byte, error) {
	data, err := os.ReadFile(filepath.Join(top, filepath.FromSlash(rel)))
	// A folder on the way that is a file (ENOTDIR): no such file here,
	// and writing it fails, which applyChanges reports.
	if errors.Is(err, os.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return nil, nil
	}
	return data, err
}

func hasSetupMarker(data []byte) bool {
	return bytes.Contains(data, []byte("\n"+setupMarker+"\n"))
}

// applyChanges writes each change atomically; on a failure it puts back
// the files it changed and removes the folders it made, so nothing is
// left half-written. Folders a removal leaves empty are removed when
// they are the client's own (.claude, .codex/hooks, ...).
func applyChanges(top string, changes []setupChange) error {
	var done []setupChange
	undo := func() {
		for _, ch := range slices.Backward(done) {
			restoreChange(top, ch)
		}
	}
	for _, ch := range changes {
		if bytes.Equal(ch.old, ch.new) && (ch.old == nil) == (ch.new == nil) {
			continue
		}
		file := filepath.Join(top, filepath.FromSlash(ch.rel))
		var err error
		if ch.new == nil {
			err = os.Remove(file)
		} else {
			ch.dirsMade, err = mkdirs(top, filepath.Dir(file))
			if err == nil {
				err = store.WriteFileAtomic(file, ch.new, ch.perm)
			}
		}
		if err != nil {
			done = append(done, ch)
			undo()
			return fmt.Errorf("%w; nothing was changed", err)
		}
		done = append(done, ch)
	}
	for _, ch := range changes {
		if ch.new == nil && ch.old != nil {
			removeEmptyDirs(top, filepath.Dir(filepath.FromSlash(ch.rel)))
		}
	}
	return nil
}

// restoreChange puts a file back as it was before ch.
func restoreChange(top string, ch setupChange) {
	file := filepath.Join(top, filepath.FromSlash(ch.rel))
	if ch.old == nil {
		os.Remove(file)
	} else {
		store.WriteFileAtomic(file, ch.old, ch.perm)
	}
	for _, d := range slices.Backward(ch.dirsMade) {
		os.Remove(d)
	}
}

// mkdirs makes dir and the folders above it up to top, returning those
// it made.
func mkdirs(top, dir string) ([]string, error) {
	var made []string
	for d := dir; d != top && inside(d, top); d = filepath.Dir(d) {
		if _, err := os.Stat(d); err == nil {
			break
		}
		made = append([]string{d}, made...)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return made, nil
}

// removeEmptyDirs removes the client's folder rel and its parents up to
// the project while they are empty (os.Remove never removes a folder
// with anything in it).
func removeEmptyDirs(top, rel string) {
	for d := rel; d != "." && d != string(filepath.Separator); d = filepath.Dir(d) {
		if os.Remove(filepath.Join(top, d)) != nil {
			return
		}
	}
}

func printPlan(w io.Writer, changes []setupChange) {
	for _, ch := range changes {
		switch {
		case bytes.Equal(ch.old, ch.new) && (ch.old == nil) == (ch.new == nil):
			fmt.Fprintf(w, "%s: unchanged\n", ch.rel)
		case ch.new == nil:
			fmt.Fprintf(w, "would remove %s\n", ch.rel)
		default:
			fmt.Fprintf(w, "would write %s:\n%s", ch.rel, ch.new)
			if !bytes.HasSuffix(ch.new, []byte("\n")) {
				fmt.Fprintln(w)
			}
		}
	}
}

func reportChanges(w io.Writer, top string, changes []setupChange) {
	for _, ch := range changes {
		file := filepath.Join(top, filepath.FromSlash(ch.rel))
		switch {
		case ch.old == nil && ch.new == nil:
		case bytes.Equal(ch.old, ch.new):
			fmt.Fprintf(w, "%s is up to date\n", file)
		case ch.new == nil:
			fmt.Fprintf(w, "removed %s\n", file)
		default:
			fmt.Fprintf(w, "wrote %s\n", file)
		}
	}
}
