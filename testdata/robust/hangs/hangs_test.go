package hangs

import "testing"

func TestStore(t *testing.T) {
	Store(1)
}
