module example.com/mixed

go 1.22

// The dependency confirm does not instrument lives in another module.
require example.com/mixeddep v0.0.0

replace example.com/mixeddep => ./dep
