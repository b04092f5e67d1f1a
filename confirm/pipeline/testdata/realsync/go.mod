module example.com/realsync

go 1.22

// The dependency that needs a real *sync.Mutex lives in another module,
// which confirm does not instrument.
require example.com/realsyncdep v0.0.0

replace example.com/realsyncdep => ./dep
