package joined

import (
	"log"
	"time"
)

type Response struct {
	status int
	body   []byte
}

func (r *Response) Read(b []byte) {
	r.status = 200                    // want `possible data race: \(joined.Response\).status is written by goroutine joined.Flood\$1 and written by another instance of joined.Flood\$1`
	r.body = append(r.body[:0], b...) // want `\(joined.Response\).body is written by goroutine joined.Flood\$1` `\(joined.Response\).body is read by goroutine joined.Flood\$1`
}

// RoundTrips reads each response in a goroutine and waits for it, or
// gives up for good, before the next round: one reader at a time. Silent.
func RoundTrips(reqs [][]byte) {
	resp := &Response{}
	for _, req := range reqs {
		done := make(chan struct{})
		go func() {
			resp.Read(req)
			close(done)
		}()
		select {
		case <-done:
		case <-time.After(time.Second):
			log.Fatalf("timeout")
		}
		if resp.status != 200 {
			log.Fatalf("status %d", resp.status)
		}
	}
}

// Flood starts a reader per request and waits only at the end: the
// readers share resp.
func Flood(reqs [][]byte) {
	resp := &Response{}
	done := make(chan struct{}, len(reqs))
	for _, req := range reqs {
		go func() {
			resp.Read(req)
			done <- struct{}{}
		}()
	}
	for range reqs {
		<-done
	}
}
