package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// progress shows, on a terminal, which stage a build is in once it has
// taken more than progressAfter: one line on stderr, rewritten in place
// and cleared when the build ends. It stays quiet in CI ($CI set) and when
// stderr is not a terminal (piped, redirected, a test).
type progress struct {
	w     io.Writer
	began time.Time
	mu    sync.Mutex
	name  string
	shown bool
	done  chan struct{}
	wg    sync.WaitGroup
}

const progressAfter = 1500 * time.Millisecond

// startProgress starts showing progress on w if w is a terminal outside
// CI; the progress it returns otherwise does nothing.
func startProgress(w io.Writer, began time.Time) *progress {
	return newProgress(w, began, showProgress(w, os.Getenv))
}

// showProgress reports whether progress goes to w: a terminal, not CI's
// ($CI set, as GitHub Actions, Netlify and most CI services set it), not
// a dumb one.
func showProgress(w io.Writer, getenv func(string) string) bool {
	return isTerminal(w) && getenv("CI") == "" && getenv("TERM") != "dumb"
}

// newProgress shows progress on w when show is true.
func newProgress(w io.Writer, began time.Time, show bool) *progress {
	p := &progress{w: w, began: began}
	if !show {
		return p
	}
	p.done = make(chan struct{})
	p.wg.Add(1)
	go p.run()
	return p
}

func (p *progress) run() {
	defer p.wg.Done()
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-p.done:
			return
		case now := <-tick.C:
			if now.Sub(p.began) < progressAfter {
				continue
			}
			p.mu.Lock()
			fmt.Fprintf(p.w, "\r\033[Kengram: building, %s… %.0f s", p.name, now.Sub(p.began).Seconds())
			p.shown = true
			p.mu.Unlock()
		}
	}
}

// stage records the stage the build is in (indexer.Options.Progress).
func (p *progress) stage(name string) {
	p.mu.Lock()
	p.name = name
	p.mu.Unlock()
}

// stop ends the display and clears its line.
func (p *progress) stop() {
	if p.done == nil {
		return
	}
	close(p.done)
	p.wg.Wait()
	if p.shown {
		fmt.Fprint(p.w, "\r\033[K")
	}
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
