package moby47287

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

type process struct {
	Pid   int
	exitc chan struct{}
	once  sync.Once
}

func (p *process) Wait() error {
	<-p.exitc
	return errors.New("signal: killed")
}

func (p *process) Kill() {
	p.once.Do(func() { close(p.exitc) })
}

type cmd struct {
	path    string
	args    []string
	Process *process
}

func (c *cmd) Start() error {
	if c.path == "" {
		return errors.New("exec: no command")
	}
	c.Process = &process{Pid: 4242, exitc: make(chan struct{})}
	return nil
}

func (c *cmd) Wait() error { return c.Process.Wait() }

type remote struct {
	daemonPid     int
	daemonWaitCh  chan struct{}
	daemonStartCh chan error
	daemonStopCh  chan struct{}
	proc          *process
	logs          []string
}

func (r *remote) startContainerd() error {
	c := &cmd{path: "containerd", args: []string{"--config", "/var/run/docker/containerd/containerd.toml"}}
	startedCh := make(chan error)
	go func() {
		err := c.Start()
		startedCh <- err
		if err != nil {
			return
		}
		waitCh := make(chan struct{})
		r.daemonWaitCh = waitCh // race
		_ = c.Wait()
		close(waitCh)
	}()
	if err := <-startedCh; err != nil {
		return err
	}
	r.daemonPid = c.Process.Pid
	r.proc = c.Process
	return nil
}

func (r *remote) monitorDaemon(ctx context.Context) {
	defer close(r.daemonStopCh)
	started := false
	for {
		if r.daemonPid == -1 {
			if err := r.startContainerd(); err != nil {
				r.logs = append(r.logs, "failed starting containerd: "+err.Error())
				return
			}
			if !started {
				started = true
				r.daemonStartCh <- nil
			}
		}

		select {
		case <-ctx.Done():
			r.proc.Kill()
			return
		case <-r.daemonWaitCh: // race
			r.logs = append(r.logs, "containerd exited, restarting")
			r.daemonPid = -1
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func Start(ctx context.Context) (*remote, error) {
	r := &remote{
		daemonPid:     -1,
		daemonStartCh: make(chan error, 1),
		daemonStopCh:  make(chan struct{}),
	}
	go r.monitorDaemon(ctx)
	if err := <-r.daemonStartCh; err != nil {
		return nil, err
	}
	return r, nil
}

func TestSupervisorStartStop(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	r, err := Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Millisecond)
	cancel()
	<-r.daemonStopCh
}
