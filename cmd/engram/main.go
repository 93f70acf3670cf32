// Command engram turns a git repository of AI-agent memory into JSON
// indexes and a static site. See README.md and SPEC §5.
package main

import (
	"context"
	"os"
	"os/signal"
)

func main() {
	if len(os.Args) > 1 && queries[os.Args[1]] {
		lazyGC()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
