package grpc2104

import (
	"errors"
	"strconv"
	"sync"
	"testing"
)

var ErrIllegalHeaderWrite = errors.New("transport: the stream is done or WriteHeader was already called")

type hpackField struct {
	Name, Value string
}

type headerFrame struct {
	streamID  uint32
	hf        []hpackField
	endStream bool
}

type Status struct {
	Code    int
	Message string
}

type Stream struct {
	id uint32

	mu         sync.Mutex
	header     map[string]string
	headerSent bool
}

type http2Server struct {
	mu            sync.Mutex
	controlBuf    []*headerFrame
	activeStreams map[uint32]*Stream
}

func newHTTP2Server() *http2Server {
	return &http2Server{activeStreams: make(map[uint32]*Stream)}
}

func (t *http2Server) put(f *headerFrame) {
	t.mu.Lock()
	t.controlBuf = append(t.controlBuf, f)
	t.mu.Unlock()
}

func (t *http2Server) WriteHeader(s *Stream, md map[string]string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.headerSent {
		return ErrIllegalHeaderWrite
	}
	for k, v := range md {
		s.header[k] = v
	}
	hf := []hpackField{{":status", "200"}, {"content-type", "application/grpc"}}
	for k, v := range s.header {
		hf = append(hf, hpackField{k, v})
	}
	s.headerSent = true // race
	t.put(&headerFrame{streamID: s.id, hf: hf})
	return nil
}

func (t *http2Server) WriteStatus(s *Stream, st *Status) error {
	var headerFields []hpackField
	if !s.headerSent { // race
		headerFields = append(headerFields,
			hpackField{":status", "200"},
			hpackField{"content-type", "application/grpc"})
	}
	headerFields = append(headerFields,
		hpackField{"grpc-status", strconv.Itoa(st.Code)},
		hpackField{"grpc-message", st.Message})
	t.put(&headerFrame{streamID: s.id, hf: headerFields, endStream: true})
	t.closeStream(s)
	return nil
}

func (t *http2Server) closeStream(s *Stream) {
	t.mu.Lock()
	delete(t.activeStreams, s.id)
	t.mu.Unlock()
}

func TestHandlerDeadlineWriteStatus(t *testing.T) {
	ht := newHTTP2Server()
	s := &Stream{id: 1, header: make(map[string]string)}
	ht.activeStreams[s.id] = s

	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		ht.WriteHeader(s, map[string]string{"x-watch-id": "7"})
	}()
	go func() {
		defer wg.Done()
		ht.WriteStatus(s, &Status{Code: 1, Message: "context canceled"})
	}()
	wg.Wait()
}
