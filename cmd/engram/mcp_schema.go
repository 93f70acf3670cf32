package main

import (
	"fmt"
	"reflect"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Tool schemas that every client can read. The go-sdk infers a schema
// from the Go type, and gives a slice or a pointer the type
// ["null", "array"] or ["null", "number"]: legal JSON Schema, but a
// client that maps schemas onto a one-type dialect (the Inspector CLI,
// Gemini's function declarations) then sends an array or a number as a
// string, and the call is refused. So each tool's schemas are inferred
// here and made portable before the tool is added:
//
//   - an input property has one type, and is optional by being absent
//     from "required" (an omitempty field); a client that sends null for
//     it is told the type it should send;
//   - an output property has one type too: the answers never hold a null
//     (a value that may be unknown is omitempty, absent when unknown), and
//     the go-sdk checks each answer against its schema before sending it;
//   - an output object does not say additionalProperties: false: it costs
//     tokens in every session's tool list, and a client needs only what
//     the properties say.

// addTool adds the tool to the server when the server's tool set holds
// it, with portable input and output schemas inferred from In and Out
// unless t carries its own.
func addTool[In, Out any](e *mcpEngine, s *mcp.Server, t *mcp.Tool, h mcp.ToolHandlerFor[In, Out]) {
	if !e.tools.has(t) {
		return
	}
	if t.InputSchema == nil {
		t.InputSchema = mustPortableSchema[In](false)
	}
	if t.OutputSchema == nil {
		t.OutputSchema = mustPortableSchema[Out](true)
	}
	mcp.AddTool(s, t, h)
}

// mustPortableSchema is portableSchema for a tool's own types, which
// infer by construction: an error is a programming mistake caught by
// every test that starts a server.
func mustPortableSchema[T any](output bool) *jsonschema.Schema {
	s, err := portableSchema[T](output)
	if err != nil {
		panic(err)
	}
	return s
}

// portableSchema is T's schema with one type per property (see above).
func portableSchema[T any](output bool) (*jsonschema.Schema, error) {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		return nil, fmt.Errorf("mcp schema: %w", err)
	}
	makePortable(s, output)
	return s, nil
}

// makePortable rewrites s and the schemas under it in place.
func makePortable(s *jsonschema.Schema, output bool) {
	if s == nil {
		return
	}
	if len(s.Types) == 2 && s.Types[0] == "null" {
		s.Type, s.Types = s.Types[1], nil
	}
	if output && s.Type == "object" && s.AdditionalProperties != nil && isFalseSchema(s.AdditionalProperties) {
		s.AdditionalProperties = nil
	}
	for _, p := range s.Properties {
		makePortable(p, output)
	}
	makePortable(s.Items, output)
	makePortable(s.AdditionalProperties, output)
}

// isFalseSchema is the schema that matches nothing, as For writes
// additionalProperties: false.
func isFalseSchema(s *jsonschema.Schema) bool {
	return reflect.DeepEqual(s, &jsonschema.Schema{Not: &jsonschema.Schema{}})
}
