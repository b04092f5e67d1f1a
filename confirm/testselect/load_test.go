package testselect_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/confirm-go/confirm/confirm/testselect"
)

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name, dir, pattern, want string
	}{
		{"missing directory", "testdata/nosuch", "./...", "testdata/nosuch: no such file or directory"},
		{"not a directory", "testdata/selectmod/go.mod", "./...", "go.mod is not a directory"},
		{"no package", "testdata/selectmod", "./nosuch", "nosuch"},
		{"type error", "testdata/broken", "./...", `broken.go:3:23: cannot use "not an int"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := testselect.Load(context.Background(), tt.dir, tt.pattern, nil)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Load(%s, %s) error = %v, want one containing %q", tt.dir, tt.pattern, err, tt.want)
			}
		})
	}
}

func TestLoadCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := testselect.Load(ctx, filepath.Join("testdata", "selectmod"), "./...", nil); err == nil {
		t.Fatal("Load with a canceled context succeeded")
	}
}

func TestTests(t *testing.T) {
	prog := loadFixture(t, "selectmod", "./...")
	var got []string
	for _, tt := range prog.Tests() {
		got = append(got, tt.Package+"."+tt.Name)
	}
	want := "example.com/selectmod/bank.TestBoth example.com/selectmod/bank.TestDeep example.com/selectmod/bank.TestDeposit " +
		"example.com/selectmod/bank.TestExternalTransfer example.com/selectmod/bank.TestGo example.com/selectmod/bank.TestIface " +
		"example.com/selectmod/bank.TestNothing example.com/selectmod/bank.TestSub example.com/selectmod/bank.TestTotal"
	if strings.Join(got, " ") != want {
		t.Errorf("Tests() = %q\nwant %q", got, want)
	}
}
