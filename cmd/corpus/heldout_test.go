package main

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestParseHeldout(t *testing.T) {
	tests := []struct {
		name, text string
		want       []heldoutModule
		err        string
	}{
		{
			name: "all packages",
			text: "# comment\n\nh2 memberlist github.com/hashicorp/memberlist@v0.7.0\n",
			want: []heldoutModule{{set: "h2", dir: "memberlist", mod: module{path: "github.com/hashicorp/memberlist", version: "v0.7.0", name: "memberlist"}, patterns: []string{"./..."}}},
		},
		{
			name: "patterns",
			text: "h3 pgx github.com/jackc/pgx/v5@v5.12.0 ./pgxpool/...\nh7 rcrowley-metrics github.com/rcrowley/go-metrics@v0.0.0-20250401214520-65e299d6c5c9 . ./exp/...",
			want: []heldoutModule{
				{set: "h3", dir: "pgx", mod: module{path: "github.com/jackc/pgx/v5", version: "v5.12.0", name: "pgx"}, patterns: []string{"./pgxpool/..."}},
				{set: "h7", dir: "rcrowley-metrics", mod: module{path: "github.com/rcrowley/go-metrics", version: "v0.0.0-20250401214520-65e299d6c5c9", name: "rcrowley-metrics"}, patterns: []string{".", "./exp/..."}},
			},
		},
		{name: "no version", text: "h2 raft github.com/hashicorp/raft", err: "module@version"},
		{name: "no module", text: "h2 raft", err: "set dir module@version"},
		{name: "directory twice", text: "h2 a x.org/a@v1.0.0\nh3 a x.org/b@v1.0.0", err: "named twice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseHeldout(tt.text)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("parseHeldout: error %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("parseHeldout = %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
}

// TestHeldoutFiles checks the committed heldout.txt and heldout-judged.txt:
// they parse, every set of the trials is there with the subsets they
// vetted, and every judgement names a directory of heldout.txt.
func TestHeldoutFiles(t *testing.T) {
	mods, err := parseHeldout(heldoutTxt)
	if err != nil {
		t.Fatal(err)
	}
	dirs := map[string]heldoutModule{}
	sets := map[string]int{}
	for _, hm := range mods {
		dirs[hm.dir] = hm
		sets[hm.set]++
	}
	for set, n := range map[string]int{"h2": 10, "h3": 10, "h4": 5, "h5": 8, "h6": 3, "h7": 7, "h8": 7, "h9": 9, "h10": 8, "h11": 9, "h12": 11, "h13": 12} {
		if sets[set] != n {
			t.Errorf("set %s has %d modules, want %d", set, sets[set], n)
		}
	}
	if got := dirs["pgx"].patterns; !reflect.DeepEqual(got, []string{"./pgxpool/..."}) {
		t.Errorf("pgx vets %v, want ./pgxpool/...", got)
	}
	for _, d := range []string{"gometrics", "rcrowley-metrics"} {
		if p := strings.Join(dirs[d].patterns, " "); strings.Contains(p, "stathat") || strings.Contains(p, "./...") {
			t.Errorf("%s vets %s, want every package but ./stathat", d, p)
		}
	}
	js, err := parseHeldoutJudged(heldoutJudgedTxt)
	if err != nil {
		t.Fatal(err)
	}
	// 419 judgements in the trials' lists up to h8, 9 in prose, 73 of h9,
	// 7 of findings first made after 1b352db, 83 of h10, 98 of h11, 72 of
	// h12, 130 of h13, 13 first made in the session of 2026-11-29, 1
	// first made in its third session.
	if len(js) != 1189 {
		t.Errorf("heldout-judged.txt has %d judgements, want 1189", len(js))
	}
	for _, j := range js {
		if _, ok := dirs[j.dir]; !ok {
			t.Errorf("judgement %s %s:%d names no directory of heldout.txt", j.dir, j.file, j.line)
		}
	}
}

func TestParseHeldoutJudged(t *testing.T) {
	tests := []struct {
		name, text string
		want       []heldJudgement
		err        string
	}{
		{
			name: "line",
			text: "# comment\nbbolt db.go:1125 race true the exported `DB.Info()` reads `db.data` with no lock",
			want: []heldJudgement{{dir: "bbolt", file: "db.go", line: 1125, kind: "race", verdict: "true", reason: "the exported `DB.Info()` reads `db.data` with no lock"}},
		},
		{
			name: "column and path",
			text: "gocql host_source.go:741:7 race false `h` comes fresh from `GetHosts`\nnats.go jetstream/push.go:98 double-lock true a real self-deadlock",
			want: []heldJudgement{
				{dir: "gocql", file: "host_source.go", line: 741, col: 7, kind: "race", verdict: "false", reason: "`h` comes fresh from `GetHosts`"},
				{dir: "nats.go", file: "jetstream/push.go", line: 98, kind: "double-lock", verdict: "true", reason: "a real self-deadlock"},
			},
		},
		{
			name: "unsure",
			text: "gocql conn.go:1698 race unsure what would decide it",
			want: []heldJudgement{{dir: "gocql", file: "conn.go", line: 1698, kind: "race", verdict: "unsure", reason: "what would decide it"}},
		},
		{name: "verdict in capitals", text: "gocql conn.go:1698 race TRUE reason", err: "true, false or unsure"},
		{name: "unknown kind", text: "gocql conn.go:1698 lock-order-cycle false reason", err: "unknown kind"},
		{name: "no line", text: "gocql conn.go race false reason", err: "file:line"},
		{name: "no reason", text: "gocql conn.go:1 race false", err: "want \"dir"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseHeldoutJudged(tt.text)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("parseHeldoutJudged: error %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("parseHeldoutJudged = %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
}

// TestClassify classifies messages the analyzers printed under go vet
// (confirmvet at 1b352db on the held-out modules and testdata/kernels).
func TestClassify(t *testing.T) {
	tests := []struct{ message, want string }{
		{"possible data race: fsm.Visualize reads (fsm.FSM).current without holding (fsm.FSM).stateMu; (*fsm.FSM).SetState writes it holding (fsm.FSM).stateMu (7 of 10 functions accessing it hold (fsm.FSM).stateMu)", "race"},
		{"possible data race: (palm.ptree).cache is written by goroutine palm.TestSimultaneousReadsAndWrites$1 and written by another instance of palm.TestSimultaneousReadsAndWrites$1, with no common lock and no synchronization in between", "race"},
		{"possible data race: captured variable publishedMessages in tests.TestReconnect is written by goroutine tests.TestReconnect$2 and read by tests.TestReconnect, with no common lock and no synchronization in between", "race"},
		{"recursive read lock: (*graph.SimpleGraph).Adj read-locks g.mutex via (*graph.SimpleGraph).Degree while already holding its read lock; a writer waiting in between deadlocks both", "rwr"},
		{"lock leak: queue.ExecuteInParallel returns with (queue.Queue).lock still held on this path but not on others (missing Unlock?)", "lock-leak"},
		{"double lock: (*cockroach9935.loggingT).outputLogEntry locks l.mu via (*cockroach9935.loggingT).exit while already holding it (Go mutexes are not reentrant)", "double-lock"},
		{"lock-order cycle: (*etcd8764.store).Compact acquires (etcd8764.batchTx).Mutex while holding (etcd8764.store).mu, but (*etcd8764.batchTx).Commit acquires (etcd8764.store).mu while holding (etcd8764.batchTx).Mutex; goroutines running both can deadlock", "lock-order"},
		{"lock held across a channel send: (*istio16224.eventRecorder).handle sends on r.done holding r.lock, and every receive on (istio16224.eventRecorder).done (istio16224.TestIstio16224) locks (istio16224.eventRecorder).lock before the next one: each goroutine waits for the other (deadlock); release the lock before the send", "lock-channel"},
		{"undefined: stathat.PostEZCount", ""},
		{"\twrites (fsm.FSM).current holding (fsm.FSM).stateMu", ""},
	}
	for _, tt := range tests {
		if got := classify(tt.message); got != tt.want {
			t.Errorf("classify(%.60q) = %q, want %q", tt.message, got, tt.want)
		}
	}
}

func TestParseVet(t *testing.T) {
	out := "go: downloading github.com/stretchr/testify v1.8.0\n" +
		"# github.com/looplab/fsm\n" +
		"graphviz_visualizer.go:18:20: possible data race: fsm.Visualize reads (fsm.FSM).current without holding (fsm.FSM).stateMu\n" +
		"fsm.go:226:2: \twrites (fsm.FSM).current holding (fsm.FSM).stateMu\n" +
		"./queue/queue.go:377:13: lock leak: queue.ExecuteInParallel returns with (queue.Queue).lock still held\n" +
		"/mods/gdt/graph/simple.go:91:15: recursive read lock: (*graph.SimpleGraph).Adj read-locks g.mutex\n" +
		"stathat/stathat.go:8:2: undefined: stathat.PostEZCount\n"
	got, other := parseVet("/mods/gdt", []byte(out))
	want := []*vetFinding{
		{file: "graphviz_visualizer.go", line: 18, col: 20, kind: "race", message: "possible data race: fsm.Visualize reads (fsm.FSM).current without holding (fsm.FSM).stateMu"},
		{file: "queue/queue.go", line: 377, col: 13, kind: "lock-leak", message: "lock leak: queue.ExecuteInParallel returns with (queue.Queue).lock still held"},
		{file: "graph/simple.go", line: 91, col: 15, kind: "rwr", message: "recursive read lock: (*graph.SimpleGraph).Adj read-locks g.mutex"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("findings:\n%+v\nwant\n%+v", got, want)
	}
	if !reflect.DeepEqual(other, []string{"stathat/stathat.go:8:2: undefined: stathat.PostEZCount"}) {
		t.Errorf("other lines = %q", other)
	}
}

func TestJudge(t *testing.T) {
	js, err := parseHeldoutJudged(`
gocql host_source.go:741:7 race false fresh
gocql host_source.go:741:30 race true shared ring host
miniredis miniredis.go:839 race true write
miniredis miniredis.go:839 race true read
pq notify.go:676 race false held by the spawner
pq notify.go:676 race true a later reading
go-redis sentinel.go:1122 lock-order false infeasible
go-redis sentinel.go:1122 lock-order false infeasible too
go-redis sentinel.go:1122 lock-order true feasible
gonsq producer.go:346:4 race false router only
gonsq producer.go:346:28 race false router only
gocql conn.go:1698 race unsure undecided
`)
	if err != nil {
		t.Fatal(err)
	}
	idx := indexJudged(js)
	tests := []struct {
		name, dir, file string
		line, col       int
		kind            string
		want            string
		mixed           bool
		reasons         int
	}{
		{"column named", "gocql", "host_source.go", 741, 30, "race", verdictTrue, false, 1},
		{"other column named", "gocql", "host_source.go", 741, 7, "race", verdictFalse, false, 1},
		{"unnamed column: tie", "gocql", "host_source.go", 741, 12, "race", verdictConflict, true, 2},
		{"agreeing judgements", "miniredis", "miniredis.go", 839, 5, "race", verdictTrue, false, 2},
		{"tie", "pq", "notify.go", 676, 3, "race", verdictConflict, true, 2},
		{"majority", "go-redis", "sentinel.go", 1122, 9, "lock-order", verdictFalse, true, 3},
		{"columns that no longer match", "gonsq", "producer.go", 346, 10, "race", verdictFalse, false, 2},
		{"unsure", "gocql", "conn.go", 1698, 2, "race", verdictUnsure, false, 1},
		{"other kind", "go-redis", "sentinel.go", 1122, 9, "race", verdictUnjudged, false, 0},
		{"other module", "sarama", "conn.go", 1698, 2, "race", verdictUnjudged, false, 0},
		{"other line", "gocql", "conn.go", 1699, 2, "race", verdictUnjudged, false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &vetFinding{file: tt.file, line: tt.line, col: tt.col, kind: tt.kind}
			judge(f, tt.dir, idx)
			// A tie is reported whichever verdict the map gives first:
			// judge each finding many times.
			for range 20 {
				g := &vetFinding{file: tt.file, line: tt.line, col: tt.col, kind: tt.kind}
				judge(g, tt.dir, idx)
				if g.verdict != f.verdict {
					t.Fatalf("verdict %s, then %s", f.verdict, g.verdict)
				}
			}
			if f.verdict != tt.want || f.mixed != tt.mixed || len(f.reasons) != tt.reasons {
				t.Errorf("verdict %s, mixed %v, %d reasons; want %s, %v, %d", f.verdict, f.mixed, len(f.reasons), tt.want, tt.mixed, tt.reasons)
			}
		})
	}
}

// TestReportHeldout scores two sets and checks the counts and precision
// printed per set and overall, and the unjudged findings listed.
func TestReportHeldout(t *testing.T) {
	run := func(set, dir string, verdicts ...string) *heldoutRun {
		r := &heldoutRun{hm: heldoutModule{set: set, dir: dir}}
		for i, v := range verdicts {
			r.findings = append(r.findings, &vetFinding{file: "a.go", line: i + 1, col: 1, kind: "race", message: "possible data race: x", verdict: v})
		}
		return r
	}
	runs := []*heldoutRun{
		run("h2", "bbolt", verdictTrue, verdictTrue, verdictFalse),
		run("h2", "raft", verdictFalse, verdictUnsure),
		run("h8", "zk", verdictTrue, verdictUnjudged, verdictConflict),
	}
	runs[2].other = []string{"x.go:1:1: undefined: y"}
	var buf bytes.Buffer
	if !reportHeldout(&buf, runs, false) {
		t.Error("reportHeldout reported a failure")
	}
	out := buf.String()
	for _, want := range []string{
		"h2        2         5     2      2       1         0         0        50%",
		"h8        1         3     1      0       0         1         1       100%",
		"all        3         8     3      2       1         1         1        60%",
		"overall precision 60% (3 true, 2 false; 1 unsure, 1 conflicting and 1 unjudged findings left out)",
		"\tzk a.go:2:1 race unjudged: possible data race: x",
		"h8 zk: vet printed 1 lines that are not findings",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	runs[1].err = errors.New("no such version")
	if reportHeldout(&bytes.Buffer{}, runs, false) {
		t.Error("reportHeldout did not report a module that failed")
	}
}

func TestDiffFindings(t *testing.T) {
	f := func(line int, msg string) *vetFinding {
		return &vetFinding{file: "a.go", line: line, col: 2, kind: "race", message: msg}
	}
	a := []*vetFinding{f(1, "x"), f(2, "y"), f(2, "y"), f(3, "z")}
	b := []*vetFinding{f(2, "y"), f(3, "z"), f(4, "w"), f(3, "z")}
	gained, lost := diffFindings(a, b)
	key := func(fs []*vetFinding) []string {
		var out []string
		for _, f := range fs {
			out = append(out, f.message)
		}
		return out
	}
	if got := key(gained); !reflect.DeepEqual(got, []string{"w", "z"}) {
		t.Errorf("gained %v, want [w z]", got)
	}
	if got := key(lost); !reflect.DeepEqual(got, []string{"x", "y"}) {
		t.Errorf("lost %v, want [x y]", got)
	}
}
