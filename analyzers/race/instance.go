package race

import (
	"fmt"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// otherInstance reports whether a, an access to a field of a value its
// function was handed (a parameter), holds the guard only through other
// values of the field's type: s.Equal(o) reading o.items under s.mu,
// where the guard of (Set).items is (Set).mu, the lock of the instance
// the field belongs to. It returns the source name of the instance lock
// held ("s.mu") and the one wanted ("o.mu"). The class is right, the
// instance is not (Clang's "requires holding mutex 'o.mu'").
func (c *checker) otherInstance(a *access, guard string) (held, want string, ok bool) {
	p, isParam := a.root.(*ssa.Parameter)
	if !isParam || a.instr == nil || a.chain.len() > 0 || a.ext() != "" || p.Parent() != a.fn {
		return "", "", false
	}
	owner, _, found := strings.Cut(a.obj.name, ").")
	if !found || !strings.HasPrefix(owner, "(") || strings.Count(a.path, ".") != 1 {
		return "", "", false
	}
	lockField, isField := strings.CutPrefix(guard, owner+").")
	if !isField || strings.ContainsAny(lockField, ".*[") {
		return "", "", false // the guard is not a lock field of the same type
	}
	idx := indexOfParam(p.Parent(), p)
	var names []string
	for _, l := range c.locks.HeldBefore(a.instr) {
		if l.Class != guard {
			continue
		}
		k, rest, ok := instParam(l.Inst)
		if !ok || k == idx || rest != "."+lockField || k >= len(a.fn.Params) {
			return "", "", false // the access's own instance, or one not known
		}
		names = append(names, a.fn.Params[k].Name()+"."+lockField)
	}
	if len(names) == 0 {
		return "", "", false
	}
	return strings.Join(names, ", "), p.Name() + "." + lockField, true
}

// instParam splits a lockset instance path rooted at a parameter ("$1.mu")
// into the parameter's index and the rest.
func instParam(inst string) (int, string, bool) {
	if !strings.HasPrefix(inst, "$") {
		return 0, "", false
	}
	n := 1
	for n < len(inst) && inst[n] >= '0' && inst[n] <= '9' {
		n++
	}
	k, err := strconv.Atoi(inst[1:n])
	if err != nil {
		return 0, "", false
	}
	return k, inst[n:], true
}

// conflictingWrite returns an access of others, in another function when
// there is one, that conflicts with a when locks are not considered: one
// of the two writes.
func conflictingWrite(a *access, others []*access) *access {
	var best *access
	for _, o := range others {
		if o == a || !a.write && !o.write || a.atomic && o.atomic || apart(a, o) {
			continue
		}
		if best == nil || best.fn == a.fn && o.fn != a.fn {
			best = o
		}
	}
	return best
}

func (c *checker) reportOtherInstance(a, other *access, held, want string) {
	field := a.root.Name() + a.path
	msg := fmt.Sprintf("possible data race: %s %s %s holding %s, not %s: the lock of another %s; %s %s it holding %s",
		funcName(a.fn), a.verb(), field, held, want, ownerType(a.obj.name), funcName(other.fn), other.verb(), other.held)
	c.report(msg, a.obj, siteOf(a, fmt.Sprintf("%s %s holding %s, not %s", a.verb(), field, held, want), ""),
		siteOf(other, fmt.Sprintf("%s %s holding %s", other.verb(), other.obj.name, other.held), ""))
}

// ownerType returns the type of a field's name "(p.T).f": "p.T".
func ownerType(name string) string {
	owner, _, _ := strings.Cut(name, ").")
	return strings.TrimPrefix(owner, "(")
}
