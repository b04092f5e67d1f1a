package pipeline

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/confirm-go/confirm/confirm/rt"
	"github.com/confirm-go/confirm/confirm/runner"
)

// A Token replays a confirmation: the locations the package was
// instrumented with (which the schedule passes as scheduling points) and
// the runner's token (test, options, schedule). Its string form is one
// shell-safe word, "p1." followed by the compressed JSON in base64url;
// file names in it are relative to the directory confirm ran in.
type Token struct {
	Locations []rt.Location `json:"locs,omitempty"`
	Runner    string        `json:"run"`
	// Files are the synthesized test files the package was built with,
	// by file name, and their sources.
	Files map[string]string `json:"files,omitempty"`
}

const tokenPrefix = "p1."

// IsToken reports whether s is a pipeline token (rather than a
// runner token of confirm run).
func IsToken(s string) bool { return strings.HasPrefix(strings.TrimSpace(s), tokenPrefix) }

// Encode returns the string form of t with file names relative to dir.
func (t Token) Encode(dir string) string {
	rel := t
	rel.Locations = make([]rt.Location, len(t.Locations))
	for i, l := range t.Locations {
		if r, err := filepath.Rel(dir, l.File); err == nil && filepath.IsAbs(l.File) {
			l.File = filepath.ToSlash(r)
		}
		l.Label = ""
		rel.Locations[i] = l
	}
	data, _ := json.Marshal(rel) // a struct of strings and ints
	var buf bytes.Buffer
	zw, _ := flate.NewWriter(&buf, flate.BestCompression) // the level is valid
	_, _ = zw.Write(data)                                 // writes to a bytes.Buffer do not fail
	_ = zw.Close()
	return tokenPrefix + base64.RawURLEncoding.EncodeToString(buf.Bytes())
}

// ParseToken decodes a token made by Encode, resolving its file names
// against dir.
func ParseToken(s, dir string) (Token, error) {
	s = strings.TrimSpace(s)
	if !IsToken(s) {
		return Token{}, fmt.Errorf("malformed replay token %.40q: want %s<data>, as confirm prints it", s, tokenPrefix)
	}
	raw, err := base64.RawURLEncoding.DecodeString(s[len(tokenPrefix):])
	if err != nil {
		return Token{}, fmt.Errorf("malformed replay token: %w", err)
	}
	data, err := io.ReadAll(flate.NewReader(bytes.NewReader(raw)))
	if err != nil {
		return Token{}, fmt.Errorf("malformed replay token: %w", err)
	}
	var t Token
	if err := json.Unmarshal(data, &t); err != nil {
		return Token{}, fmt.Errorf("malformed replay token: %w", err)
	}
	if _, err := runner.ParseToken(t.Runner); err != nil {
		return Token{}, err
	}
	for i, l := range t.Locations {
		if !filepath.IsAbs(l.File) {
			t.Locations[i].File = filepath.Join(dir, filepath.FromSlash(l.File))
		}
	}
	if len(t.Files) > 0 {
		files := make(map[string]string, len(t.Files))
		for name, src := range t.Files {
			if !filepath.IsAbs(name) {
				name = filepath.Join(dir, filepath.FromSlash(name))
			}
			files[name] = src
		}
		t.Files = files
	}
	return t, nil
}
