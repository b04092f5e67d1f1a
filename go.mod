module github.com/confirm-go/confirm

go 1.26.0

require (
	github.com/confirm-go/confirm/confirm/rt v0.0.0
	golang.org/x/tools v0.52.0
)

replace github.com/confirm-go/confirm/confirm/rt => ./confirm/rt
