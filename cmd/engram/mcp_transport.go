package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// lineTransport is the MCP server's stdio: newline-delimited JSON-RPC
// 2.0, as the SDK's IOTransport, except that a line which is not a
// valid message is answered with a JSON-RPC error and skipped (SPEC §6).
// The SDK's connection returns an error from Read for such a line, and
// its server then ends the session: one line of garbage, `{}`, a batch
// or an object id from a client stopped the server for good.
//
// JSON-RPC 2.0's answers: a line that is not JSON is a parse error
// (-32700, id null); JSON that is not a request, notification or
// response is an invalid request (-32600, with the request's id when it
// has a usable one, else null). A batch is an invalid request: MCP
// removed batching in 2025-06-18, and the SDK refuses one from then on.
type lineTransport struct {
	r io.Reader
	w io.Writer
	// maxLine caps a line's bytes (the SDK's DefaultMaxLineLength); a
	// longer line is a parse error, and its bytes are skipped unread.
	maxLine int
	// log hears of the responses that are dropped: a response is never
	// answered, or two peers could answer each other's errors forever.
	log io.Writer
}

func (t *lineTransport) Connect(context.Context) (mcp.Connection, error) {
	c := &lineConn{w: t.w, log: t.log, maxLine: t.maxLine, lines: make(chan lineOrErr), closed: make(chan struct{})}
	go c.readLines(t.r, t.maxLine)
	return c, nil
}

// lineConn is one connection of a lineTransport. A goroutine reads the
// lines, so that Close unblocks a Read waiting for one (as the SDK's
// connection does; a read of stdin itself cannot be interrupted).
type lineConn struct {
	lines  chan lineOrErr
	closed chan struct{}
	once   sync.Once

	wmu     sync.Mutex // one message a line, whole
	w       io.Writer
	log     io.Writer
	maxLine int
}

type lineOrErr struct {
	line []byte
	err  error // io.EOF at the end; errLineTooLong for a line skipped
}

var errLineTooLong = errors.New("line too long")

func (c *lineConn) readLines(r io.Reader, limit int) {
	br := bufio.NewReader(r)
	send := func(in lineOrErr) bool {
		select {
		case c.lines <- in:
			return true
		case <-c.closed:
			return false
		}
	}
	for {
		line, err := readLine(br, limit)
		switch {
		case errors.Is(err, errLineTooLong):
			if !send(lineOrErr{err: err}) {
				return
			}
			continue
		case len(line) > 0 && !send(lineOrErr{line: line}):
			return
		case err != nil:
			send(lineOrErr{err: err})
			return
		}
	}
}

// readLine reads one line without its end, at most limit bytes of it; a
// longer line is read to its end and dropped (errLineTooLong). A last
// line without a newline is a line; then io.EOF.
func readLine(br *bufio.Reader, limit int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(line)+len(chunk) > limit+1 { // +1: the newline
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = br.ReadSlice('\n')
			}
			if err != nil && !errors.Is(err, io.EOF) {
				return nil, err
			}
			return nil, errLineTooLong
		}
		line = append(line, chunk...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimSpace(line), err
	}
}

// Read returns the next valid message; it answers and skips the others.
func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		var in lineOrErr
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-c.closed:
			return nil, io.EOF
		case in = <-c.lines:
		}
		switch {
		case errors.Is(in.err, errLineTooLong):
			msg := fmt.Sprintf("parse error: the line is over %d MiB; send one JSON-RPC 2.0 message a line", c.maxLine>>20)
			if err := c.refuse(rpcRefusal{code: jsonrpc.CodeParseError, msg: msg}); err != nil {
				return nil, err
			}
			continue
		case in.err != nil:
			return nil, in.err
		}
		msg, bad := decodeLine(in.line)
		if bad == nil {
			return msg, nil
		}
		if err := c.refuse(*bad); err != nil {
			return nil, err
		}
	}
}

func (c *lineConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	return c.writeLine(data)
}

func (c *lineConn) writeLine(data []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	select {
	case <-c.closed:
		return mcp.ErrConnectionClosed
	default:
	}
	_, err := c.w.Write(append(data, '\n'))
	return err
}

func (c *lineConn) Close() error {
	c.once.Do(func() { close(c.closed) })
	return nil
}

func (c *lineConn) SessionID() string { return "" }

// rpcRefusal is the error answer to a line that is not a message.
type rpcRefusal struct {
	code int64
	msg  string
	id   json.RawMessage // the request's id, or nil for null
	// response: the line is a response (no method; a result or an
	// error), which is noted in the log and never answered.
	response bool
}

func (c *lineConn) refuse(r rpcRefusal) error {
	if r.response {
		_, err := fmt.Fprintf(c.log, "engram mcp: dropped a response that is not valid JSON-RPC 2.0: %s\n", r.msg)
		return err
	}
	id := r.id
	if id == nil {
		id = json.RawMessage("null")
	}
	data, err := json.Marshal(struct {
		Version string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   jsonrpc.Error   `json:"error"`
	}{"2.0", id, jsonrpc.Error{Code: r.code, Message: r.msg}})
	if err != nil {
		return err
	}
	return c.writeLine(data)
}

// wireMessage is a JSON-RPC message's members, undecoded, to check.
type wireMessage struct {
	Version json.RawMessage `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  json.RawMessage `json:"method"`
	Params  json.RawMessage `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
}

// decodeLine is the message a line holds, or the answer that refuses it.
func decodeLine(line []byte) (jsonrpc.Message, *rpcRefusal) {
	if !json.Valid(line) {
		var v any
		err := json.Unmarshal(line, &v)
		return nil, &rpcRefusal{code: jsonrpc.CodeParseError, msg: fmt.Sprintf("parse error: the line is not JSON (%v); send one JSON-RPC 2.0 message a line", err)}
	}
	invalid := func(id json.RawMessage, format string, args ...any) (jsonrpc.Message, *rpcRefusal) {
		return nil, &rpcRefusal{code: jsonrpc.CodeInvalidRequest, id: id, msg: "invalid request: " + fmt.Sprintf(format, args...)}
	}
	switch line[0] {
	case '[':
		return invalid(nil, "a batch (a JSON array); MCP has no batches since 2025-06-18: send each message on a line of its own")
	case '{':
	default:
		return invalid(nil, "%.20s is not a JSON-RPC message: send an object with \"jsonrpc\": \"2.0\"", line)
	}
	var w wireMessage
	if err := json.Unmarshal(line, &w); err != nil {
		return invalid(nil, "%v", err)
	}
	if bad := checkMessage(w); bad != nil {
		return nil, bad
	}
	id := usableID(w.ID)
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		return invalid(id, "%v", err)
	}
	return msg, nil
}

// checkMessage is the refusal of a JSON object that is no valid
// message, else nil.
func checkMessage(w wireMessage) *rpcRefusal {
	id := usableID(w.ID)
	bad := func(id json.RawMessage, format string, args ...any) *rpcRefusal {
		return &rpcRefusal{code: jsonrpc.CodeInvalidRequest, id: id, msg: "invalid request: " + fmt.Sprintf(format, args...),
			response: w.Method == nil && (w.Result != nil || w.Error != nil)}
	}
	switch {
	case string(w.Version) != `"2.0"`:
		return bad(id, "jsonrpc is %s: give \"jsonrpc\": \"2.0\"", orMissing(w.Version))
	case w.ID != nil && id == nil:
		return bad(nil, "id is %.40s: give a string or an integer", w.ID)
	case w.Method == nil && id == nil:
		return bad(nil, "neither a request (it has no method) nor a response (it has no id)")
	case w.Method != nil && w.Method[0] != '"':
		return bad(id, "method is %.40s: give the method's name as a string", w.Method)
	case w.Params != nil && w.Params[0] != '{' && w.Params[0] != '[' && string(w.Params) != "null":
		return bad(id, "params is %.40s: give an object", w.Params)
	case w.Method == nil && (w.Result == nil) == (w.Error == nil):
		return bad(id, "a response has a result or an error, one of them")
	}
	return nil
}

// usableID is a message's id when it is one JSON-RPC allows and the SDK
// keeps as it is, a string or an integer; else nil (no id, null, an
// object, a fraction).
func usableID(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return nil
	}
	switch raw[0] {
	case '"':
		return raw
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		if _, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
			return raw
		}
	}
	return nil
}

func orMissing(raw json.RawMessage) string {
	if raw == nil {
		return "missing"
	}
	return fmt.Sprintf("%.20s", raw)
}
