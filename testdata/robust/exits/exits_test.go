package exits

import "testing"

func TestStop(t *testing.T) {
	Stop()
}

func TestStopInDependency(t *testing.T) {
	StopInDependency()
}
