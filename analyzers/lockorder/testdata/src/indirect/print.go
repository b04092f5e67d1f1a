package indirect

import (
	"fmt"
	"log"
	"sync"
)

// fmt calls the String or Error method of what it prints: under the lock
// that method takes, printing the value locks it again (cockroach6181).

type RangeCache struct {
	mu     sync.RWMutex
	ranges []int
}

func (c *RangeCache) String() string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return fmt.Sprint(len(c.ranges))
}

func (c *RangeCache) Lookup() {
	c.mu.RLock() // want `recursive read lock: \(\*indirect.RangeCache\).Lookup read-locks c.mu via fmt.Printf -> \(\*indirect.RangeCache\).String while already holding its read lock`
	fmt.Printf("lookup in %s\n", c)
	c.mu.RUnlock()
}

func (c *RangeCache) Insert(r int) {
	c.mu.Lock()
	c.ranges = append(c.ranges, r)
	c.mu.Unlock()
}

// Its twin prints after releasing the lock.
func (c *RangeCache) LookupFixed() {
	c.mu.RLock()
	n := len(c.ranges)
	c.mu.RUnlock()
	fmt.Printf("lookup of %d in %s\n", n, c)
}

// An error whose Error method locks, logged under the same lock.

var levelMu sync.Mutex

type Level int

var names = map[Level]string{}

func (l Level) Error() string {
	levelMu.Lock()
	defer levelMu.Unlock()
	return names[l]
}

func SetLevel(l Level, name string) {
	levelMu.Lock() // want `double lock: indirect.SetLevel locks indirect.levelMu via log.Printf -> \(indirect.Level\).Error while already holding it`
	defer levelMu.Unlock()
	names[l] = name
	log.Printf("level %v is %q", l, name)
}

// Its twin prints the level as a number: %d does not call Error.
func SetLevelNumber(l Level, name string) {
	levelMu.Lock()
	defer levelMu.Unlock()
	names[l] = name
	log.Printf("level %d is %q", l, name)
}
