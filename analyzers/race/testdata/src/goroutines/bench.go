package goroutines

// A Spigot's loop reads the state its Send sets: a Spigot made by NewSpigot
// leaves it running.
type Spigot struct {
	state int
	in    chan int
}

func NewSpigot() *Spigot {
	p := &Spigot{in: make(chan int)}
	go p.loop()
	return p
}

// Open starts the spigot's loop.
func (p *Spigot) Open() {
	go p.loop()
}

func (p *Spigot) loop() {
	for v := range p.in {
		if p.state == 0 {
			p.state = v
		}
	}
}
