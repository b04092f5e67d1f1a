package etcd5800

import (
	"context"
	"errors"
	"testing"
)

type Event struct {
	Key string
	Rev int64
}

type WatchResponse struct {
	Events   []*Event
	closeErr error
}

func (wr *WatchResponse) Err() error { return wr.closeErr }

type watchRequest struct {
	key  string
	retc chan chan WatchResponse
}

type watcherStream struct {
	id    int64
	key   string
	recvc chan *WatchResponse
	outc  chan WatchResponse
	donec chan struct{}
}

type watchGrpcStream struct {
	ctx    context.Context
	cancel context.CancelFunc

	reqc       chan *watchRequest
	respc      chan *WatchResponse
	donec      chan struct{}
	substreams map[int64]*watcherStream
	nextID     int64

	closeErr error
}

func newWatchGrpcStream(ctx context.Context) *watchGrpcStream {
	cctx, cancel := context.WithCancel(ctx)
	w := &watchGrpcStream{
		ctx:        cctx,
		cancel:     cancel,
		reqc:       make(chan *watchRequest),
		respc:      make(chan *WatchResponse),
		donec:      make(chan struct{}),
		substreams: make(map[int64]*watcherStream),
	}
	go w.run()
	return w
}

func (w *watchGrpcStream) Watch(key string) chan WatchResponse {
	req := &watchRequest{key: key, retc: make(chan chan WatchResponse, 1)}
	select {
	case w.reqc <- req:
	case <-w.donec:
		return nil
	}
	return <-req.retc
}

func (w *watchGrpcStream) Close() error {
	w.cancel()
	<-w.donec
	return nil
}

func (w *watchGrpcStream) run() {
	var closeErr error
	defer func() {
		w.closeErr = closeErr // race
		for _, ws := range w.substreams {
			<-ws.donec
		}
		close(w.donec)
	}()

	for {
		select {
		case req := <-w.reqc:
			ws := &watcherStream{
				id:    w.nextID,
				key:   req.key,
				recvc: make(chan *WatchResponse),
				outc:  make(chan WatchResponse, 1),
				donec: make(chan struct{}),
			}
			w.nextID++
			w.substreams[ws.id] = ws
			go w.serveSubstream(ws)
			req.retc <- ws.outc
		case pbresp := <-w.respc:
			for _, ws := range w.substreams {
				ws.recvc <- pbresp
			}
		case <-w.ctx.Done():
			closeErr = errors.New("rpc error: code = Canceled desc = context canceled")
			return
		}
	}
}

func (w *watchGrpcStream) serveSubstream(ws *watcherStream) {
	defer func() {
		close(ws.outc)
		close(ws.donec)
	}()
	for {
		select {
		case wr := <-ws.recvc:
			ws.outc <- *wr
		case <-w.ctx.Done():
			if err := w.closeErr; err != nil { // race
				ws.outc <- WatchResponse{closeErr: err}
			}
			return
		}
	}
}

func TestWatchCancelOnServer(t *testing.T) {
	w := newWatchGrpcStream(context.Background())
	wch := w.Watch("foo")
	if wch == nil {
		t.Fatal("expected watch channel")
	}
	w.Close()
	for range wch {
	}
}
