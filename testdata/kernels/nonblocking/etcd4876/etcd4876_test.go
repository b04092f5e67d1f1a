package etcd4876

import (
	"errors"
	"sync"
	"testing"
	"time"
)

var errUnavailable = errors.New("etcdserver: unavailable")

type RangeResponse struct {
	Key   string
	Value string
}

type remoteKVClient interface {
	Range(key string) (*RangeResponse, error)
	Put(key, val string) error
}

type grpcConn struct {
	endpoint string
	down     bool
	data     map[string]string
}

func (c *grpcConn) Range(key string) (*RangeResponse, error) {
	if c.down {
		return nil, errUnavailable
	}
	return &RangeResponse{Key: key, Value: c.data[key]}, nil
}

func (c *grpcConn) Put(key, val string) error {
	if c.down {
		return errUnavailable
	}
	return nil
}

type Client struct {
	mu    sync.Mutex
	conns []*grpcConn
	cur   int
}

func (c *Client) retryConnection(oldErr error) (*grpcConn, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.conns) == 0 {
		return nil, oldErr
	}
	c.cur = (c.cur + 1) % len(c.conns)
	return c.conns[c.cur], nil
}

type opType int

const (
	tRange opType = iota
	tPut
)

type Op struct {
	t   opType
	key string
	val string
}

type kv struct {
	c      *Client
	remote remoteKVClient
}

func NewKV(c *Client) *kv {
	return &kv{c: c, remote: c.conns[0]}
}

func (kv *kv) Put(key, val string) error {
	_, err := kv.Do(Op{t: tPut, key: key, val: val})
	return err
}

func (kv *kv) Get(key string) (*RangeResponse, error) {
	return kv.Do(Op{t: tRange, key: key})
}

func (kv *kv) Do(op Op) (*RangeResponse, error) {
	remote := kv.remote // race
	var (
		resp *RangeResponse
		err  error
	)
	switch op.t {
	case tRange:
		resp, err = remote.Range(op.key)
	case tPut:
		err = remote.Put(op.key, op.val)
	}
	if err == nil {
		return resp, nil
	}
	go kv.switchRemote(err)
	return nil, err
}

func (kv *kv) switchRemote(prevErr error) {
	newConn, err := kv.c.retryConnection(prevErr)
	if err != nil {
		return
	}
	kv.remote = newConn // race
}

func TestKVPutFailGetRetry(t *testing.T) {
	c := &Client{conns: []*grpcConn{
		{endpoint: "localhost:2379", down: true},
		{endpoint: "localhost:22379", data: map[string]string{"foo": "bar"}},
	}}
	kv := NewKV(c)

	if err := kv.Put("foo", "bar"); err == nil {
		t.Fatalf("expected put to fail on a stopped member")
	}

	donec := make(chan struct{})
	go func() {
		defer close(donec)
		for i := 0; i < 1000; i++ {
			if _, err := kv.Get("foo"); err == nil {
				return
			}
			time.Sleep(time.Millisecond)
		}
		t.Errorf("get never succeeded")
	}()
	<-donec
}
