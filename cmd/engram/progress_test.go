package main

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

var progressLine = regexp.MustCompile("^\r\033\\[Kengram: building, hugo… ([0-9]+) s")

// TestProgress: on a terminal, a build that has run past progressAfter
// shows its stage on one line, which stop clears; nothing is shown when
// stderr is not a terminal (piped, a file) or in CI.
func TestProgress(t *testing.T) {
	w := newSyncBuffer()
	p := newProgress(w, time.Now().Add(-time.Minute), true)
	p.stage("hugo")
	wait := testDeadline(t)
	for !strings.Contains(w.String(), "building, hugo…") {
		select {
		case <-w.written:
		case <-wait.Done():
			t.Fatalf("no progress by the test's deadline: %q", w.String())
		}
	}
	p.stop()
	// The seconds since the start: 60, or more on a slow machine.
	got := w.String()
	if m := progressLine.FindStringSubmatch(got); m == nil || atoi(m[1]) < 60 || !strings.HasSuffix(got, "\r\033[K") {
		t.Errorf("progress wrote %q", got)
	}

	var quiet syncBuffer
	q := newProgress(&quiet, time.Now().Add(-time.Minute), false)
	q.stage("hugo")
	q.stop()
	if quiet.String() != "" {
		t.Errorf("progress when not shown: %q", quiet.String())
	}

	env := func(ci, term string) func(string) string {
		return func(k string) string { return map[string]string{"CI": ci, "TERM": term}[k] }
	}
	f, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, tc := range []struct {
		name string
		show bool
	}{
		{"a file", showProgress(f, env("", "xterm"))},
		{"a buffer", showProgress(&quiet, env("", "xterm"))},
	} {
		if tc.show {
			t.Errorf("progress shown on %s", tc.name)
		}
	}
	if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
		defer tty.Close()
		if !showProgress(tty, env("", "xterm")) || showProgress(tty, env("true", "xterm")) || showProgress(tty, env("", "dumb")) {
			t.Error("on a terminal: progress should show, except in CI or on a dumb terminal")
		}
	}
}

func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		return -1
	}
	return n
}
