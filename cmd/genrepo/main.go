// Command genrepo writes a generated memory repository, with its git
// history, for benchmarks and before/after comparisons:
//
//	go run ./cmd/genrepo [-n NOTES] [-seed N] DIR
//
// The repository is indexer/gen's: for a given -n and -seed, the same
// bytes and the same commits every time.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/engramhq/engram/indexer/gen"
	"github.com/engramhq/engram/indexer/source"
)

func main() {
	n := flag.Int("n", 600, "how many notes (episodes, patterns and bad notes, in the proportions of a real repository)")
	seed := flag.Int64("seed", 0, "seed of the text, outcomes and links")
	flag.Parse()
	if flag.NArg() != 1 || *n < 1 {
		fmt.Fprintln(os.Stderr, "usage: genrepo [-n NOTES] [-seed N] DIR")
		os.Exit(2)
	}
	dir := flag.Arg(0)
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		fmt.Fprintf(os.Stderr, "genrepo: %s is not empty\n", dir)
		os.Exit(1)
	}
	o := gen.Sized(*n)
	o.Seed = *seed
	if err := source.WriteRepo(dir, gen.Generate(o).Commits); err != nil {
		fmt.Fprintln(os.Stderr, "genrepo:", err)
		os.Exit(1)
	}
}
