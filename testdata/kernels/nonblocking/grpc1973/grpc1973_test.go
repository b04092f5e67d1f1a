package grpc1973

import (
	"strings"
	"sync"
	"testing"
)

type SubConn interface {
	Connect()
}

type ClientConn interface {
	NewSubConn(addrs []string) (SubConn, error)
}

type BuildOptions struct {
	DialCreds string
}

type Balancer interface {
	HandleResolvedAddrs(addrs []string, err error)
	Close()
}

type Builder interface {
	Build(cc ClientConn, opts BuildOptions) Balancer
	Name() string
}

var m = make(map[string]Builder)

func Register(b Builder) {
	m[strings.ToLower(b.Name())] = b // race
}

func Get(name string) Builder {
	if b, ok := m[strings.ToLower(name)]; ok { // race
		return b
	}
	return nil
}

type baseBuilder struct{ name string }

func (bb *baseBuilder) Build(cc ClientConn, opts BuildOptions) Balancer {
	return &baseBalancer{cc: cc}
}
func (bb *baseBuilder) Name() string { return bb.name }

type baseBalancer struct {
	cc    ClientConn
	addrs []string
}

func (b *baseBalancer) HandleResolvedAddrs(addrs []string, err error) { b.addrs = addrs }
func (b *baseBalancer) Close()                                        {}

type fakeSubConn struct{ addrs []string }

func (sc *fakeSubConn) Connect() {}

type grpcClientConn struct {
	target   string
	mu       sync.Mutex
	balancer Balancer
}

func (cc *grpcClientConn) NewSubConn(addrs []string) (SubConn, error) {
	return &fakeSubConn{addrs: addrs}, nil
}

func (cc *grpcClientConn) switchBalancer(name string) {
	builder := Get(name)
	if builder == nil {
		builder = &baseBuilder{name: "pick_first"}
	}
	cc.mu.Lock()
	defer cc.mu.Unlock()
	if cc.balancer != nil {
		cc.balancer.Close()
	}
	cc.balancer = builder.Build(cc, BuildOptions{})
}

func Dial(target, balancerName string) *grpcClientConn {
	cc := &grpcClientConn{target: target}
	cc.switchBalancer(balancerName)
	return cc
}

type etcdClient struct {
	conn *grpcClientConn
}

func newEtcdClient(endpoints []string) *etcdClient {
	Register(&baseBuilder{name: "etcd-" + strings.Join(endpoints, ",")})
	return &etcdClient{conn: Dial(endpoints[0], "round_robin")}
}

func TestBalancerRegisterConcurrentWithDial(t *testing.T) {
	Register(&baseBuilder{name: "round_robin"})

	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		newEtcdClient([]string{"localhost:2379"})
	}()
	go func() {
		defer wg.Done()
		Dial("localhost:50051", "round_robin")
	}()
	wg.Wait()
}
