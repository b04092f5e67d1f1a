package race

import (
	"testing"

	"github.com/confirm-go/confirm/analyzers/internal/factcodec/codectest"
)

func TestAccessFactEncoding(t *testing.T) {
	for _, depth := range []int{0, 1, 3} {
		f := new(accessFact)
		codectest.Fill(f, depth)
		codectest.RoundTrip(t, f, func(v any) { v.(*accessFact).parse() })
	}
	codectest.RoundTrip(t, new(accessFact), func(v any) { v.(*accessFact).parse() })
}
