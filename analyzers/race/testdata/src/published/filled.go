package published

import (
	"fmt"
	"sync"
)

// A Peer is shared once it is in a PeerRing; before, the function that
// made it fills and checks it alone.
type Peer struct {
	mu   sync.Mutex
	dc   string
	rack string
}

func (p *Peer) SetDC(dc string) {
	p.mu.Lock()
	p.dc = dc
	p.mu.Unlock()
}

func (p *Peer) DC() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.dc
}

func (p *Peer) Rack() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.rack
}

// fillPeer fills the peer it was handed and gives it back.
func fillPeer(row map[string]string, p *Peer) (*Peer, error) {
	v, ok := row["dc"]
	if !ok {
		return nil, fmt.Errorf("no dc")
	}
	p.dc = v
	p.rack = row["rack"]
	return p, nil
}

// validPeer reads the peer without its lock: it is only ever handed a
// peer fillPeer gave back, before the peer is published.
func validPeer(p *Peer) bool {
	return p.dc != "" && p.rack != ""
}

// usable reads the peer without its lock too, and is handed a peer of
// the ring: a race with SetDC.
func usable(p *Peer) bool {
	return p.dc != "" // want `possible data race: published.usable reads \(published.Peer\).dc without holding \(published.Peer\).mu`
}

type PeerRing struct {
	mu    sync.Mutex
	peers []*Peer
}

func (r *PeerRing) Refresh(rows []map[string]string) error {
	for _, row := range rows {
		p, err := fillPeer(row, &Peer{})
		if err != nil {
			return err
		}
		if !validPeer(p) {
			continue
		}
		r.mu.Lock()
		r.peers = append(r.peers, p)
		r.mu.Unlock()
	}
	return nil
}

func (r *PeerRing) First() bool {
	r.mu.Lock()
	p := r.peers[0]
	r.mu.Unlock()
	return usable(p)
}

// decodePeer makes a new peer from a row, or fails.
func decodePeer(row map[string]string) (*Peer, error) {
	if row == nil {
		return nil, fmt.Errorf("no row")
	}
	return &Peer{dc: row["dc"], rack: row["rack"]}, nil
}

// trimPeer edits, without its lock, only peers decodePeer has just made:
// no one else has them yet. Silent.
func trimPeer(p *Peer) {
	if p.rack == "" {
		p.rack = p.dc
	}
}

// AddRow decodes a row into a peer, trims it and adds it to the ring.
func (r *PeerRing) AddRow(row map[string]string) error {
	p, err := decodePeer(row)
	if err != nil {
		return err
	}
	trimPeer(p)
	r.mu.Lock()
	r.peers = append(r.peers, p)
	r.mu.Unlock()
	return nil
}
