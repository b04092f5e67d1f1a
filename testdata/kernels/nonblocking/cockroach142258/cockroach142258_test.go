package cockroach142258

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

var errRetryable = errors.New("TransactionRetryWithProtoRefreshError: restart transaction")

type QueryLoad struct {
	WorkerFns []func(ctx context.Context) error
}

type kvWorkload struct {
	readPercent int
}

func (w *kvWorkload) Ops(concurrency int) QueryLoad {
	var ql QueryLoad
	for i := 0; i < concurrency; i++ {
		n := 0
		ql.WorkerFns = append(ql.WorkerFns, func(ctx context.Context) error {
			n++
			if n%3 == 0 {
				return errRetryable
			}
			return nil
		})
	}
	return ql
}

func workerRun(ctx context.Context, errCh chan<- error, workFn func(context.Context) error, maxOps int) {
	for i := 0; i < maxOps; i++ {
		if ctx.Err() != nil {
			return
		}
		if err := workFn(ctx); err != nil {
			errCh <- err
		}
	}
}

func runRun(ctx context.Context, gen *kvWorkload, concurrency int, ramp, displayEvery time.Duration) map[string]int {
	ops := gen.Ops(concurrency)
	errCh := make(chan error, concurrency)
	errCounts := make(map[string]int)

	var wg sync.WaitGroup
	wg.Add(len(ops.WorkerFns))
	for i, workFn := range ops.WorkerFns {
		go func() {
			defer wg.Done()
			time.Sleep(time.Duration(i) * ramp / time.Duration(concurrency))
			workerRun(ctx, errCh, workFn, 50)
		}()
	}

	go func() {
		for err := range errCh {
			errCounts[err.Error()]++ // race
		}
	}()

	ticker := time.NewTicker(displayEvery)
	defer ticker.Stop()
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(errCh)
		close(done)
	}()
	var lines []string
	for {
		select {
		case <-ticker.C:
			for msg, n := range errCounts { // race
				lines = append(lines, fmt.Sprintf("%s: %d", msg, n))
			}
		case <-done:
			sort.Strings(lines)
			_ = strings.Join(lines, "\n")
			return errCounts
		}
	}
}

func TestWorkloadRunErrorCounts(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	runRun(ctx, &kvWorkload{readPercent: 95}, 4, time.Millisecond, 100*time.Microsecond)
}
