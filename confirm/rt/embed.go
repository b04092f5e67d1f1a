package rt

import "embed"

// Source holds this package's own source files. The instrumenter injects
// the non-test files (all but *_test.go and embed*.go) into the build of the
// package under test through the overlay, so the runtime is importable
// without touching the user's go.mod.
//
//go:embed *.go
var Source embed.FS
