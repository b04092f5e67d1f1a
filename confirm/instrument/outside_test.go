package instrument

import (
	"reflect"
	"testing"

	"golang.org/x/tools/go/packages"
)

// TestSyncingPackages checks which packages outside the standard library
// count as ones that may synchronize: those importing sync or sync/atomic,
// and the packages of the same module that import them; not a package
// that reaches sync only through another module.
func TestSyncingPackages(t *testing.T) {
	std := func(path string) *packages.Package { return &packages.Package{PkgPath: path} }
	mod := func(m string) *packages.Module { return &packages.Module{Path: m} }
	pkg := func(path string, m *packages.Module, imports ...*packages.Package) *packages.Package {
		p := &packages.Package{PkgPath: path, Module: m, Imports: make(map[string]*packages.Package)}
		for _, q := range imports {
			p.Imports[q.PkgPath] = q
		}
		return p
	}
	sync, fmt := std("sync"), std("fmt")
	lib, yaml, assertMod, main := mod("example.com/lib"), mod("gopkg.in/yaml"), mod("example.com/assert"), mod("example.com/main")
	internal := pkg("example.com/lib/internal", lib, sync)
	api := pkg("example.com/lib/api", lib, internal)
	pure := pkg("example.com/lib/pure", lib, fmt)
	yamlPkg := pkg("gopkg.in/yaml", yaml, sync)
	assert := pkg("example.com/assert", assertMod, yamlPkg, fmt)
	root := pkg("example.com/main/p", main, api, pure, assert)
	got := syncingPackages([]*packages.Package{root})
	want := map[string]bool{"example.com/lib/internal": true, "example.com/lib/api": true, "gopkg.in/yaml": true}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("syncingPackages = %v, want %v", got, want)
	}
}
