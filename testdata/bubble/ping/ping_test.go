package ping

import (
	"testing"
	"testing/synctest"
)

func TestPing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ch := make(chan int)
		if got := Ping(ch); got != 1 {
			t.Errorf("Ping = %d", got)
		}
	})
}
