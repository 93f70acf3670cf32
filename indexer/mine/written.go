package mine

import "slices"

// written is a pattern note's action and evidence, as the miner reads
// them: what a candidate already written is compared with.
type written struct {
	choice   string
	episodes []int // ascending
}

// patterns reads the pattern notes: their action's choice key, and the
// evidence the graph stage counted, as the miner's episodes.
func (m *miner) patterns() {
	byTitle := make(map[string]int, len(m.eps))
	for k, ep := range m.eps {
		byTitle[ep.title] = k
	}
	for i := range m.notes {
		n := &m.notes[i]
		if n.Pattern == nil || i >= len(m.g.Stats) {
			continue
		}
		_, action := n.TriggerAction()
		w := written{choice: m.choiceKey(action)}
		for _, e := range m.g.Stats[i].Evidence {
			if k, ok := byTitle[e.ID]; ok {
				w.episodes = append(w.episodes, k)
			}
		}
		if w.choice != "" && len(w.episodes) > 0 {
			slices.Sort(w.episodes)
			m.written = append(m.written, w)
		}
	}
}

// isWritten reports whether a pattern note states the pair of choice c
// over episodes eps (ascending): the same choice, and evidence that holds
// most of eps.
func (m *miner) isWritten(c int32, eps []int) bool {
	for _, w := range m.written {
		if w.choice == m.choices[c] && held(eps, w.episodes) >= nearDuplicate {
			return true
		}
	}
	return false
}
