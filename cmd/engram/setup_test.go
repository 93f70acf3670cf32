package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/engramhq/engram/indexer/source"
)

// setupProject is a git repository whose memory is in memory/, with
// HOME set to an empty folder of its own (read-only where the test can
// make it so): engram setup writes in the project only.
func newSetupProject(t *testing.T) (top, home string) {
	t.Helper()
	top, home = t.TempDir(), t.TempDir()
	files := map[string][]byte{"memory/engram.toml": []byte("title = \"t\"\n"), "README.md": []byte("# p\n")}
	if err := source.WriteRepo(top, []source.Commit{{Files: files, When: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)}}); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	t.Setenv("CODEX_HOME", filepath.Join(home, ".codex"))
	if err := os.Chmod(home, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(home, 0o755) })
	return top, home
}

// projectFiles is every file under dir but .git, by slash path.
func projectFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.Name() == ".git" && d.IsDir() {
			if err == nil {
				return filepath.SkipDir
			}
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() {
			files[filepath.ToSlash(rel)+"/"] = ""
			return nil
		}
		data, err := os.ReadFile(p)
		files[filepath.ToSlash(rel)] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func sameFiles(t *testing.T, what string, got, want map[string]string) {
	t.Helper()
	for p, w := range want {
		if g, ok := got[p]; !ok || g != w {
			t.Errorf("%s: %s is\n%q\nwant\n%q", what, p, g, w)
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			t.Errorf("%s: %s is there and was not", what, p)
		}
	}
}

// wantEngram checks that a configuration file parses and runs engram mcp
// on the memory repository.
func wantEngram(t *testing.T, client, data string) {
	t.Helper()
	var entry struct {
		Type    string   `json:"type" toml:"type"`
		Command string   `json:"command" toml:"command"`
		Args    []string `json:"args" toml:"args"`
	}
	switch client {
	case "codex":
		var v struct {
			Servers map[string]toml.Primitive `toml:"mcp_servers"`
		}
		md, err := toml.Decode(data, &v)
		if err != nil {
			t.Fatalf("config.toml does not parse: %v\n%s", err, data)
		}
		if err := md.PrimitiveDecode(v.Servers["engram"], &entry); err != nil {
			t.Fatal(err)
		}
	default:
		var v map[string]json.RawMessage
		var servers map[string]json.RawMessage
		key := "mcpServers"
		if client == "vscode" {
			key = "servers"
		}
		if err := json.Unmarshal([]byte(data), &v); err != nil || json.Unmarshal(v[key], &servers) != nil {
			t.Fatalf("the configuration does not parse: %v\n%s", err, data)
		}
		if err := json.Unmarshal(servers["engram"], &entry); err != nil {
			t.Fatalf("no engram server under %s: %v\n%s", key, err, data)
		}
	}
	repo := map[string]string{"cursor": "${workspaceFolder}/memory", "vscode": "${workspaceFolder}/memory"}[client]
	if repo == "" {
		repo = "memory"
	}
	if entry.Command != "engram" || strings.Join(entry.Args, " ") != "mcp --repo "+repo || (client == "vscode") != (entry.Type == "stdio") {
		t.Errorf("the engram server is %+v", entry)
	}
}

// existing is a configuration of the user's for each client, with other
// servers, settings and (TOML) comments, in a layout of its own.
var existing = map[string]map[string]string{
	"claude-code": {
		".mcp.json":             "{\n    \"mcpServers\": {\n        \"github\": {\n            \"command\": \"gh-mcp\"\n        }\n    },\n    \"x\": 1\n}\n",
		".claude/settings.json": `{"permissions": {"allow": ["Bash(ls)"]}, "hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "echo hi"}]}]}}`,
	},
	"codex": {
		".codex/config.toml": "# mine\nmodel = \"o3\"\n\n[mcp_servers.docs]\ncommand = \"docs-mcp\" # the docs\nargs = []\n",
		".codex/hooks.json":  "{\n\t\"hooks\": {}\n}\n",
	},
	"cursor": {".cursor/mcp.json": `{"mcpServers":{"a":{"command":"a"},"b":{"url":"https://example.org/mcp"}}}`},
	"vscode": {".vscode/mcp.json": "{\n  \"inputs\": [],\n  \"servers\": {}\n}\n"},
}

// TestSetup runs engram setup for each client in a temporary home and
// project: the files it writes parse and run engram mcp on the memory
// repository; a second run changes nothing; --dry-run writes nothing;
// --remove leaves the project as it was; an existing configuration
// keeps its bytes apart from engram's entry, and --remove gives them
// back.
func TestSetup(t *testing.T) {
	for _, c := range setupClients {
		t.Run(c.name+" new", func(t *testing.T) {
			top, home := newSetupProject(t)
			before := projectFiles(t, top)
			code, out, errs := engram(t, "setup", c.name, "--repo", filepath.Join(top, "memory"), "--dry-run")
			if code != exitOK || !strings.Contains(out, "would write "+c.mcp) {
				t.Fatalf("--dry-run: exit %d\n%s%s", code, out, errs)
			}
			sameFiles(t, "after --dry-run", projectFiles(t, top), before)
			setupTwice(t, c, top)
			after := projectFiles(t, top)
			wantEngram(t, c.name, after[c.mcp])
			if c.hooks != "" {
				if !json.Valid([]byte(after[c.hooks])) || !strings.Contains(after[c.hooks], hookScriptName) || after[c.script] != string(sessionScript()) {
					t.Errorf("the hook is not installed:\n%s", after[c.hooks])
				}
			}
			if code, out, errs := engram(t, "setup", c.name, "--repo", filepath.Join(top, "memory"), "--remove"); code != exitOK {
				t.Fatalf("--remove: exit %d\n%s%s", code, out, errs)
			}
			sameFiles(t, "after --remove", projectFiles(t, top), before)
			if entries, _ := os.ReadDir(home); len(entries) > 0 {
				t.Errorf("setup wrote in the home folder: %v", entries)
			}
		})
		t.Run(c.name+" existing", func(t *testing.T) {
			top, _ := newSetupProject(t)
			for rel, data := range existing[c.name] {
				writeFile(t, filepath.Join(top, rel), data)
			}
			before := projectFiles(t, top)
			setupTwice(t, c, top)
			after := projectFiles(t, top)
			wantEngram(t, c.name, after[c.mcp])
			for rel, orig := range existing[c.name] {
				if !onlyInserted(orig, after[rel]) {
					t.Errorf("%s is not its old bytes with one insertion:\n%s\nwas\n%s", rel, after[rel], orig)
				}
			}
			if c.name == "claude-code" && !strings.Contains(after[c.hooks], `"echo hi"`) {
				t.Errorf("the user's SessionStart hook is gone:\n%s", after[c.hooks])
			}
			if code, out, errs := engram(t, "setup", c.name, "--repo", filepath.Join(top, "memory"), "--remove"); code != exitOK {
				t.Fatalf("--remove: exit %d\n%s%s", code, out, errs)
			}
			sameFiles(t, "after --remove", projectFiles(t, top), before)
		})
	}
}

// setupTwice runs engram setup, then again, which must change nothing.
func setupTwice(t *testing.T, c setupClient, top string) {
	t.Helper()
	code, out, errs := engram(t, "setup", c.name, "--repo", filepath.Join(top, "memory"))
	if code != exitOK || !strings.Contains(out, "wrote ") {
		t.Fatalf("setup: exit %d\n%s%s", code, out, errs)
	}
	first := projectFiles(t, top)
	code, out, errs = engram(t, "setup", c.name, "--repo", filepath.Join(top, "memory"))
	if code != exitOK || strings.Contains(out, "wrote ") {
		t.Fatalf("setup again: exit %d\n%s%s", code, out, errs)
	}
	sameFiles(t, "after a second setup", projectFiles(t, top), first)
}

// onlyInserted reports whether got is old with one run of bytes added.
func onlyInserted(old, got string) bool {
	n := 0
	for n < len(old) && n < len(got) && old[n] == got[n] {
		n++
	}
	return len(got) > len(old) && strings.HasSuffix(got, old[n:])
}

// TestSetupBadInput: each bad input is refused with a message that says
// what to do, and the project is left as it was.
func TestSetupBadInput(t *testing.T) {
	for _, c := range []struct {
		name, client string
		files        map[string]string
		args         []string
		code         int
		says         string
	}{
		{"unknown client", "emacs", nil, nil, exitUsage, "claude-code, codex, cursor, vscode"},
		{"no client", "", nil, nil, exitUsage, "CLIENT"},
		{"JSON that is not", "claude-code", map[string]string{".mcp.json": `{"mcpServers": {`}, nil, exitFail, ".mcp.json: it is not valid JSON"},
		{"JSON with comments", "vscode", map[string]string{".vscode/mcp.json": "{\n  // mine\n  \"servers\": {}\n}\n"}, nil, exitFail, "not valid JSON"},
		{"JSON not an object", "cursor", map[string]string{".cursor/mcp.json": `[]`}, nil, exitFail, "not a JSON object"},
		{"servers not an object", "cursor", map[string]string{".cursor/mcp.json": `{"mcpServers": []}`}, nil, exitFail, "mcpServers is not a JSON object"},
		{"hooks JSON that is not", "claude-code", map[string]string{".claude/settings.json": `{"hooks": `}, nil, exitFail, ".claude/settings.json: it is not valid JSON"},
		{"SessionStart not an array", "codex", map[string]string{".codex/hooks.json": `{"hooks": {"SessionStart": {}}}`}, nil, exitFail, "hooks.SessionStart is not a JSON array"},
		{"TOML that is not", "codex", map[string]string{".codex/config.toml": "[mcp_servers\n"}, nil, exitFail, "not valid TOML"},
		{"an engram server of the user's", "cursor", map[string]string{".cursor/mcp.json": `{"mcpServers": {"engram": {"command": "my-engram"}}}`}, nil, exitFail, "not the one engram setup writes"},
		{"an engram table of the user's", "codex", map[string]string{".codex/config.toml": "[mcp_servers.engram]\ncommand = \"x\"\n"}, nil, exitFail, "not the one engram setup writes"},
		{"engram inline in TOML", "codex", map[string]string{".codex/config.toml": "mcp_servers = {engram = {command = \"x\"}}\n"}, nil, exitFail, "in a form engram setup does not edit"},
		{"a hook script of the user's", "claude-code", map[string]string{".claude/hooks/" + hookScriptName: "#!/bin/sh\necho mine\n"}, nil, exitFail, "engram did not write it"},
		{"remove an engram server of the user's", "cursor", map[string]string{".cursor/mcp.json": `{"mcpServers": {"engram": {"command": "my-engram"}}}`}, []string{"--remove"}, exitFail, "not the one engram setup writes"},
		// A folder the client's files go in is a file: the first file
		// was written, the next cannot be, and the first is taken back.
		{"a write that fails", "claude-code", map[string]string{".claude": "not a folder"}, nil, exitFail, "nothing was changed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			top, _ := newSetupProject(t)
			for rel, data := range c.files {
				writeFile(t, filepath.Join(top, rel), data)
			}
			before := projectFiles(t, top)
			args := []string{"setup"}
			if c.client != "" {
				args = append(args, c.client)
			}
			args = append(append(args, "--repo", filepath.Join(top, "memory")), c.args...)
			code, out, errs := engram(t, args...)
			if code != c.code || !strings.Contains(errs, c.says) {
				t.Errorf("exit %d, want %d saying %q\n%s%s", code, c.code, c.says, out, errs)
			}
			sameFiles(t, "after a refusal", projectFiles(t, top), before)
		})
	}
	t.Run("not a repository", func(t *testing.T) {
		plain := t.TempDir()
		for dir, says := range map[string]string{plain: "is in no git repository", filepath.Join(plain, "none"): "is not a directory"} {
			code, out, errs := engram(t, "setup", "codex", "--repo", dir)
			if code != exitFail || !strings.Contains(errs, says) {
				t.Errorf("%s: exit %d, want 1 saying %q\n%s%s", dir, code, says, out, errs)
			}
		}
		if entries, _ := os.ReadDir(plain); len(entries) > 0 {
			t.Errorf("setup wrote in a folder that is no repository: %v", entries)
		}
	})
	t.Run("read-only project", func(t *testing.T) {
		if os.Geteuid() == 0 {
			t.Skip("running as root, which writes in a read-only folder; the failing write above covers taking back what was written")
		}
		top, _ := newSetupProject(t)
		before := projectFiles(t, top)
		if err := os.Chmod(top, 0o555); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(top, 0o755) })
		code, out, errs := engram(t, "setup", "claude-code", "--repo", filepath.Join(top, "memory"))
		if code != exitFail || !strings.Contains(errs, "permission denied") {
			t.Errorf("exit %d, want 1 saying permission denied\n%s%s", code, out, errs)
		}
		sameFiles(t, "after a read-only project", projectFiles(t, top), before)
	})
}

// TestSetupHookScriptIsDocs: the script engram setup installs is
// docs/hooks/session-start.sh, the one hook_test.go runs.
func TestSetupHookScriptIsDocs(t *testing.T) {
	docs, err := os.ReadFile("../../docs/hooks/session-start.sh")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Replace(string(sessionScript()), setupMarker+"\n", "", 1); got != string(docs) {
		t.Error("scaffold/session-start.sh.tmpl is not docs/hooks/session-start.sh: copy it again")
	}
}

// TestSetupRuns runs what engram setup writes for Claude Code on the
// demo memory: the command line in .mcp.json, as the client starts it
// in the project, answers tools/list; the SessionStart command prints
// the bootstrap.
func TestSetupRuns(t *testing.T) {
	top := demoCopy(t)
	bin := buildEngram(t)
	if code, out, errs := engram(t, "setup", "claude-code", "--repo", top); code != exitOK {
		t.Fatalf("setup: exit %d\n%s%s", code, out, errs)
	}
	env := append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), cacheEnv+"="+t.TempDir())

	var cfg struct {
		Servers map[string]struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
		} `json:"mcpServers"`
	}
	data, err := os.ReadFile(filepath.Join(top, ".mcp.json"))
	if err != nil || json.Unmarshal(data, &cfg) != nil {
		t.Fatalf(".mcp.json: %v\n%s", err, data)
	}
	e := cfg.Servers["engram"]
	cmd := exec.CommandContext(t.Context(), e.Command, e.Args...)
	cmd.Dir, cmd.Env = top, env
	cmd.Path, err = lookPathIn(bin, e.Command)
	if err != nil {
		t.Fatal(err)
	}
	p := &rpcPeer{t: t, cmd: cmd}
	cmd.Stderr = &p.stderr
	if p.stdin, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p.stdout = bufio.NewReader(stdout)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.stdin.Close(); cmd.Wait() })
	p.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if a := p.receive(); a.Error != nil {
		t.Fatalf("initialize: %+v", a.Error)
	}
	p.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	p.send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	a := p.receive()
	var list struct {
		Tools []struct{ Name string } `json:"tools"`
	}
	if a.Error != nil || json.Unmarshal(a.Result, &list) != nil || len(list.Tools) == 0 {
		t.Fatalf("tools/list: %+v %s\nstderr: %s", a.Error, a.Result, p.stderr.String())
	}
	names := make([]string, len(list.Tools))
	for i, tool := range list.Tools {
		names[i] = tool.Name
	}
	if !strings.Contains(strings.Join(names, " "), "bootstrap") {
		t.Errorf("tools/list has no bootstrap: %v", names)
	}

	t.Run("the session-start hook", func(t *testing.T) {
		var settings struct {
			Hooks struct {
				SessionStart []struct {
					Hooks []struct{ Command string } `json:"hooks"`
				} `json:"SessionStart"`
			} `json:"hooks"`
		}
		data, err := os.ReadFile(filepath.Join(top, ".claude", "settings.json"))
		if err != nil || json.Unmarshal(data, &settings) != nil || len(settings.Hooks.SessionStart) != 1 {
			t.Fatalf(".claude/settings.json: %v\n%s", err, data)
		}
		hook := exec.Command("sh", "-c", settings.Hooks.SessionStart[0].Hooks[0].Command)
		hook.Dir, hook.Env = filepath.Join(top, "episodes"), append(env, "CLAUDE_PROJECT_DIR="+top)
		var out, errs bytes.Buffer
		hook.Stdout, hook.Stderr = &out, &errs
		if err := hook.Run(); err != nil || !strings.HasPrefix(out.String(), "# ") {
			t.Errorf("the hook printed %q, stderr %s (%v)", out.String(), errs.String(), err)
		}
	})
}

// lookPathIn finds name in dir first, as a PATH that starts with dir
// would.
func lookPathIn(dir, name string) (string, error) {
	if p := filepath.Join(dir, name); fileExists(p) {
		return p, nil
	}
	return exec.LookPath(name)
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
