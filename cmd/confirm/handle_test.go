package main

import (
	"strings"
	"testing"
)

// TestHandles checks that a long token is printed as a short handle that
// resolves to it, a short one as it is, and that an unknown or malformed
// handle is an error naming the cause.
func TestHandles(t *testing.T) {
	h := handles{dir: t.TempDir()}
	long := "p1." + strings.Repeat("x", 5000)
	handle := h.short(long)
	if !strings.HasPrefix(handle, handlePrefix) || len(handle) != len(handlePrefix)+16 {
		t.Fatalf("short(long token) = %q, want h1. and 16 hex digits", handle)
	}
	if again := h.short(long); again != handle {
		t.Errorf("the same token got handles %q and %q", handle, again)
	}
	if got, err := h.resolve(handle); err != nil || got != long {
		t.Errorf("resolve(%s) = %d bytes, %v; want the token", handle, len(got), err)
	}
	if got := h.short("p1.short"); got != "p1.short" {
		t.Errorf("short(short token) = %q, want it unchanged", got)
	}
	if got, err := h.resolve("p1.abc"); err != nil || got != "p1.abc" {
		t.Errorf("resolve(token) = %q, %v; want it unchanged", got, err)
	}
	for arg, want := range map[string]string{
		"h1.0123456789abcdef": "is not in",
		"h1.xyz":              "malformed replay handle",
	} {
		if _, err := h.resolve(arg); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("resolve(%s) = %v, want an error saying %q", arg, err, want)
		}
	}
	if got := (handles{}).short(long); got != long {
		t.Error("without a cache directory, short must print the token itself")
	}
}
