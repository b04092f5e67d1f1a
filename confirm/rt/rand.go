package rt

import (
	"math/rand"
	randv2 "math/rand/v2"
)

// Randomness of a controlled execution. The top-level functions of
// math/rand and math/rand/v2 in rewritten code draw, under control, from a
// source of the execution seeded from its seed (exec.randSeed), which the
// replay token records: a replay draws the same numbers in the same order
// (the schedule fixes the order of the goroutines' draws). Outside control
// they are the real functions.

// randLocked returns the execution's math/rand source.
func (e *exec) randLocked() *rand.Rand {
	if e.rng == nil {
		e.rng = rand.New(rand.NewSource(int64(e.randSeed)))
	}
	return e.rng
}

// rand2Locked returns the execution's math/rand/v2 source.
func (e *exec) rand2Locked() *randv2.Rand {
	if e.rng2 == nil {
		e.rng2 = randv2.New(randv2.NewPCG(e.randSeed, mix(e.randSeed, 2)))
	}
	return e.rng2
}

// draw returns f of the execution's source, or real() outside control.
func draw[T any](f func(*rand.Rand) T, real func() T) T {
	e, _, md := enter()
	if md != modeCtl {
		return real()
	}
	defer e.mu.Unlock()
	return f(e.randLocked())
}

// draw2 is draw for math/rand/v2.
func draw2[T any](f func(*randv2.Rand) T, real func() T) T {
	e, _, md := enter()
	if md != modeCtl {
		return real()
	}
	defer e.mu.Unlock()
	return f(e.rand2Locked())
}

// The replacements of math/rand's top-level functions.

func RandExpFloat64() float64 { return draw((*rand.Rand).ExpFloat64, rand.ExpFloat64) }
func RandFloat32() float32    { return draw((*rand.Rand).Float32, rand.Float32) }
func RandFloat64() float64    { return draw((*rand.Rand).Float64, rand.Float64) }
func RandInt() int            { return draw((*rand.Rand).Int, rand.Int) }
func RandInt31() int32        { return draw((*rand.Rand).Int31, rand.Int31) }
func RandInt63() int64        { return draw((*rand.Rand).Int63, rand.Int63) }
func RandNormFloat64() float64 {
	return draw((*rand.Rand).NormFloat64, rand.NormFloat64)
}
func RandUint32() uint32 { return draw((*rand.Rand).Uint32, rand.Uint32) }
func RandUint64() uint64 { return draw((*rand.Rand).Uint64, rand.Uint64) }
func RandInt31n(n int32) int32 {
	return draw(func(r *rand.Rand) int32 { return r.Int31n(n) }, func() int32 { return rand.Int31n(n) })
}
func RandInt63n(n int64) int64 {
	return draw(func(r *rand.Rand) int64 { return r.Int63n(n) }, func() int64 { return rand.Int63n(n) })
}
func RandIntn(n int) int {
	return draw(func(r *rand.Rand) int { return r.Intn(n) }, func() int { return rand.Intn(n) })
}
func RandPerm(n int) []int {
	return draw(func(r *rand.Rand) []int { return r.Perm(n) }, func() []int { return rand.Perm(n) })
}

// RandRead replaces math/rand.Read.
func RandRead(p []byte) (int, error) {
	type result struct {
		n   int
		err error
	}
	r := draw(func(r *rand.Rand) result { n, err := r.Read(p); return result{n, err} },
		func() result { n, err := rand.Read(p); return result{n, err} }) //nolint:staticcheck // the user's own math/rand.Read, outside control

	return r.n, r.err
}

// RandShuffle replaces math/rand.Shuffle. swap is the user's code and may
// reach scheduling points, so it is not called with the scheduler's lock
// held; the goroutines use the source one at a time.
func RandShuffle(n int, swap func(i, j int)) {
	e, _, md := enter()
	if md != modeCtl {
		rand.Shuffle(n, swap)
		return
	}
	r := e.randLocked()
	e.mu.Unlock()
	r.Shuffle(n, swap)
}

// The replacements of math/rand/v2's top-level functions.

func Rand2ExpFloat64() float64  { return draw2((*randv2.Rand).ExpFloat64, randv2.ExpFloat64) }
func Rand2Float32() float32     { return draw2((*randv2.Rand).Float32, randv2.Float32) }
func Rand2Float64() float64     { return draw2((*randv2.Rand).Float64, randv2.Float64) }
func Rand2Int() int             { return draw2((*randv2.Rand).Int, randv2.Int) }
func Rand2Int32() int32         { return draw2((*randv2.Rand).Int32, randv2.Int32) }
func Rand2Int64() int64         { return draw2((*randv2.Rand).Int64, randv2.Int64) }
func Rand2NormFloat64() float64 { return draw2((*randv2.Rand).NormFloat64, randv2.NormFloat64) }
func Rand2Uint() uint           { return draw2((*randv2.Rand).Uint, randv2.Uint) }
func Rand2Uint32() uint32       { return draw2((*randv2.Rand).Uint32, randv2.Uint32) }
func Rand2Uint64() uint64       { return draw2((*randv2.Rand).Uint64, randv2.Uint64) }
func Rand2IntN(n int) int {
	return draw2(func(r *randv2.Rand) int { return r.IntN(n) }, func() int { return randv2.IntN(n) })
}
func Rand2Int32N(n int32) int32 {
	return draw2(func(r *randv2.Rand) int32 { return r.Int32N(n) }, func() int32 { return randv2.Int32N(n) })
}
func Rand2Int64N(n int64) int64 {
	return draw2(func(r *randv2.Rand) int64 { return r.Int64N(n) }, func() int64 { return randv2.Int64N(n) })
}
func Rand2UintN(n uint) uint {
	return draw2(func(r *randv2.Rand) uint { return r.UintN(n) }, func() uint { return randv2.UintN(n) })
}
func Rand2Uint32N(n uint32) uint32 {
	return draw2(func(r *randv2.Rand) uint32 { return r.Uint32N(n) }, func() uint32 { return randv2.Uint32N(n) })
}
func Rand2Uint64N(n uint64) uint64 {
	return draw2(func(r *randv2.Rand) uint64 { return r.Uint64N(n) }, func() uint64 { return randv2.Uint64N(n) })
}
func Rand2Perm(n int) []int {
	return draw2(func(r *randv2.Rand) []int { return r.Perm(n) }, func() []int { return randv2.Perm(n) })
}

// Rand2N replaces math/rand/v2.N.
func Rand2N[Int intType](n Int) Int {
	return draw2(func(r *randv2.Rand) Int { return Int(r.Uint64N(uint64(n))) }, func() Int { return randv2.N(n) })
}

// intType is math/rand/v2's constraint of N.
type intType interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr
}

// Rand2Shuffle replaces math/rand/v2.Shuffle (see RandShuffle).
func Rand2Shuffle(n int, swap func(i, j int)) {
	e, _, md := enter()
	if md != modeCtl {
		randv2.Shuffle(n, swap)
		return
	}
	r := e.rand2Locked()
	e.mu.Unlock()
	r.Shuffle(n, swap)
}
