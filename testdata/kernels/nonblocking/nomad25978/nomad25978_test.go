package nomad25978

import (
	"io"
	"log"
	"net"
	"sync"
	"testing"
	"time"
)

type YamuxConfig struct {
	AcceptBacklog          int
	EnableKeepAlive        bool
	KeepAliveInterval      time.Duration
	ConnectionWriteTimeout time.Duration
	MaxStreamWindowSize    uint32
	LogOutput              io.Writer
	Logger                 *log.Logger
}

func DefaultYamuxConfig() *YamuxConfig {
	return &YamuxConfig{
		AcceptBacklog:          256,
		EnableKeepAlive:        true,
		KeepAliveInterval:      30 * time.Second,
		ConnectionWriteTimeout: 10 * time.Second,
		MaxStreamWindowSize:    256 * 1024,
	}
}

type Session struct {
	conn   net.Conn
	config *YamuxConfig
	client bool
}

func newSession(config *YamuxConfig, conn net.Conn, client bool) *Session {
	return &Session{conn: conn, config: config, client: client}
}

func (s *Session) Close() error { return s.conn.Close() }

type serverConfig struct {
	Region           string
	RPCSessionConfig *YamuxConfig
}

type rpcHandler struct {
	config *serverConfig
	logger *log.Logger
}

func (r *rpcHandler) handleConn(conn net.Conn) {
	buf := make([]byte, 1)
	if _, err := conn.Read(buf); err != nil {
		conn.Close()
		return
	}
	switch buf[0] {
	case byte(rpcMultiplexV2):
		r.handleMultiplexV2(conn)
	default:
		conn.Close()
	}
}

const rpcMultiplexV2 = 4

func (r *rpcHandler) handleMultiplexV2(conn net.Conn) {
	conf := r.config.RPCSessionConfig
	conf.Logger = r.logger // race
	server := newSession(conf, conn, false)
	defer server.Close()
}

type ConnPool struct {
	sync.Mutex
	logger      *log.Logger
	yamuxConfig *YamuxConfig
	pool        map[string]*Session
	dial        func(addr string) (net.Conn, error)
}

func NewPool(logger *log.Logger, yamuxConfig *YamuxConfig, dial func(string) (net.Conn, error)) *ConnPool {
	return &ConnPool{
		logger:      logger,
		yamuxConfig: yamuxConfig,
		pool:        make(map[string]*Session),
		dial:        dial,
	}
}

func (p *ConnPool) getNewConn(region, addr string) (*Session, error) {
	conn, err := p.dial(addr)
	if err != nil {
		return nil, err
	}
	if _, err := conn.Write([]byte{byte(rpcMultiplexV2)}); err != nil {
		conn.Close()
		return nil, err
	}
	conf := p.yamuxConfig
	conf.Logger = p.logger // race
	return newSession(conf, conn, true), nil
}

func (p *ConnPool) acquire(region, addr string) (*Session, error) {
	p.Lock()
	if s, ok := p.pool[addr]; ok {
		p.Unlock()
		return s, nil
	}
	p.Unlock()
	s, err := p.getNewConn(region, addr)
	if err != nil {
		return nil, err
	}
	p.Lock()
	p.pool[addr] = s
	p.Unlock()
	return s, nil
}

func (p *ConnPool) Shutdown() {
	p.Lock()
	defer p.Unlock()
	for _, s := range p.pool {
		s.Close()
	}
}

func TestServer_RPC_MultiplexV2(t *testing.T) {
	sessionConfig := DefaultYamuxConfig()
	cfg := &serverConfig{Region: "global", RPCSessionConfig: sessionConfig}

	serverLogger := log.New(io.Discard, "nomad.rpc: ", log.LstdFlags)
	poolLogger := log.New(io.Discard, "nomad.pool: ", log.LstdFlags)
	handler := &rpcHandler{config: cfg, logger: serverLogger}

	inbound, remote := net.Pipe()
	defer remote.Close()
	pool := NewPool(poolLogger, sessionConfig, func(addr string) (net.Conn, error) {
		c1, c2 := net.Pipe()
		go io.Copy(io.Discard, c2)
		return c1, nil
	})
	defer pool.Shutdown()

	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		handler.handleConn(inbound)
	}()
	go func() {
		defer wg.Done()
		if _, err := pool.acquire("global", "10.0.0.2:4647"); err != nil {
			t.Errorf("acquire: %v", err)
		}
	}()
	remote.Write([]byte{byte(rpcMultiplexV2)})
	wg.Wait()
}
