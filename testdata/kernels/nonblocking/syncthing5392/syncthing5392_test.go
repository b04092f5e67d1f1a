package syncthing5392

import (
	"context"
	"sync"
	"testing"
	"time"
)

type Event struct {
	Name string
}

type Filesystem interface {
	Watch(ctx context.Context, name string) (<-chan Event, error)
}

type fakeFilesystem struct {
	setupDelay time.Duration
}

func (fs *fakeFilesystem) Watch(ctx context.Context, name string) (<-chan Event, error) {
	time.Sleep(fs.setupDelay)
	ch := make(chan Event)
	go func() {
		<-ctx.Done()
		close(ch)
	}()
	return ch, nil
}

func aggregate(ctx context.Context, in <-chan Event, out chan<- []string) {
	var batch []string
	for {
		select {
		case ev, ok := <-in:
			if !ok {
				return
			}
			batch = append(batch, ev.Name)
			select {
			case out <- batch:
				batch = nil
			case <-ctx.Done():
				return
			}
		case <-ctx.Done():
			return
		}
	}
}

type folder struct {
	ID         string
	ctx        context.Context
	filesystem Filesystem

	watchCancel      context.CancelFunc
	watchChan        chan []string
	restartWatchChan chan struct{}
	scanned          [][]string
	wg               sync.WaitGroup
}

func newFolder(ctx context.Context, id string, fs Filesystem) *folder {
	return &folder{
		ID:               id,
		ctx:              ctx,
		filesystem:       fs,
		restartWatchChan: make(chan struct{}, 1),
	}
}

func (f *folder) Serve() {
	f.startWatch()
	for {
		select {
		case <-f.ctx.Done():
			f.stopWatch()
			return
		case fsEvents := <-f.watchChan:
			f.scanned = append(f.scanned, fsEvents)
		case <-f.restartWatchChan:
			f.restartWatch()
		}
	}
}

func (f *folder) scheduleWatchRestart() {
	select {
	case f.restartWatchChan <- struct{}{}:
	default:
	}
}

func (f *folder) restartWatch() {
	f.stopWatch()
	f.startWatch()
}

func (f *folder) startWatch() {
	ctx, cancel := context.WithCancel(f.ctx)
	f.watchChan = make(chan []string) // race
	f.watchCancel = cancel
	f.wg.Add(1)
	go f.startWatchAsync(ctx)
}

func (f *folder) stopWatch() {
	if f.watchCancel != nil {
		f.watchCancel()
	}
}

func (f *folder) startWatchAsync(ctx context.Context) {
	defer f.wg.Done()
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-timer.C:
			eventChan, err := f.filesystem.Watch(ctx, ".")
			if err != nil {
				timer.Reset(time.Second)
				continue
			}
			f.wg.Add(1)
			go func() {
				defer f.wg.Done()
				aggregate(ctx, eventChan, f.watchChan) // race
			}()
			return
		case <-ctx.Done():
			return
		}
	}
}

func TestRestartWatch(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	f := newFolder(ctx, "default", &fakeFilesystem{setupDelay: 5 * time.Millisecond})
	done := make(chan struct{})
	go func() {
		f.Serve()
		close(done)
	}()
	time.Sleep(time.Millisecond)
	f.scheduleWatchRestart()
	time.Sleep(10 * time.Millisecond)
	cancel()
	<-done
	f.wg.Wait()
}
