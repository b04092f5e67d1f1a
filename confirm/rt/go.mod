module github.com/confirm-go/confirm/confirm/rt

go 1.26.0
