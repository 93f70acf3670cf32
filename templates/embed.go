// Package templates holds the Hugo layouts and static files of the site,
// embedded in the engram binary so users install nothing but engram.
package templates

import "embed"

// FS holds layouts/ (Hugo templates) and static/ (copied as is).
//
//go:embed all:layouts static
var FS embed.FS
