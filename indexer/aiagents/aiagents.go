// Package aiagents is engram's side of the rjmurillo/ai-agents memory
// format (SPEC §2.4). fields.go holds the one table of the episode
// file's keys; everything else reads through it:
//
//   - decode*.go: Decode reads one episode file as a note.Note (the parse
//     stage calls it), DecodeGraph a causal-graph.json.
//   - episodeof.go, sidecar.go, file.go: EpisodeOf turns an episode note
//     back into an episode file, using what an imported note keeps in
//     its ai_agents front matter.
//   - import*.go: Import turns a directory of episode files and causal
//     graphs into markdown notes, checking each through EpisodeOf.
//   - the exporter sub-package writes a whole repository, with engram's
//     causal graph; it comes after the graph stage, so it lives apart.
//
// Decoding: one file in, one note.Note and its diagnostics out.
//
// Real files break their own schema (null arrays, missing fields, unknown
// event types, camelCase metric keys, naive timestamps, events out of
// order), so decoding is tolerant: whatever can be read is kept, and every
// deviation is a diagnostic positioned at the offending key or value. Only
// a file that is not a JSON object at all is refused.
//
// Rules, by severity:
//
//   - error aiagents-syntax: not valid JSON, empty, or not an object; the
//     file is refused.
//   - warning aiagents-missing-id: no id; the title is the file name.
//   - warning aiagents-missing-field: a field the schema requires is
//     absent or null (episode: session, timestamp, outcome, task;
//     decision: id, timestamp, type, context, chosen, outcome; event: id,
//     timestamp, type, content), or an empty string where that is no valid
//     value: any episode field, ids, timestamps, types and outcomes. An
//     empty context, chosen or content is text, and real files have it. A
//     decision's summary, which some writers give instead, is its context.
//   - warning aiagents-type: a value of the wrong JSON type; ignored.
//   - warning aiagents-outcome: an outcome other than success, partial or
//     failure; kept, lower-cased like markdown episodes' outcomes.
//   - warning aiagents-time: a timestamp that is not a date; kept as
//     written, and the episode date is zero.
//   - warning aiagents-metric: a metric that is not a finite number, or a
//     camelCase key whose snake_case form the file also gives; dropped.
//   - warning aiagents-event-ref: caused_by or leads_to names no event of
//     the episode; dropped.
//   - warning aiagents-effect-ref: a decision effect names no decision or
//     event of the episode; dropped.
//   - warning aiagents-duplicate-id: two events or two decisions share an
//     id; both are kept.
//   - warning aiagents-duplicate-key: an object repeats a key; the last
//     one wins, as in encoding/json.
//   - warning aiagents-key-case: a key of the schema in another case
//     ("Outcome", "TASK"); read as the schema's key when the object does
//     not give that key too (then ignored), the last such key winning.
//   - warning aiagents-utf8: bytes that are not UTF-8; read as U+FFFD.
//   - info aiagents-null-array: an array field is null; read as empty,
//     reported once per field name.
//   - info aiagents-null-metric: metrics, or one metric, is null; no value.
//   - info aiagents-camelcase-metric: a metric key in camelCase; renamed
//     to snake_case (toolCalls becomes tool_calls).
//   - info aiagents-naive-time: a timestamp without zone; read as UTC.
//   - info aiagents-event-type, aiagents-decision-type: a type outside the
//     schema's enum; kept as written.
//   - info aiagents-event-order: an event earlier than the one before it;
//     events keep their file order.
//   - info aiagents-causal-order: leads_to names an earlier event of the
//     array, or caused_by a later one; not reported when the episode says
//     causal_order_version 2 or more, whose links follow measured times.
//     causal_order_version itself is kept in Note.Extra, so that the
//     export writes it back; one that is not a number is aiagents-type
//     and dropped.
//   - info aiagents-decision-ref: caused_by or leads_to names a decision;
//     engram links events to events only, so it is dropped.
//   - info aiagents-unknown-field: a key of a decision or event that
//     engram does not read; dropped (note.Decision and note.Event have no
//     room for it). Unknown top-level keys go to Note.Extra silently.
//   - info aiagents-bom: the file starts with a byte order mark; skipped.
//
// Timestamps are normalised to RFC 3339 in UTC; ids are matched
// case-insensitively, as the causal stage matches them. Positions are
// 1-based lines and columns in characters; a byte order mark is not
// counted.
package aiagents

import (
	"path"
	"strings"
)

// IsEpisodeFile reports whether a slash-separated, repository-relative path
// matches SPEC's **/episodes/episode-*.json.
func IsEpisodeFile(p string) bool {
	base := path.Base(p)
	return strings.HasPrefix(base, "episode-") && strings.HasSuffix(base, ".json") &&
		path.Base(path.Dir(p)) == "episodes"
}
