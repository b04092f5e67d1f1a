package grpc9417

import (
	"context"
	"sync"
	"testing"
	"time"
)

type State int

const (
	Idle State = iota
	Connecting
	Ready
	TransientFailure
	Shutdown
)

type connectivityStateManager struct {
	mu         sync.Mutex
	state      State
	notifyChan chan struct{}
}

func (csm *connectivityStateManager) getState() State {
	csm.mu.Lock()
	defer csm.mu.Unlock()
	return csm.state
}

func (csm *connectivityStateManager) getNotifyChan() <-chan struct{} {
	ch := csm.notifyChan // race
	if ch == nil {
		ch = make(chan struct{})
		csm.notifyChan = ch // race
	}
	return ch
}

type ClientConn struct {
	target string
	csMgr  *connectivityStateManager
}

func (cc *ClientConn) GetState() State {
	return cc.csMgr.getState()
}

func (cc *ClientConn) WaitForStateChange(ctx context.Context, sourceState State) bool {
	ch := cc.csMgr.getNotifyChan()
	if cc.csMgr.getState() != sourceState {
		return true
	}
	select {
	case <-ctx.Done():
		return false
	case <-ch:
		return true
	}
}

func TestWaitForStateChangeConcurrent(t *testing.T) {
	cc := &ClientConn{
		target: "passthrough:///localhost:50051",
		csMgr:  &connectivityStateManager{state: Idle},
	}
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Millisecond)
			defer cancel()
			if cc.WaitForStateChange(ctx, Idle) {
				t.Errorf("state changed unexpectedly to %v", cc.GetState())
			}
		}()
	}
	wg.Wait()
}
