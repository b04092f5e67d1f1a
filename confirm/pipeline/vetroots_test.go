package pipeline

import (
	"slices"
	"testing"

	"golang.org/x/tools/go/packages"
)

func TestVetRoots(t *testing.T) {
	pkg := func(id, path string) *packages.Package { return &packages.Package{ID: id, PkgPath: path} }
	in := []*packages.Package{
		pkg("m/a", "m/a"), pkg("m/a [m/a.test]", "m/a"), pkg("m/a.test", "m/a.test"), // internal tests
		pkg("m/b", "m/b"), pkg("m/b_test [m/b.test]", "m/b_test"), // external tests only
		pkg("m/c", "m/c"), // no tests
	}
	var got []string
	for _, p := range vetRoots(in) {
		got = append(got, p.ID)
	}
	want := []string{"m/a [m/a.test]", "m/a.test", "m/b", "m/b_test [m/b.test]", "m/c"}
	if !slices.Equal(got, want) {
		t.Errorf("vetRoots = %q, want %q (as go vet: the test variant instead of the package)", got, want)
	}
}
