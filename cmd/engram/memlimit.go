package main

import (
	"bufio"
	"bytes"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
)

// A build's peak memory is mostly the garbage collector's headroom: with
// GOGC at 100 the heap may grow to twice what is live before a
// collection. At 100,000 notes that took the build to 6.7 GB where a
// soft limit of 4.5 GiB held it to 4.7 GB for 5% more time
// (BENCHMARKS.md, issue 30). A private repository's hosted CI runner
// has 7-8 GB, so a build, and every other command, runs under a soft
// limit unless GOMEMLIMIT says otherwise. A soft limit never fails the
// process: when what is live exceeds it, the collector runs more often
// (at most half the CPU, by the runtime's own cap).

// buildMemoryLimit is the soft limit on a machine with memory enough.
const buildMemoryLimit = 4 << 30

// memoryLimit returns the soft limit for a machine with total bytes of
// memory (0: unknown): buildMemoryLimit, or half of total when that is
// less; and false when GOMEMLIMIT is set, which wins.
func memoryLimit(getenv func(string) string, total int64) (int64, bool) {
	if getenv("GOMEMLIMIT") != "" {
		return 0, false
	}
	limit := int64(buildMemoryLimit)
	if total > 0 && total/2 < limit {
		limit = total / 2
	}
	return limit, true
}

// setMemoryLimit sets the soft limit of this process.
func setMemoryLimit() {
	if limit, ok := memoryLimit(os.Getenv, machineMemory()); ok {
		debug.SetMemoryLimit(limit)
	}
}

// machineMemory is the memory this process may use: the machine's
// (MemTotal in /proc/meminfo), or its cgroup's limit when that is less
// (a container's, /sys/fs/cgroup/memory.max); 0 when neither can be read.
func machineMemory() int64 {
	total := memTotal("/proc/meminfo")
	if data, err := os.ReadFile("/sys/fs/cgroup/memory.max"); err == nil {
		if n, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64); err == nil && n > 0 && (total == 0 || n < total) {
			total = n
		}
	}
	return total
}

// memTotal reads MemTotal (in kB) from a meminfo file, in bytes.
func memTotal(path string) int64 {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 && f[0] == "MemTotal:" {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 0
}
