// Package warning defines the structured Warning that every Confirm analyzer
// returns as its analysis Result, so that later stages (sequence generation,
// test selection, controlled confirmation) read warnings without parsing text.
package warning

import (
	"crypto/sha256"
	"encoding/hex"
	"go/token"
	"sort"
	"strconv"
	"strings"
)

// Kind classifies a warning.
type Kind string

// The kinds of warnings the analyzers report.
const (
	// LockOrderCycle is a cycle in the lock-order graph: lock classes acquired
	// in opposite orders on different paths (A then B, B then A), or two
	// instances of the same class nested (from.mu then to.mu).
	LockOrderCycle Kind = "lock-order-cycle"
	// DoubleLock is a mutex locked again while it is already held by the
	// same goroutine; Go mutexes are not reentrant.
	DoubleLock Kind = "double-lock"
	// RWRDeadlock is a read lock taken recursively while a writer may be
	// waiting in between: the second RLock blocks behind the writer.
	RWRDeadlock Kind = "rwr-deadlock"
	// LockLeak is a lock still held on some return path of a function that
	// is not a lock helper balanced by its callers.
	LockLeak Kind = "lock-leak"
	// LockChannel is a lock held across a blocking channel operation whose
	// every peer operation (the send a receive waits for, the receive a
	// send waits for) is made holding the same lock: each goroutine waits
	// for the other.
	LockChannel Kind = "lock-channel-deadlock"
	// Race is a possible data race on a variable or field.
	Race Kind = "race"
)

// String returns the kind as it appears in output, e.g. "lock-order-cycle".
func (k Kind) String() string { return string(k) }

// Access says what a site does to the object of the warning.
type Access string

// Accesses a Site can perform.
const (
	AccessLock    Access = "lock"
	AccessRLock   Access = "rlock"
	AccessUnlock  Access = "unlock"
	AccessRead    Access = "read"
	AccessWrite   Access = "write"
	AccessReturn  Access = "return"
	AccessCall    Access = "call"
	AccessGo      Access = "go"
	AccessSend    Access = "send"
	AccessRecv    Access = "recv"
	AccessUnknown Access = ""
)

// A Site is one program location that takes part in a warning.
type Site struct {
	// Pos is the position in the file set of the pass that produced the
	// warning. It is not serialized; Position holds the same location.
	Pos token.Pos `json:"-"`
	// Position is the resolved file:line:column of Pos.
	Position token.Position `json:"position"`
	// Role says, in words a reviewer understands, what happens here:
	// "acquires A", "acquires B while holding A", "writes f",
	// "reads f without mu".
	Role string `json:"role"`
	// Access is the kind of operation performed at the site.
	Access Access `json:"access,omitempty"`
	// Object is the lock class or the variable/field the site touches.
	Object string `json:"object,omitempty"`
	// Held lists the lock classes held at the site.
	Held []string `json:"held,omitempty"`
	// Func is the enclosing function, e.g. "(*bank.Account).Transfer".
	Func string `json:"func"`
	// Chain is the call chain that leads from Func to the operation when
	// it happens in a callee, outermost first, e.g.
	// ["(*Account).Deposit", "(*Account).lockBoth"].
	Chain []string `json:"chain,omitempty"`
	// Goroutine names the goroutine entry point the site runs in, when the
	// analyzer knows it (for example the function a go statement starts).
	Goroutine string `json:"goroutine,omitempty"`
	// FuncLine is the line of the site relative to the line of the
	// declaration of Func (0 when unknown). It keeps IDs stable when code
	// above the function moves.
	FuncLine int `json:"funcLine,omitempty"`
}

// A Warning is one finding of an analyzer.
type Warning struct {
	// ID is stable: the same code gives the same ID across runs and
	// machines. It does not depend on absolute paths or on lines outside
	// the enclosing functions. See ComputeID.
	ID string `json:"id"`
	// Analyzer is the name of the analyzer that produced the warning.
	Analyzer string `json:"analyzer"`
	// Kind classifies the warning.
	Kind Kind `json:"kind"`
	// Message is the one-line diagnostic message.
	Message string `json:"message"`
	// Package is the import path of the package the warning is in.
	Package string `json:"package"`
	// Sites are the locations involved; Sites[0] is the primary position
	// where the diagnostic is reported, the others are its related
	// positions.
	Sites []Site `json:"sites"`
	// Objects are the lock classes, or the variable or field, involved.
	Objects []string `json:"objects"`
	// Funcs are the enclosing functions of the sites, without duplicates.
	Funcs []string `json:"funcs"`
}

// Pos returns the primary position of w.
func (w *Warning) Pos() token.Pos {
	if len(w.Sites) == 0 {
		return token.NoPos
	}
	return w.Sites[0].Pos
}

// Result is the analysis Result of every Confirm analyzer.
type Result struct {
	Warnings []*Warning

	reported map[string]bool // the diagnostics reported, see Report
}

// Finish fills the derived fields of w: the resolved positions of its
// sites, Funcs, and the stable ID. Analyzers call it once the sites are
// complete.
func (w *Warning) Finish(fset *token.FileSet) {
	seen := map[string]bool{}
	w.Funcs = w.Funcs[:0]
	for i := range w.Sites {
		s := &w.Sites[i]
		if s.Pos.IsValid() && fset != nil {
			s.Position = fset.Position(s.Pos)
		}
		if s.Func != "" && !seen[s.Func] {
			seen[s.Func] = true
			w.Funcs = append(w.Funcs, s.Func)
		}
	}
	w.ID = ComputeID(w, fset)
}

// ComputeID returns the stable ID of w: a hash of the analyzer, the kind,
// the objects, and for each site its package-relative file name, function,
// role, and line relative to the start of the enclosing declaration when
// that is known (so edits elsewhere in the file keep the ID).
func ComputeID(w *Warning, fset *token.FileSet) string {
	objs := append([]string(nil), w.Objects...)
	sort.Strings(objs)
	key := []string{w.Analyzer, w.Kind.String(), w.Package, strings.Join(objs, ",")}
	for _, s := range w.Sites {
		file := s.Position.Filename
		if i := strings.LastIndexAny(file, `/\`); i >= 0 {
			file = file[i+1:]
		}
		key = append(key, file, s.Func, s.Role, string(s.Access), strconv.Itoa(s.FuncLine))
	}
	sum := sha256.Sum256([]byte(strings.Join(key, "\x00")))
	return string(w.Kind) + "-" + hex.EncodeToString(sum[:6])
}

// Related returns the sites of w after the primary one.
func (w *Warning) Related() []Site {
	if len(w.Sites) < 2 {
		return nil
	}
	return w.Sites[1:]
}
