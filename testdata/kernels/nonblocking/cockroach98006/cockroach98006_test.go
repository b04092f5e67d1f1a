package cockroach98006

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
)

type copyMachine struct {
	table   string
	columns []string
	rows    [][]string
	conn    net.Conn
}

func (c *copyMachine) run(ctx context.Context) (int, error) {
	r := bufio.NewReader(c.conn)
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			if errors.Is(err, io.EOF) {
				return len(c.rows), errors.New("unexpected EOF in COPY data")
			}
			return len(c.rows), err
		}
		line = strings.TrimSuffix(line, "\n")
		if line == `\.` {
			return len(c.rows), nil
		}
		fields := strings.Split(line, "\t")
		if len(fields) != len(c.columns) {
			return len(c.rows), fmt.Errorf("expected %d values, got %d", len(c.columns), len(fields))
		}
		c.rows = append(c.rows, fields)
	}
}

type pgConn struct {
	conn net.Conn
}

func (p *pgConn) sendCopyData(rows []string) error {
	w := bufio.NewWriter(p.conn)
	for _, r := range rows {
		if _, err := w.WriteString(r + "\n"); err != nil {
			return err
		}
	}
	if _, err := w.WriteString("\\.\n"); err != nil {
		return err
	}
	return w.Flush()
}

func TestCopyFromTransaction(t *testing.T) {
	ctx := context.Background()
	serverConn, clientConn := net.Pipe()
	defer serverConn.Close()
	defer clientConn.Close()

	cm := &copyMachine{table: "lineitem", columns: []string{"l_orderkey", "l_partkey", "l_comment"}, conn: serverConn}
	client := &pgConn{conn: clientConn}

	var (
		wg     sync.WaitGroup
		err    error
		copied int
	)
	wg.Add(2)
	go func() {
		defer wg.Done()
		copied, err = cm.run(ctx) // race
	}()
	go func() {
		defer wg.Done()
		err = client.sendCopyData([]string{ // race
			"1\t155190\tegular courts above the",
			"1\t67310\tly final dependencies: slyly bold",
			"2\t106170\tven requests. deposits breach a",
		})
	}()
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if copied != 3 {
		t.Fatalf("expected 3 rows, got %d", copied)
	}
}
