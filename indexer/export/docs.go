// Package export is engram's export stage: it turns parsed notes and the
// causal graph into the documents of the JSON API (SPEC §4.0), and those
// documents into bytes. The site stage renders pages from the same
// documents, so a page and its JSON never disagree.
package export

import (
	"time"

	"github.com/engramhq/engram/indexer/note"
)

// SchemaVersion is the version of the api/v1 shapes.
const SchemaVersion = 1

// List is the shape of every list file: {"version", "reference_time", "items"}.
type List[T any] struct {
	Version       int    `json:"version"`
	ReferenceTime string `json:"reference_time"`
	Items         []T    `json:"items"`
}

// EpisodeHead is what names an episode, in its own file and in lists.
type EpisodeHead struct {
	ID      string       `json:"id"`
	Title   string       `json:"title"`
	Date    string       `json:"date"`
	Outcome note.Outcome `json:"outcome"`
	Task    string       `json:"task"`
	Tags    []string     `json:"tags"`
	URL     string       `json:"url"`
	JSONURL string       `json:"json_url"`
}

// EpisodeSummary is an item of episodes.json: the episode's head and its
// score at the list's reference time.
type EpisodeSummary struct {
	EpisodeHead
	Decayed
}

// Episode is episodes/<slug>.json. It holds nothing that moves with the
// reference time (issue 30, decision 3): its score, age and staleness
// are in episodes.json (Summary).
type Episode struct {
	EpisodeHead
	// Scoring is what the episode's score is made of (SPEC §3): raw is 1
	// plus the feedback priority, age runs from created.
	Scoring
	// Decayed is the score at the reference time, for the list files, the
	// bootstrap and the list pages; never in the episode's own file or page.
	Decayed         `json:"-"`
	Feedback        Feedback `json:"feedback"`
	Due             string   `json:"due,omitempty"`
	Created         string   `json:"created"`
	Updated         string   `json:"updated"`
	DateSource      string   `json:"date_source"`
	DurationMinutes *float64 `json:"duration_minutes,omitempty"`
	Session         string   `json:"session,omitempty"`
	// SourceThread is the thread or session note the episode derives
	// from, and Concepts the notes it is about, declared on either side.
	SourceThread *Ref               `json:"source_thread,omitempty"`
	Concepts     []Ref              `json:"concepts"`
	Metrics      map[string]float64 `json:"metrics"`
	Context      string             `json:"context,omitempty"`
	Observations []Observation      `json:"observations"`
	Decisions    []Decision         `json:"decisions"`
	Events       []Event            `json:"events"`
	Lessons      []string           `json:"lessons"`
	Relations    []Relation         `json:"relations"`
	Links        []Link             `json:"links"`
	Backlinks    []Ref              `json:"backlinks"`
	// Similar are the most similar other episodes (SPEC §3), which the
	// search stage finds (Site.With); [] until then.
	Similar []Similar `json:"similar"`
	// RelatedWork are the episodes that name the same pull request or
	// issue, branch or file path (SPEC §3): navigation, not a causal
	// claim. Listed on both episodes.
	RelatedWork []RelatedWork `json:"related_work"`
	// Flags are what graph health found wrong with the episode (SPEC §3):
	// "fixture" (a test fixture), "empty" (nothing beyond a task of two
	// words), "memory_poisoning" (text that addresses an agent with
	// instructions: Poisoning says where). A flagged episode is never
	// offered as similar, never counts as a pattern's evidence, and is
	// never in the bootstrap.
	Flags     []string       `json:"flags"`
	Poisoning []Poisoning    `json:"poisoning,omitempty"`
	Sections  []Section      `json:"sections,omitempty"`
	Extra     map[string]any `json:"extra,omitempty"`
	Source    Source         `json:"source"`
}

// Similar is another episode like this one: the cosine similarity of
// their TF-IDF vectors, its page, and what a reader judges it by without
// opening it: its headline (EpisodeHeadline) and outcome.
type Similar struct {
	ID       string  `json:"id"`
	Score    float64 `json:"score"`
	URL      string  `json:"url"`
	Headline string  `json:"headline"`
	Outcome  string  `json:"outcome"`
}

// RelatedWork is another episode about the same piece of work, and the
// references they share ("#2829", "branch feat/x", "scripts/build.py"),
// the rarest first.
type RelatedWork struct {
	ID  string   `json:"id"`
	Via []string `json:"via"`
	URL string   `json:"url"`
}

// Source says where a note came from. A note of a [[sources]]
// repository (federation) names it: its namespace and name, and the
// file's web address there when the source's url is configured; path is
// then the file's path relative to the repository built
// (../api-memory/episodes/x.md) and commit the source's.
type Source struct {
	Path      string `json:"path"`
	Commit    string `json:"commit,omitempty"`
	Created   string `json:"created"`
	Updated   string `json:"updated"`
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name,omitempty"`
	URL       string `json:"url,omitempty"`
}

// SourceRepo is a [[sources]] repository as the manifest lists it: its
// namespace, name, web address (if configured) and the commit read
// ("" for a plain directory).
type SourceRepo struct {
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	URL       string `json:"url,omitempty"`
	Commit    string `json:"commit,omitempty"`
}

// Observation is "- [category] content #tag (context)". Strength comes
// from its #explicit, #implied or #inferred tag. Its score (SPEC §3: the
// strength plus the note's feedback priority, decayed from the note's
// created date) moves with the clock, so no file carries it (issue 30,
// decision 3); docs/agents.md says how to work it out.
type Observation struct {
	Category string   `json:"category"`
	ID       string   `json:"id,omitempty"`
	Content  string   `json:"content"`
	Tags     []string `json:"tags"`
	Context  string   `json:"context,omitempty"`
	Strength float64  `json:"strength"`
}

// Decision is one decision of an episode.
type Decision struct {
	ID        string            `json:"id"`
	Title     string            `json:"title"`
	Timestamp string            `json:"timestamp,omitempty"`
	Type      note.DecisionType `json:"type,omitempty"`
	Context   string            `json:"context,omitempty"`
	Options   []string          `json:"options"`
	Chosen    string            `json:"chosen,omitempty"`
	Rationale string            `json:"rationale,omitempty"`
	Outcome   note.Outcome      `json:"outcome,omitempty"`
	Effects   []Link            `json:"effects"`
}

// Event is one event of an episode's timeline.
type Event struct {
	ID        string `json:"id"`
	Timestamp string `json:"timestamp,omitempty"`
	Type      string `json:"type,omitempty"`
	Content   string `json:"content"`
	// CausedBy and LeadsTo are ids of other events of the episode.
	CausedBy []string `json:"caused_by,omitempty"`
	LeadsTo  []string `json:"leads_to,omitempty"`
}

// Relation is a typed link to another note.
type Relation struct {
	Type    string `json:"type"`
	Target  string `json:"target"`
	Context string `json:"context,omitempty"`
	URL     string `json:"url,omitempty"`
	Missing bool   `json:"missing,omitempty"`
}

// Link is a wikilink, resolved: URL is empty and Missing true when the
// target names no note; Decision is set for a decision of the same episode.
type Link struct {
	Target   string `json:"target"`
	ID       string `json:"id,omitempty"`
	URL      string `json:"url,omitempty"`
	Decision string `json:"decision,omitempty"`
	Missing  bool   `json:"missing,omitempty"`
}

// Ref names another note.
type Ref struct {
	ID   string `json:"id"`
	Type string `json:"type"`
	URL  string `json:"url"`
}

// Section is a prose section, as markdown.
type Section struct {
	Heading  string `json:"heading"`
	Markdown string `json:"markdown"`
}

// Pattern is patterns/<slug>.json. It holds nothing that moves with the
// reference time (issue 30, decision 3): patterns.json and
// antipatterns.json list it with its score (PatternSummary).
type Pattern struct {
	ID          string   `json:"id"`
	Title       string   `json:"title"`
	Type        string   `json:"type"`
	Trigger     string   `json:"trigger"`
	Action      string   `json:"action"`
	SuccessRate *float64 `json:"success_rate"`
	Occurrences int      `json:"occurrences"`
	Confidence  *float64 `json:"confidence"`
	StatsSource string   `json:"stats_source"`
	Declared    Declared `json:"declared"`
	Antipattern bool     `json:"antipattern"`
	// Flags are what graph health found wrong (SPEC §3): "tautology",
	// "placeholder", "fixture", "default_rate", "memory_poisoning" (text
	// that addresses an agent with instructions: Poisoning says where). A
	// flagged pattern is never offered to agents as advice.
	Flags     []string    `json:"flags"`
	Poisoning []Poisoning `json:"poisoning,omitempty"`
	// Scoring: raw is confidence plus the feedback priority; age runs from
	// the latest evidence episode or last_validated, else created.
	Scoring
	// Decayed is the score at the reference time, for the list files, the
	// bootstrap and the list pages; never in the pattern's own file or page.
	Decayed  `json:"-"`
	Feedback Feedback      `json:"feedback"`
	Tags     []string      `json:"tags"`
	Evidence []EvidenceRef `json:"evidence"`
	EdgesOut []note.Edge   `json:"edges_out"`
	EdgesIn  []note.Edge   `json:"edges_in"`
	URL      string        `json:"url"`
	JSONURL  string        `json:"json_url"`
	// Full pattern documents only.
	Observations  []Observation `json:"observations,omitempty"`
	LastValidated string        `json:"last_validated,omitempty"`
	Relations     []Relation    `json:"relations,omitempty"`
	Links         []Link        `json:"links,omitempty"`
	Backlinks     []Ref         `json:"backlinks,omitempty"`
	Sections      []Section     `json:"sections,omitempty"`
	// Extra are the front matter keys engram does not read, passed
	// through as written (SPEC §2).
	Extra  map[string]any `json:"extra,omitempty"`
	Source *Source        `json:"source,omitempty"`
}

// PatternSummary is an item of patterns.json and antipatterns.json: the
// pattern less its prose, relations, backlinks and extra keys, and its
// score at the list's reference time.
type PatternSummary struct {
	Pattern
	Decayed
}

// Declared holds a pattern's front matter statistics.
type Declared struct {
	SuccessRate *float64 `json:"success_rate"`
	Occurrences *int     `json:"occurrences"`
}

// EvidenceRef is one evidence episode of a pattern: the outcome the
// evidence line gives, and, when it differs, the one the episode records
// itself.
type EvidenceRef struct {
	ID             string       `json:"id"`
	Outcome        note.Outcome `json:"outcome"`
	EpisodeOutcome note.Outcome `json:"episode_outcome,omitempty"`
	URL            string       `json:"url,omitempty"`
}

// GraphEdge is an edge of graph.json. Episodes names, as in ai-agents'
// file, the episode the edge comes from when it comes from one (evidence,
// decision effects, event links), and is empty for a pattern's causal
// relationship.
type GraphEdge struct {
	note.Edge
	Episodes []string `json:"episodes"`
}

// Health is health.json (SPEC §4.0, §3 "Graph health"): how much of the
// graph is signal, measured the way ai-agents' ADR-089 found its own graph
// to be noise.
type Health struct {
	Version       int    `json:"version"`
	ReferenceTime string `json:"reference_time"`
	// Nodes counts every node a reader could see: the graph's nodes
	// (graph_nodes, those of graph.json) and the events no link touches.
	Nodes      int `json:"nodes"`
	GraphNodes int `json:"graph_nodes"`
	// Isolated counts the nodes with no edge besides "contains" (an
	// episode's own decisions and events are structure, not links).
	Isolated      int                   `json:"isolated"`
	IsolatedShare float64               `json:"isolated_share"`
	EdgeTypes     map[note.EdgeType]int `json:"edge_types"`
	// The edges other than "contains", by what they join: one episode's
	// parts, two different episodes, or a pattern.
	EdgesWithinEpisode   int `json:"edges_within_episode"`
	EdgesBetweenEpisodes int `json:"edges_between_episodes"`
	EdgesWithPatterns    int `json:"edges_with_patterns"`
	// LeadsToConsecutive counts the leads_to edges that only join an event
	// to the next one of its timeline: timeline order, not a causal claim.
	LeadsToConsecutive      int     `json:"leads_to_consecutive"`
	LeadsToConsecutiveShare float64 `json:"leads_to_consecutive_share"`
	// LeadsToFanOut counts the leads_to edges that leave an event with
	// more than one, LeadsToFanIn those that enter an event with more
	// than one (a commit that every earlier event "leads to": 185 edges
	// into one event in ai-agents' newest snapshot); the Max are the
	// most that leave or enter one event. Either way they are timeline
	// bookkeeping more than causes.
	LeadsToFanOut    int `json:"leads_to_fan_out"`
	LeadsToMaxFanOut int `json:"leads_to_max_fan_out"`
	LeadsToFanIn     int `json:"leads_to_fan_in"`
	LeadsToMaxFanIn  int `json:"leads_to_max_fan_in"`
	// EpisodePairs counts the pairs of episodes that are evidence for a
	// common pattern; EpisodePairsUnflagged through a pattern no rule flags.
	EpisodePairs          int `json:"episode_pairs_via_patterns"`
	EpisodePairsUnflagged int `json:"episode_pairs_via_unflagged_patterns"`
	// The flagged patterns (each also carries its flags): tautologies,
	// placeholders, fixtures, and rates that are not measurements
	// (declared only, or contradicted by the episodes' own outcomes).
	Tautologies  []string `json:"tautologies"`
	Placeholders []string `json:"placeholders"`
	Fixtures     []string `json:"fixtures"`
	DefaultRates []string `json:"default_rates"`
	// The flagged episodes: test fixtures, and nearly empty ones.
	FixtureEpisodes []string `json:"fixture_episodes"`
	EmptyEpisodes   []string `json:"empty_episodes"`
	// MemoryPoisoning are the notes of every kind with text that
	// addresses an agent with instructions (each note's JSON says where).
	MemoryPoisoning []string `json:"memory_poisoning"`
	// OutcomeContradicted are the episodes whose last event reports the
	// work done while their outcome says failure or partial: not listed
	// as failures.
	OutcomeContradicted []string       `json:"outcome_contradicted"`
	Dangling            []DanglingLink `json:"dangling"`
	Cycles              [][]string     `json:"cycles"`
	Duplicates          [][]string     `json:"duplicates"`
	// Diagnostics counts the build's diagnostics by severity and by rule.
	Diagnostics DiagnosticCounts `json:"diagnostics"`
}

// DiagnosticCounts summarises the diagnostics of a build.
type DiagnosticCounts struct {
	Errors   int            `json:"errors"`
	Warnings int            `json:"warnings"`
	Infos    int            `json:"infos"`
	ByRule   map[string]int `json:"by_rule"`
}

// DanglingLink is a wikilink that names no note.
type DanglingLink struct {
	From   string `json:"from"`
	Target string `json:"target"`
}

// Graph is graph.json, readable by consumers of ai-agents' causal-graph.json.
type Graph struct {
	Version  string         `json:"version"`
	Updated  string         `json:"updated"`
	Nodes    []GraphNode    `json:"nodes"`
	Edges    []GraphEdge    `json:"edges"`
	Patterns []GraphPattern `json:"patterns"`
	// Links join episodes that are about the same numbered piece of
	// work. They are not causal edges: ai-agents' readers of edges never
	// see them, and graph health does not count them.
	Links []GraphLink `json:"links"`
}

// GraphLink is a typed link between two episodes (indexer/related): from
// an episode to the next one that names the same pull request or issue
// ("continued_by"; a number more than a few episodes name is a hub and
// links none), or from the episode that filed an issue to a later one
// that closed it ("resolved_by"). Via are the numbers they share.
type GraphLink struct {
	Source string   `json:"source"`
	Target string   `json:"target"`
	Type   string   `json:"type"`
	Via    []string `json:"via"`
}

// GraphNode is a node of graph.json. Episodes are, as in ai-agents'
// file, the episodes where the node appears: its own episode for an
// episode, decision or event, the evidence episodes for a pattern.
type GraphNode struct {
	ID       string   `json:"id"`
	Type     string   `json:"type"`
	Label    string   `json:"label"`
	URL      string   `json:"url"`
	Episodes []string `json:"episodes"`
	// Flags are the graph health flags of the node's note (SPEC §3): an
	// episode's decisions and events have their episode's. A reader that
	// weighs a node by its episodes or its rate checks them first: a
	// fixture pattern's rate of 1.0 is no measurement.
	Flags []string `json:"flags"`
}

// GraphPattern is a pattern row of graph.json, as ai-agents writes them.
type GraphPattern struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Trigger     string   `json:"trigger"`
	Action      string   `json:"action"`
	SuccessRate *float64 `json:"success_rate,omitempty"`
	Occurrences int      `json:"occurrences"`
	Episodes    []string `json:"episodes"`
	Flags       []string `json:"flags"`
}

// Note is a note that is neither an episode nor a pattern
// (notes/<slug>.json).
type Note struct {
	ID           string        `json:"id"`
	Title        string        `json:"title"`
	Type         string        `json:"type"`
	Tags         []string      `json:"tags"`
	URL          string        `json:"url"`
	JSONURL      string        `json:"json_url"`
	Observations []Observation `json:"observations"`
	Relations    []Relation    `json:"relations"`
	Links        []Link        `json:"links"`
	Backlinks    []Ref         `json:"backlinks"`
	// Episodes are the episodes that derive from this note (a thread or
	// session) or are about it (a concept), declared on either side.
	Episodes []Ref `json:"episodes"`
	// Pending: a thread or session note that no episode derives from yet.
	Pending bool `json:"pending,omitempty"`
	// Flags are what graph health found wrong with the note (SPEC §3):
	// "memory_poisoning", with Poisoning saying where.
	Flags     []string    `json:"flags"`
	Poisoning []Poisoning `json:"poisoning,omitempty"`
	Sections  []Section   `json:"sections,omitempty"`
	// Extra are the front matter keys engram does not read, passed
	// through as written (SPEC §2).
	Extra  map[string]any `json:"extra,omitempty"`
	Source Source         `json:"source"`
}

// Diagnostic is an item of diagnostics.json: a problem in a note, at
// path:line:col (1-based; 0 when the problem is the whole file).
type Diagnostic struct {
	Path     string `json:"path"`
	Line     int    `json:"line"`
	Col      int    `json:"col"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
	Rule     string `json:"rule"`
}

// PendingItem is an item of pending.json.
type PendingItem struct {
	ID   string `json:"id"`
	Type string `json:"type"`
	URL  string `json:"url"`
}

// Manifest is index.json.
type Manifest struct {
	Version       int    `json:"version"`
	Generator     string `json:"generator"`
	Commit        string `json:"commit,omitempty"`
	ReferenceTime string `json:"reference_time"`
	// Lambda is λ of every decayed score.
	Lambda float64        `json:"lambda"`
	Counts map[string]int `json:"counts"`
	Files  []string       `json:"files"`
	// BootstrapSlices index the bootstraps by area (SPEC §4.1): the
	// session-start hook fetches the one for the folder it works in.
	BootstrapSlices []BootstrapSlice `json:"bootstrap_slices"`
	// Sources are the other memory repositories ([[sources]]) the notes
	// came from, by namespace; absent for a build of one repository.
	Sources []SourceRepo `json:"sources,omitempty"`
	// Schemas name the schema of every JSON file of the output, by its
	// path: the first whose Files matches a path names its schema. A
	// client that has read the manifest can validate any file it fetches.
	Schemas []SchemaMap `json:"schemas"`
}

// SchemaMap names the schema of the JSON files at one kind of path.
type SchemaMap struct {
	// Files is a path.Match pattern of paths from the site's root, in
	// which * stands for any part of one path element.
	Files string `json:"files"`
	// Schema is the path of the schema from the site's root.
	Schema string `json:"schema"`
}

// BootstrapSlice is one area's bootstrap: the folder ("scripts",
// ".agents") or tag ("tag:ci"), how many episodes touch it, and its
// files.
type BootstrapSlice struct {
	Area     string `json:"area"`
	Episodes int    `json:"episodes"`
	Markdown string `json:"md"`
	JSON     string `json:"json"`
}

// Site is every document of one build.
type Site struct {
	Title   string
	BaseURL string
	// RelativeLinks: the site has no base URL (SPEC §4), and BaseURL is
	// "/". Its links are then paths from the site's root in the JSON,
	// relative to the page in the HTML (site.Render), and relative to the
	// file in the files that live at the root and need full URLs
	// elsewhere (feed.json, llms.txt, the sitemap and RSS), so that the
	// site works opened from disk or served under any path.
	RelativeLinks bool
	ReferenceTime time.Time
	Manifest      Manifest
	Episodes      []Episode        // sorted by date descending, then id
	Patterns      []Pattern        // sorted by id
	Notes         []Note           // sorted by id
	Antipatterns  []PatternSummary // in SPEC §3's order
	Lessons       []Lesson         // clusters, most recurring first
	DueItems      []DueItem        // notes with a due date, by date
	Pending       []PendingItem
	// Workflows group the execution events within retention, most
	// recently active first.
	Workflows []Workflow
	// RetentionDays is how long events are kept.
	RetentionDays int
	Graph         Graph
	Health        Health
	// Candidates are the pattern candidates mined from the episodes
	// (candidates.json): proposals, never advice.
	Candidates Candidates
	// Diagnostics are the build's diagnostics, less those of private
	// notes, sorted by file and position (diagnostics.json): the site
	// lists them for the notes' authors.
	Diagnostics []Diagnostic
	// Extra are files made by later stages (the bootstrap, the static
	// search index), written and listed in the manifest with the rest;
	// Budget is the bootstrap's token budget, named in llms.txt. Both
	// are set by With, on a copy.
	Extra  []File
	Budget int
	// lateDocs are the families of files the later stages publish
	// (Later.Docs), which complete the registry; set by With.
	lateDocs []Doc
}

// Lesson is an item of lessons.json: a cluster of lessons that say the
// same thing (SPEC §3), in the wording of its most recent member. Score is
// count/(count+1), decayed from the latest member's date: recurring and
// recent lessons first.
type Lesson struct {
	Text     string   `json:"text"`
	Count    int      `json:"count"`
	Episodes []string `json:"episodes"`
	Score    float64  `json:"score"`
	Latest   string   `json:"latest"`
	// Wordings are the distinct texts of the cluster's members.
	Wordings []string `json:"wordings"`
	// Related are other clusters about the same advice, not the same
	// lesson (the related tier, docs/lessons.md), best first; never
	// merged.
	Related []RelatedLesson `json:"related"`
	// Family names the lesson's advice family, when it has one: clusters
	// joined through their related links, at most four (docs/lessons.md),
	// by the text of the family's first; FamilyEpisodes are the episodes
	// of the whole family. A theme restated in other words across
	// episodes recurs as a family, not as one cluster.
	Family         string   `json:"family,omitempty"`
	FamilyEpisodes []string `json:"family_episodes,omitempty"`
	// Flags: "memory_poisoning" when a wording is a lesson flagged for
	// it; such a cluster is never offered to an agent.
	Flags []string `json:"flags,omitempty"`
}

// RelatedLesson names a related cluster by its wording. Opposite: one of
// the two rules is negated and the other not, so they may contradict.
type RelatedLesson struct {
	Text     string  `json:"text"`
	Score    float64 `json:"score"`
	Opposite bool    `json:"opposite,omitempty"`
}

// DueItem is a note with a due date: a forward trigger.
type DueItem struct {
	ID  string
	URL string
	Due time.Time
	// Flags are the note's flags: a flagged note is never due in the
	// bootstrap.
	Flags []string
}
