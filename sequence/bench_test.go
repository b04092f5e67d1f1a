package sequence_test

import (
	"testing"

	"github.com/confirm-go/confirm/analyzers/warning"
	"github.com/confirm-go/confirm/sequence"
)

// BenchmarkGenerateRace measures a race sequence with call chains and
// guarding data definitions (control dependence and def-use).
func BenchmarkGenerateRace(b *testing.B) {
	f := load(b, "races")
	w := &warning.Warning{ID: "r", Kind: warning.Race, Sites: []warning.Site{
		{Position: f.at("chain.go", 12, 2), Access: warning.AccessWrite, Object: "total"},
		{Position: f.at("chain.go", 36, 9), Access: warning.AccessRead, Object: "total"},
	}}
	for b.Loop() {
		if _, err := sequence.Generate(w, f.prog, "TestProcess"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGenerateRWR measures an RWR sequence, which searches the
// program for writers of the same lock class.
func BenchmarkGenerateRWR(b *testing.B) {
	f := load(b, "locks")
	w := &warning.Warning{ID: "rwr", Kind: warning.RWRDeadlock, Sites: []warning.Site{
		{Position: f.at("rwr.go", 13, 2), Access: warning.AccessRLock, Object: "Cache.mu"},
		{Position: f.at("rwr.go", 19, 2), Access: warning.AccessRLock, Object: "Cache.mu", Held: []string{"Cache.mu"}},
	}}
	for b.Loop() {
		if _, err := sequence.Generate(w, f.prog, "TestCache"); err != nil {
			b.Fatal(err)
		}
	}
}
