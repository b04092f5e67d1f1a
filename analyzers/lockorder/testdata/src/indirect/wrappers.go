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

// Two functions each wrap the same hooks of a group's configuration: a
// session's option wraps onRevoked under the session's lock, and the
// group, once the options are applied, logs around whatever each hook
// is then, through a pointer to it. Each wrapper calls only the one
// installed before it, so neither reaches itself through the other:
// silent.
type groupConfig struct {
	onRevoked func()
	onLost    func()
}

// A GroupOpt configures a Group.
type GroupOpt func(*groupConfig)

// A Group runs its hooks.
type Group struct {
	cfg groupConfig
	log func(string)
}

// NewGroup applies opts, then logs around the hooks.
func NewGroup(log func(string), opts ...GroupOpt) *Group {
	g := &Group{log: log}
	for _, o := range opts {
		o(&g.cfg)
	}
	for _, hook := range []struct {
		name string
		set  *func()
	}{
		{"revoked", &g.cfg.onRevoked},
		{"lost", &g.cfg.onLost},
	} {
		user := *hook.set
		name := hook.name
		*hook.set = func() {
			g.log(name)
			if user != nil {
				user()
			}
		}
	}
	return g
}

// Revoke runs the revoked hook.
func (g *Group) Revoke() { g.cfg.onRevoked() }

// A GroupSession fails once its group's partitions are revoked.
type GroupSession struct {
	mu      sync.Mutex
	revoked bool
}

// NewGroupSession returns a session and the option that ties it to its
// group.
func NewGroupSession() (*GroupSession, GroupOpt) {
	s := &GroupSession{}
	return s, func(cfg *groupConfig) {
		userRevoked := cfg.onRevoked
		cfg.onRevoked = func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			s.revoked = true
			if userRevoked != nil {
				userRevoked()
			}
		}
	}
}
