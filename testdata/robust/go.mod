module example.com/robust

go 1.22

// The dependencies confirm does not instrument live in another module.
require example.com/robustdep v0.0.0

replace example.com/robustdep => ./dep
