package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// engramOnPath is this test binary under the name engram, on the PATH
// that testscript.Main set (TestMain): run, it is engram's main, a real
// process, without a go build of its own.
func engramOnPath(t testing.TB) string {
	t.Helper()
	bin, err := exec.LookPath("engram")
	if err != nil {
		t.Fatalf("engram is not on PATH (testscript.Main puts this test binary there): %v", err)
	}
	return bin
}

// rpcPeer talks JSON-RPC to an engram mcp process, a line at a time.
type rpcPeer struct {
	t      *testing.T
	stdin  io.WriteCloser
	stdout *bufio.Reader
	cmd    *exec.Cmd
	stderr syncBuffer
}

func startMCP(t *testing.T, repo string) *rpcPeer {
	ctx := t.Context()
	if d, ok := t.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, d)
		t.Cleanup(cancel)
	}
	p := &rpcPeer{t: t, cmd: exec.CommandContext(ctx, engramOnPath(t), "mcp", "--repo", repo)}
	p.cmd.Env = append(os.Environ(), cacheEnv+"="+t.TempDir())
	p.cmd.Stderr = &p.stderr
	var err error
	if p.stdin, err = p.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p.stdout = bufio.NewReader(out)
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.stdin.Close(); p.cmd.Wait() })
	return p
}

func (p *rpcPeer) send(line string) {
	p.t.Helper()
	if _, err := io.WriteString(p.stdin, line+"\n"); err != nil {
		p.t.Fatalf("write to engram mcp: %v (it exited? stderr: %s)", err, p.stderr.String())
	}
}

// rpcAnswer is a response as a client reads it.
type rpcAnswer struct {
	Version string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result"`
	Error   *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func (p *rpcPeer) receive() rpcAnswer {
	p.t.Helper()
	line, err := p.stdout.ReadBytes('\n')
	if err != nil {
		p.t.Fatalf("read from engram mcp: %v (it exited? stderr: %s)", err, p.stderr.String())
	}
	var a rpcAnswer
	if err := json.Unmarshal(line, &a); err != nil || a.Version != "2.0" {
		p.t.Fatalf("engram mcp answered %q: %v", line, err)
	}
	return a
}

// TestMCPMalformedLines: engram mcp, a process, answers each malformed
// line with JSON-RPC 2.0's error (-32700 for a line that is not JSON,
// -32600 for JSON that is not a message, with the request's id when it
// has a usable one) and then answers the next valid request; a broken
// response is never answered. Before, the server exited on the first.
func TestMCPMalformedLines(t *testing.T) {
	p := startMCP(t, demoRepo)
	p.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if a := p.receive(); a.Error != nil || string(a.ID) != "0" {
		t.Fatalf("initialize: %+v", a)
	}
	p.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	deep := `{"jsonrpc":"2.0","id":3,"method":"ping","params":{"x":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}}`
	for i, c := range []struct {
		name, line string
		code       int    // 0: no answer
		id         string // the id answered
		says       string
	}{
		{"garbage", "garbage", -32700, "null", "not JSON"},
		{"truncated", `{"jsonrpc":"2.0","id":3,"method":`, -32700, "null", "not JSON"},
		{"trailing data", `{"jsonrpc":"2.0","id":3,"method":"ping"} x`, -32700, "null", "not JSON"},
		{"deep nesting", deep, -32700, "null", "not JSON"},
		{"over the line cap", `"` + strings.Repeat("x", 17<<20) + `"`, -32700, "null", "over 16 MiB"},
		{"empty object", `{}`, -32600, "null", "jsonrpc is missing"},
		{"empty array", `[]`, -32600, "null", "batch"},
		{"batch", `[{"jsonrpc":"2.0","id":3,"method":"ping"}]`, -32600, "null", "batch"},
		{"a number", `42`, -32600, "null", "not a JSON-RPC message"},
		{"jsonrpc 1.0", `{"jsonrpc":"1.0","id":3,"method":"ping"}`, -32600, "3", `jsonrpc is "1.0"`},
		{"jsonrpc a number", `{"jsonrpc":2.0,"id":"a","method":"ping"}`, -32600, `"a"`, "jsonrpc is 2.0"},
		{"object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, -32600, "null", "id is {"},
		{"fraction id", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, -32600, "null", "id is 1.5"},
		{"method a number", `{"jsonrpc":"2.0","id":3,"method":5}`, -32600, "3", "method is 5"},
		{"params a string", `{"jsonrpc":"2.0","id":3,"method":"tools/list","params":"x"}`, -32600, "3", "params is"},
		{"neither request nor response", `{"jsonrpc":"2.0"}`, -32600, "null", "neither a request"},
		{"unknown method", `{"jsonrpc":"2.0","id":3,"method":"no/such"}`, -32601, "3", ""},
		{"broken response", `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}`, 0, "", ""},
		{"response to nothing", `{"jsonrpc":"2.0","id":99,"result":{}}`, 0, "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			p.t = t
			p.send(c.line)
			ping := fmt.Sprintf(`"ping-%d"`, i)
			p.send(`{"jsonrpc":"2.0","id":` + ping + `,"method":"ping"}`)
			if c.code != 0 {
				a := p.receive()
				if a.Error == nil || a.Error.Code != c.code || string(a.ID) != c.id || !strings.Contains(a.Error.Message, c.says) {
					t.Errorf("answered id %s %+v, want the error %d with id %s saying %q", a.ID, a.Error, c.code, c.id, c.says)
				}
			}
			if a := p.receive(); string(a.ID) != ping || a.Error != nil {
				t.Errorf("the ping after it: %s %+v %s", a.ID, a.Error, a.Result)
			}
		})
	}
	p.t = t
	// The tools still answer, and the broken response was noted.
	p.send(`{"jsonrpc":"2.0","id":"last","method":"tools/call","params":{"name":"query_episodes","arguments":{"limit":1}}}`)
	if a := p.receive(); string(a.ID) != `"last"` || a.Error != nil || !strings.Contains(string(a.Result), `"items"`) {
		t.Errorf("tools/call after the bad lines: %s %+v %.200s", a.ID, a.Error, a.Result)
	}
	p.stdin.Close()
	if err := p.cmd.Wait(); err != nil {
		t.Errorf("engram mcp at the end of its input: %v\n%s", err, p.stderr.String())
	}
	if !strings.Contains(p.stderr.String(), "dropped a response") {
		t.Errorf("stderr does not note the broken response:\n%s", p.stderr.String())
	}
}
