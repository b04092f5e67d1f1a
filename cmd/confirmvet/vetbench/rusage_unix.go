//go:build unix

package main

import (
	"os"
	"runtime"
	"syscall"
)

// peakRSS returns the maximum resident set size, in bytes, that the rusage
// of the waited-for process ps reports: on Linux the largest of the process
// and every descendant it waited for. It returns 0 when unknown.
func peakRSS(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return int64(ru.Maxrss) //nolint:unconvert // int32 on some platforms; bytes here
	}
	return int64(ru.Maxrss) * 1024 //nolint:unconvert // int32 on some platforms; kilobytes here
}
