package indirect

import "sync"

// Hooks are callbacks a session wraps: each wrapper reads the hook it
// replaces before it stores itself, and calls that one under the
// session's lock (franz-go's GroupTransactSession). The wrapper never
// calls itself, nor the wrapper stored after it: silent.
type Hooks struct {
	OnRevoked func()
	OnLost    func()
}

type Session struct {
	mu    sync.Mutex
	hooks *Hooks
	lost  bool
}

func NewSession(h *Hooks) *Session {
	s := &Session{hooks: h}
	userRevoked := h.OnRevoked
	userLost := h.OnLost
	h.OnRevoked = func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if userRevoked != nil {
			userRevoked()
		}
	}
	h.OnLost = func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.lost = true
		if userLost != nil {
			userLost()
		} else if userRevoked != nil {
			userRevoked()
		}
	}
	return s
}

// A hook that calls another hook as the field holds it when it runs,
// under the lock both hooks take: when the field holds the other hook,
// it locks again.
type RelayHooks struct {
	OnRevoked func()
	OnLost    func()
}

type Relay struct {
	mu    sync.Mutex
	hooks *RelayHooks
	lost  bool
}

func NewRelay(h *RelayHooks) *Relay {
	r := &Relay{hooks: h}
	h.OnRevoked = func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.lost = false
	}
	h.OnLost = func() {
		r.mu.Lock() // want `double lock: indirect.NewRelay\$2 locks \(indirect.Relay\).mu via indirect.NewRelay\$1 while already holding it`
		defer r.mu.Unlock()
		r.lost = true
		h.OnRevoked()
	}
	return r
}
