package runner

import (
	"errors"
	"fmt"
	"go/token"
	"strconv"
	"strings"
)

// A Token is what `confirm replay -token` takes: the test, the options
// the test binary was built with, and the runtime's replay token. Its
// string form is one shell-safe word:
//
//	c1.<test>.<options>.<runtime token>
//
// where options is "races" when every field and global access was
// instrumented (BuildOptions.Accesses) and "plain" otherwise, followed by
// "-s<N>" when the run bounded executions to N steps (rt.Config.MaxSteps),
// which a replay needs to end where the run did.
type Token struct {
	Test     string
	Accesses bool
	// MaxSteps is the run's step bound; 0 for the runtime's default.
	MaxSteps int
	// Runtime is the runtime's token (a schedule "v1." or a seed "v1s.").
	Runtime string
}

const tokenVersion = "c1"

// String encodes t.
func (t Token) String() string {
	opts := "plain"
	if t.Accesses {
		opts = "races"
	}
	if t.MaxSteps > 0 {
		opts += "-s" + strconv.Itoa(t.MaxSteps)
	}
	return strings.Join([]string{tokenVersion, t.Test, opts, t.Runtime}, ".")
}

// ParseToken decodes a token made by Token.String.
func ParseToken(s string) (Token, error) {
	s = strings.TrimSpace(s)
	parts := strings.SplitN(s, ".", 4)
	if len(parts) != 4 || parts[0] != tokenVersion {
		return Token{}, fmt.Errorf("malformed replay token %.40q: want %s.<test>.<options>.<schedule>, as confirm run prints it", s, tokenVersion)
	}
	t := Token{Test: parts[1], Runtime: parts[3]}
	if !token.IsIdentifier(t.Test) || !strings.HasPrefix(t.Test, "Test") {
		return Token{}, fmt.Errorf("malformed replay token: %q is not a test name", t.Test)
	}
	opts, steps, hasSteps := strings.Cut(parts[2], "-s")
	switch opts {
	case "races":
		t.Accesses = true
	case "plain":
	default:
		return Token{}, fmt.Errorf("malformed replay token: unknown options %q", parts[2])
	}
	if hasSteps {
		n, err := strconv.Atoi(steps)
		if err != nil || n <= 0 {
			return Token{}, fmt.Errorf("malformed replay token: bad step bound in options %q", parts[2])
		}
		t.MaxSteps = n
	}
	if t.Runtime == "" {
		return Token{}, errors.New("malformed replay token: no schedule")
	}
	return t, nil
}
