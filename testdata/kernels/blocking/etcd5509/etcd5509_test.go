package etcd5509

import (
	"context"
	"errors"
	"sync"
	"testing"
)

var ErrConnClosed = errors.New("clientv3: connection closed")

type ClientConn struct {
	target string
}

type Client struct {
	mu       sync.RWMutex
	conn     *ClientConn
	ctx      context.Context
	cancel   context.CancelFunc
	reconnc  chan struct{}
	newconnc chan struct{}
}

func New(target string) *Client {
	ctx, cancel := context.WithCancel(context.Background())
	return &Client{
		conn:     &ClientConn{target: target},
		ctx:      ctx,
		cancel:   cancel,
		reconnc:  make(chan struct{}, 1),
		newconnc: make(chan struct{}),
	}
}

func (c *Client) Close() error {
	c.mu.Lock() // deadlock
	defer c.mu.Unlock()
	if c.cancel == nil {
		return nil
	}
	c.cancel()
	c.cancel = nil
	c.conn = nil
	return nil
}

func (c *Client) retryConnection(target string) {
	c.mu.Lock()
	if c.cancel == nil {
		c.mu.Unlock()
		return
	}
	c.conn = &ClientConn{target: target}
	close(c.newconnc)
	c.newconnc = make(chan struct{})
	c.mu.Unlock()
}

type remoteClient struct {
	client *Client
	conn   *ClientConn
	mu     sync.Mutex
}

func newRemoteClient(client *Client) *remoteClient {
	client.mu.RLock()
	defer client.mu.RUnlock()
	return &remoteClient{client: client, conn: client.conn}
}

func (r *remoteClient) reconnectWait(ctx context.Context) error {
	r.client.mu.RLock()
	newconnc := r.client.newconnc
	r.client.mu.RUnlock()
	select {
	case r.client.reconnc <- struct{}{}:
	default:
	}
	select {
	case <-newconnc:
	case <-ctx.Done():
		return ctx.Err()
	}
	r.client.mu.RLock()
	r.mu.Lock()
	r.conn = r.client.conn
	r.mu.Unlock()
	r.client.mu.RUnlock()
	return nil
}

func (r *remoteClient) acquire(ctx context.Context) error {
	for {
		r.client.mu.RLock() // deadlock
		closed := r.client.cancel == nil
		c := r.client.conn
		r.mu.Lock()
		match := r.conn == c
		r.mu.Unlock()
		if match {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		r.client.mu.RUnlock()
		if closed {
			return ErrConnClosed
		}
		if err := r.reconnectWait(ctx); err != nil {
			return err
		}
	}
}

func (r *remoteClient) release() {
	r.client.mu.RUnlock()
}

type kv struct {
	remote *remoteClient
}

func (kv *kv) Get(ctx context.Context, key string) (string, error) {
	if err := kv.remote.acquire(ctx); err != nil {
		return "", err
	}
	defer kv.remote.release()
	return key, nil
}

func TestEtcd5509(t *testing.T) {
	cli := New("127.0.0.1:2379")
	kvc := &kv{remote: newRemoteClient(cli)}

	go func() {
		<-cli.reconnc
		cli.retryConnection("127.0.0.1:22379")
	}()
	cli.retryConnection("127.0.0.1:32379")

	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		kvc.Get(ctx, "foo")
	}()
	go func() {
		defer wg.Done()
		cancel()
	}()
	wg.Wait()
	cli.Close()
}
