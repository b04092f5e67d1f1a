package starters

import (
	"net/http"
	"testing"
)

// recorder is a test's handler: the test sends its requests one after
// another. Silent.
type recorder struct{ last string }

func (r *recorder) record(w http.ResponseWriter, req *http.Request) {
	r.last = req.URL.Path
}

func TestRecord(t *testing.T) {
	r := &recorder{}
	mux := http.NewServeMux()
	mux.HandleFunc("/", r.record)
	_ = r.last
}
