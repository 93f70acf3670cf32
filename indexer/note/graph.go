package note

// PartID is the graph node id of a decision or an event of an episode:
// the episode's title, "#", and the part's id (d1, e003).
func PartID(episode, part string) string { return episode + "#" + part }

// Edge is a typed, weighted edge of the causal graph between two node
// ids. Duplicate edges (same source, target and type) are merged and
// counted in EvidenceCount.
type Edge struct {
	Source        string   `json:"source"`
	Target        string   `json:"target"`
	Type          EdgeType `json:"type"`
	Weight        float64  `json:"weight"`
	EvidenceCount int      `json:"evidence_count"`
}
