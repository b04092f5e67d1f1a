package rt

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// A replay token names a test and the decisions of one execution:
//
//	v1.<base64url(uvarint len(test), test, uvarint n, n × decision)>
//
// where a decision is uvarint(goroutine<<5 | op kind), followed for a
// select by uvarint(chosen case + 1) (0: default). The op kind lets replay
// detect that a goroutine does something else than recorded.
//
// A seed token, written before each execution so that a crash still
// leaves a way to reproduce it, names the strategy state instead:
//
//	v1s.<base64url(uvarint len(test), test, uvarint strategy, uvarint seed,
//	      uvarint execution, uvarint pct depth, uvarint pct k)>
const (
	tokenPrefix     = "v1."
	seedTokenPrefix = "v1s."
	noChoice        = -2
)

// tokEntry is one recorded decision.
type tokEntry struct {
	g      int
	op     opKind
	choice int // select case taken (-1 default), noChoice otherwise
}

// encodeToken encodes the decisions of an execution of test and the
// seed of its random source. With f, the token also records the failure
// the execution ends in (its kind and a hash of its signature), so that a
// replay knows what it must reproduce. The trailer after the decisions is
// a list of tagged fields: tag 1, uvarint(kind code), uvarint(signature
// hash); tag 2, uvarint(random seed).
func encodeToken(test string, entries []tokEntry, f *Failure, seed uint64) string {
	b := make([]byte, 0, 16+len(test)+2*len(entries))
	b = binary.AppendUvarint(b, uint64(len(test)))
	b = append(b, test...)
	b = binary.AppendUvarint(b, uint64(len(entries)))
	for _, t := range entries {
		b = binary.AppendUvarint(b, uint64(t.g)<<5|uint64(t.op))
		if t.op == opSelect {
			b = binary.AppendUvarint(b, uint64(t.choice+1))
		}
	}
	if f != nil {
		if k := slices.Index(failKinds, f.Kind); k >= 0 {
			b = binary.AppendUvarint(b, tagExpect)
			b = binary.AppendUvarint(b, uint64(k)+1)
			b = binary.AppendUvarint(b, f.signatureHash())
		}
	}
	if seed != 0 {
		b = binary.AppendUvarint(b, tagSeed)
		b = binary.AppendUvarint(b, seed)
	}
	return tokenPrefix + base64.RawURLEncoding.EncodeToString(b)
}

// The tags of a token's trailer fields.
const (
	tagExpect = 1
	tagSeed   = 2
)

// failKinds numbers the failure kinds in tokens: append only.
var failKinds = []string{FailTest, FailPanic, FailDeadlock, FailLeak, FailRace, FailExit, FailStuck}

// expectation is the failure a token's execution ended in.
type expectation struct {
	kind string
	sig  uint64 // Failure.signatureHash
}

// decodeToken decodes a token made by encodeToken; expect is nil when the
// token records no failure, seed 0 when it records none.
func decodeToken(tok string) (test string, entries []tokEntry, expect *expectation, seed uint64, err error) {
	raw, ok := strings.CutPrefix(tok, tokenPrefix)
	if !ok {
		return "", nil, nil, 0, fmt.Errorf("rt: replay token %.20q does not start with %q", tok, tokenPrefix)
	}
	b, err := base64.RawURLEncoding.DecodeString(raw)
	if err != nil {
		return "", nil, nil, 0, fmt.Errorf("rt: replay token is not base64url: %w", err)
	}
	d := tokDecoder{b: b}
	test = d.str()
	n := d.uint()
	if d.err == nil && n > uint64(len(b)) {
		d.err = errors.New("decision count exceeds token length")
	}
	for i := uint64(0); i < n && d.err == nil; i++ {
		v := d.uint()
		t := tokEntry{g: int(v >> 5), op: opKind(v & 31), choice: noChoice}
		if t.op >= numOpKinds {
			d.err = fmt.Errorf("decision %d has unknown operation %d", i, t.op)
		}
		if t.op == opSelect {
			t.choice = int(d.uint()) - 1
		}
		entries = append(entries, t)
	}
	for d.err == nil && len(d.b) != 0 {
		switch tag := d.uint(); tag {
		case tagExpect:
			k := d.uint()
			expect = &expectation{sig: d.uint()}
			if k == 0 || k > uint64(len(failKinds)) {
				d.err = fmt.Errorf("unknown failure kind %d", k)
			} else {
				expect.kind = failKinds[k-1]
			}
		case tagSeed:
			seed = d.uint()
		default:
			d.err = fmt.Errorf("unknown field %d", tag)
		}
	}
	if d.err != nil {
		return "", nil, nil, 0, fmt.Errorf("rt: malformed replay token: %w", d.err)
	}
	return test, entries, expect, seed, nil
}

// seedToken describes the strategy state that reproduces one execution.
type seedToken struct {
	test     string
	strategy uint64 // 1 random, 2 pct, 3 serial
	seed     int64
	n        int
	depth    int
	k        int
}

func (s seedToken) encode() string {
	var b []byte
	b = binary.AppendUvarint(b, uint64(len(s.test)))
	b = append(b, s.test...)
	b = binary.AppendUvarint(b, s.strategy)
	b = binary.AppendUvarint(b, uint64(s.seed))
	b = binary.AppendUvarint(b, uint64(s.n))
	b = binary.AppendUvarint(b, uint64(s.depth))
	b = binary.AppendUvarint(b, uint64(s.k))
	return seedTokenPrefix + base64.RawURLEncoding.EncodeToString(b)
}

func decodeSeedToken(tok string) (seedToken, error) {
	raw, _ := strings.CutPrefix(tok, seedTokenPrefix)
	b, err := base64.RawURLEncoding.DecodeString(raw)
	if err != nil {
		return seedToken{}, fmt.Errorf("rt: seed token is not base64url: %w", err)
	}
	d := tokDecoder{b: b}
	s := seedToken{test: d.str(), strategy: d.uint(), seed: int64(d.uint()), n: int(d.uint()), depth: int(d.uint()), k: int(d.uint())}
	if d.err == nil && len(d.b) != 0 {
		d.err = errors.New("trailing bytes")
	}
	if d.err != nil {
		return seedToken{}, fmt.Errorf("rt: malformed seed token: %w", d.err)
	}
	return s, nil
}

type tokDecoder struct {
	b   []byte
	err error
}

func (d *tokDecoder) uint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = errors.New("truncated")
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *tokDecoder) str() string {
	n := d.uint()
	if d.err != nil {
		return ""
	}
	if n > uint64(len(d.b)) {
		d.err = errors.New("truncated test name")
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}
