# The README's test command is `make test`: every test of the module (the
# runtime, confirm/rt, is a package of it, injected as source).
GO ?= go

.PHONY: test test-long lint build lint-plugin
# -timeout: cmd/confirm runs the confirm command some twenty times; on a
# busy 2-core machine the package takes longer than go test's default of
# 10 minutes (31 minutes on 2026-11-30, beside the other packages).
test:
	$(GO) test -timeout 60m ./...

# test-long runs the evaluation-sized cases make test leaves out (see
# internal/longtest): the whole fixture matrix of cmd/confirm, the custom
# golangci-lint build, every old language version, and the clean-shape
# searches of confirm/runner at 10,000 executions.
test-long:
	CONFIRM_LONG=1 $(GO) test -timeout 60m ./...

build:
	$(GO) build -o bin/ ./cmd/...

lint:
	gofmt -l $$(git ls-files '*.go' | grep -v /testdata/)
	$(GO) vet ./...
	golangci-lint run ./...

# lint-plugin builds ./custom-gcl: golangci-lint with the Confirm analyzers
# as the module plugin "confirm", as .custom-gcl.yml says. It needs a
# golangci-lint binary and network access (golangci-lint custom clones
# golangci-lint with git); analyzers/golangci/e2e_test.go builds it offline.
lint-plugin:
	golangci-lint custom
