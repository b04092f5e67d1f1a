package istio10495

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

var ErrServerClosed = errors.New("http: Server closed")

type httpServer struct {
	Addr    string
	closeCh chan struct{}
	once    sync.Once
}

func newHTTPServer(addr string) *httpServer {
	return &httpServer{Addr: addr, closeCh: make(chan struct{})}
}

func (s *httpServer) ListenAndServe() error {
	<-s.closeCh
	return ErrServerClosed
}

func (s *httpServer) Shutdown(ctx context.Context) error {
	s.once.Do(func() { close(s.closeCh) })
	return nil
}

type startFunc func(stop <-chan struct{}) error

type PilotArgs struct {
	HTTPAddr       string
	SecureHTTPAddr string
	CertDir        string
}

func waitForCertificates(dir string) error {
	if dir == "" {
		return errors.New("no certificate directory")
	}
	return nil
}

type Server struct {
	httpServer       *httpServer
	secureHTTPServer *httpServer
	startFuncs       []startFunc
	shutdownDone     chan struct{}
}

func NewServer(args PilotArgs) *Server {
	s := &Server{shutdownDone: make(chan struct{})}
	s.initHTTPServer(args)
	s.initSecureWebhookServer(args)
	return s
}

func (s *Server) addStartFunc(fn startFunc) {
	s.startFuncs = append(s.startFuncs, fn)
}

func (s *Server) initHTTPServer(args PilotArgs) {
	s.httpServer = newHTTPServer(args.HTTPAddr)
	s.addStartFunc(func(stop <-chan struct{}) error {
		go s.httpServer.ListenAndServe()
		go func() {
			defer close(s.shutdownDone)
			<-stop
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			defer cancel()
			s.httpServer.Shutdown(ctx)
			if srv := s.secureHTTPServer; srv != nil { // race
				srv.Shutdown(ctx)
			}
		}()
		return nil
	})
}

func (s *Server) initSecureWebhookServer(args PilotArgs) {
	if args.SecureHTTPAddr == "" {
		return
	}
	s.addStartFunc(func(stop <-chan struct{}) error {
		srv := newHTTPServer(args.SecureHTTPAddr)
		go func() {
			if err := waitForCertificates(args.CertDir); err != nil {
				return
			}
			s.secureHTTPServer = srv // race
			srv.ListenAndServe()
		}()
		return nil
	})
}

func (s *Server) Start(stop <-chan struct{}) error {
	for _, fn := range s.startFuncs {
		if err := fn(stop); err != nil {
			return err
		}
	}
	return nil
}

func TestPilotServerShutdown(t *testing.T) {
	s := NewServer(PilotArgs{HTTPAddr: ":8080", SecureHTTPAddr: ":15017", CertDir: "/etc/certs"})
	stop := make(chan struct{})
	if err := s.Start(stop); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Millisecond)
	close(stop)
	<-s.shutdownDone
}
