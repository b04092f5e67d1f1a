package cockroach98657

import (
	"context"
	"sync"
	"testing"
	"time"
)

type Span struct {
	Key, EndKey string
}

type Timestamp struct {
	WallTime int64
}

type RangeFeedValue struct {
	Key       string
	Value     []byte
	Timestamp Timestamp
}

type RangeFeedEvent struct {
	Val        *RangeFeedValue
	Checkpoint *Timestamp
}

type rangeFeedStream interface {
	Recv() (*RangeFeedEvent, error)
}

type fakeStream struct {
	ctx context.Context
	n   int64
}

func (s *fakeStream) Recv() (*RangeFeedEvent, error) {
	select {
	case <-s.ctx.Done():
		return nil, s.ctx.Err()
	case <-time.After(100 * time.Microsecond):
	}
	s.n++
	return &RangeFeedEvent{Val: &RangeFeedValue{Key: "/Table/104/1/1", Timestamp: Timestamp{WallTime: s.n}}}, nil
}

type activeRangeFeed struct {
	Span Span

	mu struct {
		sync.Mutex
		resolved  Timestamp
		numEvents int
		filter    func(ev *RangeFeedEvent) bool
	}
}

func (a *activeRangeFeed) setFilter(f func(ev *RangeFeedEvent) bool) {
	a.mu.filter = f // race
}

func (a *activeRangeFeed) onRangeEvent(ev *RangeFeedEvent) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if filter := a.mu.filter; filter != nil && !filter(ev) { // race
		return false
	}
	a.mu.numEvents++
	if ev.Val != nil && ev.Val.Timestamp.WallTime > a.mu.resolved.WallTime {
		a.mu.resolved = ev.Val.Timestamp
	}
	return true
}

type DistSender struct{}

func (ds *DistSender) partialRangeFeed(
	ctx context.Context, active *activeRangeFeed, stream rangeFeedStream, eventCh chan<- *RangeFeedEvent,
) error {
	for {
		ev, err := stream.Recv()
		if err != nil {
			return err
		}
		if !active.onRangeEvent(ev) {
			continue
		}
		select {
		case eventCh <- ev:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func (ds *DistSender) RangeFeed(ctx context.Context, span Span, eventCh chan<- *RangeFeedEvent) (*activeRangeFeed, <-chan error) {
	active := &activeRangeFeed{Span: span}
	errCh := make(chan error, 1)
	go func() {
		errCh <- ds.partialRangeFeed(ctx, active, &fakeStream{ctx: ctx}, eventCh)
	}()
	return active, errCh
}

func TestRangeFeedWithFilter(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	ds := &DistSender{}
	eventCh := make(chan *RangeFeedEvent, 128)
	active, errCh := ds.RangeFeed(ctx, Span{Key: "/Table/104", EndKey: "/Table/105"}, eventCh)

	time.Sleep(time.Millisecond)
	active.setFilter(func(ev *RangeFeedEvent) bool {
		return ev.Val != nil && ev.Val.Timestamp.WallTime%2 == 0
	})
	time.Sleep(time.Millisecond)
	cancel()
	<-errCh
}
