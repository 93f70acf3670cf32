// Command engram turns a git repository of AI-agent memory into JSON
// indexes and a static site. See README.md and SPEC §5.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	if len(os.Args) > 1 && queries[os.Args[1]] {
		lazyGC()
	} else {
		setMemoryLimit()
	}
	// Ctrl-C and SIGTERM cancel the context: a build stops with a non-zero
	// exit and leaves the previous output as it was (SPEC §6).
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
