package main

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/engramhq/engram/indexer/query"
)

// The resources (SPEC §5.2): the bootstrap as markdown, and an episode
// or a pattern as the same compact JSON the tools answer with. An id in
// a URI is percent-encoded (titles have spaces).
const (
	bootstrapURI    = "engram://bootstrap"
	episodeTemplate = "engram://episode/{id}"
	patternTemplate = "engram://pattern/{id}"
)

func (e *mcpEngine) addResources(s *mcp.Server) {
	s.AddResource(&mcp.Resource{URI: bootstrapURI, Name: "bootstrap", Title: "Session-start context", MIMEType: "text/markdown",
		Description: "The bootstrap of the memory (engram bootstrap), at the repository's budget."},
		func(ctx context.Context, r *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			_, md, err := e.bootstrap(ctx, bootstrapArgs{})
			if err != nil {
				return nil, err
			}
			return contents(r.Params.URI, "text/markdown", string(md)), nil
		})
	s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: episodeTemplate, Name: "episode", Title: "An episode", MIMEType: "application/json",
		Description: "One episode, compact: as get_episode answers."},
		func(ctx context.Context, r *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			id, err := resourceID(r.Params.URI, "engram://episode/")
			if err != nil {
				return nil, err
			}
			c, err := e.episode(ctx, id)
			return jsonContents(r.Params.URI, c, err)
		})
	s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: patternTemplate, Name: "pattern", Title: "A pattern", MIMEType: "application/json",
		Description: "One pattern or antipattern in under 100 tokens, with the URL of its whole JSON."},
		func(ctx context.Context, r *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			id, err := resourceID(r.Params.URI, "engram://pattern/")
			if err != nil {
				return nil, err
			}
			c, err := e.pattern(ctx, id)
			return jsonContents(r.Params.URI, c, err)
		})
}

func resourceID(uri, prefix string) (string, error) {
	rest, ok := strings.CutPrefix(uri, prefix)
	if !ok {
		return "", mcp.ResourceNotFoundError(uri)
	}
	id, err := url.PathUnescape(rest)
	if err != nil {
		return "", &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "the id in " + uri + " is not percent-encoded correctly: " + err.Error()}
	}
	return id, nil
}

func contents(uri, mime, text string) *mcp.ReadResourceResult {
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: mime, Text: text}}}
}

// jsonContents is v as a JSON resource; an unknown note is "resource
// not found" with the message that names what there is instead.
func jsonContents(uri string, v any, err error) (*mcp.ReadResourceResult, error) {
	var nf *query.NotFoundError
	if errors.As(err, &nf) {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: err.Error(), Data: json.RawMessage(`{"uri":` + quoteJSON(uri) + `}`)}
	}
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return contents(uri, "application/json", string(b)), nil
}

func quoteJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
