package basic

import "sync"

// Nested selects, multi-line operands and receives in odd places.
func Tricky(in chan int, out chan int) (log []int) {
	var mu sync.Mutex
	m := map[string]int{}
	done := make(chan struct{})
	recorded := make(chan bool)
	go record(&mu, &log, <-in, recorded)
	<-recorded
outer:
	for i := 0; i < 3; i++ {
		select {
		case out <- func() int {
			x := i * 10
			return x
		}():
			select {
			case m["k"] = <-out:
				if m["k"] == 10 {
					continue outer
				}
			default:
				break outer
			}
		case v := <-in:
			for w := range in {
				if w < 0 {
					break
				}
				v += w
			}
			log = append(log, v)
		}
	}
	go func(a, b int) {
		defer close(done)
		mu.Lock()
		log = append(log, a+b)
		mu.Unlock()
	}(m["k"],
		len(log))
	<-done
	return log
}

func record(mu *sync.Mutex, log *[]int, v int, done chan<- bool) {
	mu.Lock()
	*log = append(*log, v)
	mu.Unlock()
	done <- true
}

type pipe struct {
	out chan int
	val int
}

// Push sends p.val on p.out unless quit is closed.
func (p *pipe) Push(quit chan bool) bool {
	select {
	case p.out <- p.val:
		return true
	case <-quit:
		return false
	}
}
