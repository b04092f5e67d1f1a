package hidden

import "testing"

func TestCount(t *testing.T) {
	Count()
	if Requests() != 1 {
		t.Fatal(Requests())
	}
}
