package lockset

import (
	"testing"

	"github.com/confirm-go/confirm/analyzers/internal/factcodec/codectest"
)

func TestSummaryEncoding(t *testing.T) {
	for _, depth := range []int{0, 1, 3} {
		s := new(Summary)
		codectest.Fill(s, depth)
		codectest.RoundTrip(t, s, func(v any) { v.(*Summary).parse() })
	}
	codectest.RoundTrip(t, new(Summary), func(v any) { v.(*Summary).parse() })
}
