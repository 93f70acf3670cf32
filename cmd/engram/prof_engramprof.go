//go:build engramprof

package main

import (
	"os"
	"runtime/pprof"
)

var profFile *os.File

func init() {
	if p := os.Getenv("ENGRAM_CPUPROFILE"); p != "" {
		profFile, _ = os.Create(p)
		pprof.StartCPUProfile(profFile)
	}
}

func profStop() {
	if profFile != nil {
		pprof.StopCPUProfile()
		profFile.Close()
	}
}
