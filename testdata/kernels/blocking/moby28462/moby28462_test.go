package moby28462

import (
	"sync"
	"testing"
	"time"
)

const (
	Starting  = "starting"
	Healthy   = "healthy"
	Unhealthy = "unhealthy"
)

type HealthcheckResult struct {
	Start    time.Time
	End      time.Time
	ExitCode int
	Output   string
}

type Health struct {
	Status        string
	FailingStreak int
	Log           []*HealthcheckResult
	stop          chan struct{}
}

func (s *Health) OpenMonitorChannel() chan struct{} {
	if s.stop == nil {
		s.stop = make(chan struct{})
		return s.stop
	}
	return nil
}

func (s *Health) CloseMonitorChannel() {
	if s.stop != nil {
		s.stop <- struct{}{} // deadlock
		s.stop = nil
	}
}

type State struct {
	Running bool
	Pid     int
	Health  *Health
}

type Container struct {
	sync.Mutex
	ID    string
	State *State
}

type probe interface {
	run(c *Container) (*HealthcheckResult, error)
}

type cmdProbe struct{}

func (p *cmdProbe) run(c *Container) (*HealthcheckResult, error) {
	now := time.Now()
	return &HealthcheckResult{Start: now, End: now, ExitCode: 0, Output: "ok"}, nil
}

type Daemon struct {
	probeInterval time.Duration
}

func handleProbeResult(d *Daemon, c *Container, result *HealthcheckResult, done chan struct{}) {
	c.Lock() // deadlock
	defer c.Unlock()

	select {
	case <-done:
		return
	default:
	}

	h := c.State.Health
	h.Log = append(h.Log, result)
	if result.ExitCode == 0 {
		h.FailingStreak = 0
		h.Status = Healthy
	} else {
		h.FailingStreak++
		h.Status = Unhealthy
	}
}

func monitor(d *Daemon, c *Container, stop chan struct{}, probe probe) {
	for {
		select {
		case <-stop:
			return
		case <-time.After(d.probeInterval):
			result, err := probe.run(c)
			if err != nil {
				continue
			}
			handleProbeResult(d, c, result, stop)
		}
	}
}

func (d *Daemon) updateHealthMonitor(c *Container) {
	h := c.State.Health
	if h == nil {
		return
	}
	if stop := h.OpenMonitorChannel(); stop != nil {
		go monitor(d, c, stop, &cmdProbe{})
	}
}

func (d *Daemon) initHealthMonitor(c *Container) {
	c.State.Health = &Health{Status: Starting}
	d.updateHealthMonitor(c)
}

func (d *Daemon) stopHealthchecks(c *Container) {
	h := c.State.Health
	if h != nil {
		h.CloseMonitorChannel()
	}
}

func (d *Daemon) StateChanged(c *Container, action string) {
	c.Lock() // deadlock
	defer c.Unlock()
	switch action {
	case "die":
		d.stopHealthchecks(c)
		c.State.Running = false
		c.State.Pid = 0
	case "start":
		c.State.Running = true
	}
}

func TestMoby28462(t *testing.T) {
	d := &Daemon{probeInterval: time.Millisecond}
	c := &Container{ID: "4f3c2a1b", State: &State{Running: true, Pid: 4242}}
	d.initHealthMonitor(c)

	time.Sleep(3 * time.Millisecond)
	d.StateChanged(c, "die")
}
