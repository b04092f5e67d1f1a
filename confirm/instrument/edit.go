package instrument

import (
	"fmt"
	"go/scanner"
	"go/token"
	"sort"
	"strconv"
	"strings"
)

// Edit classes decide the order of edits at one byte offset: the closing
// text of nodes that end there, then the opening text of nodes that start
// there, then a replacement or cut that starts there.
const (
	classClose = iota
	classOpen
	classReplace
)

// An edit is one change to the original source of a file. Replacements and
// cuts cover [pos, end); insertions have pos == end. Every edit keeps the
// newlines of the original text it covers, so no line moves.
type edit struct {
	pos, end int
	class    int
	depth    int // nesting depth of the node that made the edit
	seq      int // creation order, the last tie breaker
	text     string
	// cut edits are replaced by their newlines only; their text (with the
	// edits inside) is emitted wherever a paste edit names them.
	cut   bool
	paste *edit // for a paste: the cut whose rendered text to emit
	// For a paste: a line directive to put before the pasted text, and one
	// to restore the position after it.
	before, after string
}

// editor collects edits on one file and renders the rewritten source.
type editor struct {
	src   []byte
	edits []*edit
	err   error
}

func (e *editor) add(ed *edit) *edit {
	if strings.Contains(ed.text, "\n") {
		e.fail(fmt.Errorf("internal error: inserted text %q contains a newline", ed.text))
	}
	ed.seq = len(e.edits)
	e.edits = append(e.edits, ed)
	return ed
}

func (e *editor) fail(err error) {
	if e.err == nil {
		e.err = err
	}
}

// open inserts text before the node of the given depth that starts at pos.
func (e *editor) open(pos, depth int, text string) {
	e.add(&edit{pos: pos, end: pos, class: classOpen, depth: depth, text: text})
}

// close inserts text after the node of the given depth that ends at end.
func (e *editor) close(end, depth int, text string) {
	e.add(&edit{pos: end, end: end, class: classClose, depth: depth, text: text})
}

// replace replaces [pos, end), which must hold no other edit, by text and
// the newlines of the replaced text.
func (e *editor) replace(pos, end, depth int, text string) {
	e.add(&edit{pos: pos, end: end, class: classReplace, depth: depth, text: text})
}

// cut removes [pos, end) (keeping its newlines) and returns the cut, to be
// pasted elsewhere with pasteAt.
func (e *editor) cut(pos, end, depth int, text string) *edit {
	return e.add(&edit{pos: pos, end: end, class: classReplace, depth: depth, text: text, cut: true})
}

// pasteOpen inserts the rendered text of cut c (flattened onto one line)
// as opening text at pos.
func (e *editor) pasteOpen(pos, depth int, c *edit, before, after string) {
	e.add(&edit{pos: pos, end: pos, class: classOpen, depth: depth, paste: c, before: before, after: after})
}

// sorted returns the edits in rendering order.
func (e *editor) sorted() []*edit {
	eds := append([]*edit(nil), e.edits...)
	sort.SliceStable(eds, func(i, j int) bool {
		a, b := eds[i], eds[j]
		if a.pos != b.pos {
			return a.pos < b.pos
		}
		if a.class != b.class {
			return a.class < b.class
		}
		if a.depth != b.depth {
			if a.class == classClose {
				return a.depth > b.depth // inner nodes close first
			}
			return a.depth < b.depth // outer nodes open first
		}
		return a.seq < b.seq
	})
	return eds
}

// render returns the rewritten source of the whole file.
func (e *editor) render() ([]byte, error) {
	eds := e.sorted()
	var out strings.Builder
	e.renderRange(&out, eds, owners(eds), 0, len(e.src), nil)
	if e.err != nil {
		return nil, e.err
	}
	return []byte(out.String()), nil
}

// inside reports whether edit ed belongs to the text of cut c.
func inside(ed, c *edit) bool {
	if ed == c {
		return false
	}
	switch {
	case ed.pos > c.pos && ed.end < c.end:
		return true
	case ed.pos == c.pos && ed.pos == ed.end:
		return ed.class == classOpen && ed.depth > c.depth
	case ed.pos == c.end && ed.pos == ed.end:
		return ed.class == classClose && ed.depth > c.depth
	case ed.pos >= c.pos && ed.end <= c.end && ed.pos < ed.end:
		return true
	}
	return false
}

// owners maps each edit to the innermost cut whose text it belongs to.
func owners(eds []*edit) map[*edit]*edit {
	own := make(map[*edit]*edit)
	for _, c := range eds {
		if !c.cut {
			continue
		}
		for _, ed := range eds {
			if !inside(ed, c) {
				continue
			}
			if o := own[ed]; o == nil || o.end-o.pos > c.end-c.pos {
				own[ed] = c
			}
		}
	}
	return own
}

// renderRange writes the source [lo, hi) with the edits owned by within
// (the top level when within is nil).
func (e *editor) renderRange(out *strings.Builder, eds []*edit, own map[*edit]*edit, lo, hi int, within *edit) {
	at := lo
	for _, ed := range eds {
		if own[ed] != within {
			continue
		}
		if ed.pos < at {
			e.fail(fmt.Errorf("internal error: overlapping edits at offset %d (%q)", ed.pos, ed.text))
			return
		}
		out.Write(e.src[at:ed.pos])
		at = ed.pos
		switch {
		case ed.paste != nil:
			var sub strings.Builder
			e.renderRange(&sub, eds, own, ed.paste.pos, ed.paste.end, ed.paste)
			flat, err := flatten(sub.String())
			if err != nil {
				e.fail(err)
				return
			}
			out.WriteString(ed.before)
			out.WriteString(flat)
			out.WriteString(ed.after)
		case ed.pos == ed.end:
			out.WriteString(ed.text)
		case ed.cut:
			// The newlines first: the text before a cut ends with a token
			// after which a newline inserts no semicolon ("(", ",", ":"),
			// while the placeholder (an identifier) would get one.
			out.WriteString(strings.Repeat("\n", strings.Count(string(e.src[ed.pos:ed.end]), "\n")))
			out.WriteString(ed.text)
			at = ed.end
		default:
			out.WriteString(ed.text)
			out.WriteString(strings.Repeat("\n", strings.Count(string(e.src[ed.pos:ed.end]), "\n")))
			at = ed.end
		}
	}
	if at < hi {
		out.Write(e.src[at:hi])
	}
}

// flatten puts Go expression text on one line: comments are dropped, the
// semicolons the newlines stood for are written out, and raw strings with
// newlines become interpreted strings.
func flatten(text string) (string, error) {
	if !strings.Contains(text, "\n") && !strings.Contains(text, "/*") && !strings.Contains(text, "//") {
		return text, nil
	}
	fset := token.NewFileSet()
	f := fset.AddFile("", -1, len(text))
	var s scanner.Scanner
	var errs scanner.ErrorList
	s.Init(f, []byte(text), func(pos token.Position, msg string) { errs.Add(pos, msg) }, 0)
	var out strings.Builder
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if out.Len() > 0 {
			out.WriteByte(' ')
		}
		switch {
		case tok == token.SEMICOLON && lit == "\n":
			out.WriteByte(';')
		case tok == token.STRING && strings.HasPrefix(lit, "`"):
			out.WriteString(strconv.Quote(strings.ReplaceAll(lit[1:len(lit)-1], "\r", "")))
		case lit != "":
			out.WriteString(lit)
		default:
			out.WriteString(tok.String())
		}
	}
	if len(errs) > 0 {
		return "", fmt.Errorf("flattening %q: %w", text, errs.Err())
	}
	// The scanner adds a semicolon at the end of the text; expressions
	// must not end with one.
	return strings.TrimSuffix(strings.TrimSpace(out.String()), " ;"), nil
}
