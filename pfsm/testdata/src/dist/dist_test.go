package dist

import "testing"

func TestSpawn(t *testing.T) {
	spawner() // @ts
}
