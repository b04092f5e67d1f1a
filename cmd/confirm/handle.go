package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Replay tokens grow with the execution (tens of kilobytes for a long
// one, enough for "argument list too long"), so the replay commands
// confirm prints name a short handle instead: "h1." and 16 hex digits of
// the token's SHA-256. The token itself is kept in the user's cache
// directory, where confirm replay finds it, and -json prints it in full.

const (
	handlePrefix = "h1."
	// shortToken is the longest token printed as it is.
	shortToken = 120
)

// A handles keeps long tokens under dir and resolves their handles. The
// zero value (no cache directory) keeps nothing and prints tokens whole.
type handles struct{ dir string }

// newHandles returns the handles of the user's cache directory
// ($XDG_CACHE_HOME/confirm/tokens, or ~/.cache/confirm/tokens).
func newHandles() handles {
	dir, err := os.UserCacheDir()
	if err != nil {
		return handles{}
	}
	return handles{dir: filepath.Join(dir, "confirm", "tokens")}
}

// short returns the handle of token, having kept the token, or the token
// itself when it is short or cannot be kept.
func (h handles) short(token string) string {
	if h.dir == "" || len(token) <= shortToken {
		return token
	}
	sum := sha256.Sum256([]byte(token))
	name := handlePrefix + hex.EncodeToString(sum[:8])
	if err := os.MkdirAll(h.dir, 0o755); err != nil {
		return token
	}
	path := filepath.Join(h.dir, name)
	if data, err := os.ReadFile(path); err == nil && string(data) == token {
		return name
	}
	tmp, err := os.CreateTemp(h.dir, name+".*")
	if err != nil {
		return token
	}
	_, werr := tmp.WriteString(token)
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Rename(tmp.Name(), path) != nil {
		_ = os.Remove(tmp.Name())
		return token
	}
	return name
}

// resolve returns the token a handle names, or arg itself when it is not
// a handle.
func (h handles) resolve(arg string) (string, error) {
	arg = strings.TrimSpace(arg)
	hexPart, ok := strings.CutPrefix(arg, handlePrefix)
	if !ok {
		return arg, nil
	}
	if _, err := hex.DecodeString(hexPart); err != nil || len(hexPart) != 16 {
		return "", fmt.Errorf("malformed replay handle %q: want %s and 16 hex digits, as confirm prints it", arg, handlePrefix)
	}
	if h.dir == "" {
		return "", fmt.Errorf("replay handle %s: no user cache directory to find its token in; replay with the full token (-json prints it)", arg)
	}
	data, err := os.ReadFile(filepath.Join(h.dir, arg))
	if err != nil {
		return "", fmt.Errorf("replay handle %s is not in %s (handles are kept on the machine that printed them); replay with the full token (-json prints it): %w", arg, h.dir, err)
	}
	return string(data), nil
}
