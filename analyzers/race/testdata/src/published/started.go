package published

// A Resolver polls in a goroutine that its poll method starts.
type Resolver struct {
	target string
	polls  int
}

func (r *Resolver) resolveNow() {
	r.polls += len(r.target)
}

func (r *Resolver) poll() {
	go func() { r.resolveNow() }()
}

// dial is only ever handed a new resolver, which its poll publishes to
// the goroutine: setting the target after that races with it.
func dial(r *Resolver, target string) {
	r.poll()
	r.target = target // want `possible data race: \(published.Resolver\).target is written by published.dial and read by goroutine \(\*published.Resolver\).poll\$1`
}

// dialSet sets the target first. Silent.
func dialSet(r *Resolver, target string) {
	r.target = target
	r.poll()
}

// DialResolver dials target.
func DialResolver(target string) *Resolver {
	r := &Resolver{}
	dial(r, target)
	s := &Resolver{}
	dialSet(s, target)
	return s
}
