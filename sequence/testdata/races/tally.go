package races

// Tally is bumped and dropped without a lock.
type Tally struct{ n int }

func (t *Tally) Bump() {
	t.n++
}

func (t *Tally) Drop() {
	t.n--
}
