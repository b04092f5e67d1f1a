package race

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"reflect"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/ssa"

	"github.com/confirm-go/confirm/analyzers/internal/lockset"
	"github.com/confirm-go/confirm/analyzers/warning"
)

// Analyzer reports possible data races. See the package documentation.
var Analyzer = &analysis.Analyzer{
	Name:       "race",
	Doc:        "report possible data races: inconsistent locking, wrong locks, and memory shared with goroutines without synchronization",
	URL:        "https://github.com/confirm-go/confirm/tree/main/analyzers/race",
	Run:        run,
	Requires:   []*analysis.Analyzer{buildssa.Analyzer, lockset.Analyzer},
	ResultType: reflect.TypeOf((*warning.Result)(nil)),
	FactTypes:  []analysis.Fact{new(accessFact)},
}

// FactsAnalyzer is Analyzer reduced to its facts, for a driver that runs
// the analyzers on a package only for the facts its importers read (go
// vet's facts-only runs over dependencies, in which cmd/confirmvet runs
// it in Analyzer's place): it has Analyzer's name, requirements and fact
// types, exports its facts without making the checks and reports nothing.
//
// Its facts may differ from Analyzer's: a summary computed while one of
// its callees' is still in progress (a recursive call) sees that callee's
// partial summary, so summaries depend on the order in which functions are
// first summarized, and here exportFacts, not the checks, summarizes
// first. Used where Analyzer is (on the packages it reports on), the
// checks would see other summaries and report differently; used for the
// dependencies only, it left the findings unchanged on the kernels, GoKer,
// nats.go and the held-out modules.
var FactsAnalyzer = &analysis.Analyzer{
	Name:       Analyzer.Name,
	Doc:        Analyzer.Doc,
	URL:        Analyzer.URL,
	Run:        runFacts,
	Requires:   Analyzer.Requires,
	ResultType: Analyzer.ResultType,
	FactTypes:  Analyzer.FactTypes,
}

// checker holds the state of one run of the analyzer over one package.
type checker struct {
	pass           *analysis.Pass
	checks         bool // the checks run (Analyzer), not only the export of facts (FactsAnalyzer)
	res            *warning.Result
	pkg            *ssa.Package
	funcs          []*ssa.Function
	caps           *captures
	locks          *lockset.Result
	onceFuncs      map[*ssa.Function]bool
	infos          map[*ssa.Function]*funcInfo
	sums           map[*ssa.Function]*summary
	starts         map[token.Pos]token.Pos // selector, call and go positions -> expression start
	impls          map[implKey][]*ssa.Function
	reported       map[reportKey]bool
	ctx            contexts
	names          map[*ssa.Function]string
	escs           map[*ssa.Function]*escapes                 // for freshReceiver
	freshFuncs     map[*ssa.Function]bool                     // see fresh
	closes         *closeFacts                                // see closeorder.go
	lazy           *lazyFacts                                 // see lazyinit.go
	setups         map[*ssa.Function]map[ssa.Instruction]bool // see goSetup
	converted      map[*types.TypeName]bool                   // see implementations
	implTypes      *[]*types.Named                            // see implCandidates
	spawners       map[*ssa.Function]*spawner                 // see newSpawner
	backgrounds    map[ssa.CallInstruction]background         // see callBackground; nil without the checks
	byObj          map[types.Object]*ssa.Function
	replacing      map[*ssa.Function][]*ssa.Store                // see detached
	retPaths       map[*ssa.Function]paramPath                   // see returnedPath
	freshParams    map[*ssa.Parameter]bool                       // see freshParam
	returnedParams map[*ssa.Function]int                         // see passedThrough
	benchmarks     map[string]bool                               // the names of the benchmarks' functions; see inBenchmark
	chanUses       map[string]bool                               // channel fields whose values escape; see chanEscapes
	chanSenders    map[string]map[*ssa.Function]bool             // see senders
	byName         map[string]*ssa.Function                      // exported functions by name; see siteFuncs
	made           map[*ssa.Function]bool                        // whether a function literal is ever made; see neverMade
	publishes      map[ssa.Value]bool                            // see goPublishes
	exits          map[*ssa.Function]map[string]int              // see exitSignals
	senderCount    map[string]int                                // see exitSenders
	outsideTypes   map[string]bool                               // see takenFromOutside
	waitIns        map[*ssa.Function][]map[string]int            // see waitedBefore
	gateIns        map[ssa.Value][]map[string]int                // see gatedUntilShared
	recvIns        map[*ssa.Function][]map[string]int            // see receivesBefore
	exitKeysOf     map[*ssa.Function]map[*ssa.Go]map[string]bool // see exitKeys
	ifaces         *[]documentedInterface                        // see interfaces
	reach          *goReach                                      // see goReach
	index          *callIndex                                    // see callIndex
	once           map[*ssa.Function]bool                        // see startedOnce
	beside         map[*ssa.Function]map[*ssa.Function]bool      // see syncBeside
	tests          *testTypes                                    // see testTypeFlow
	solo           map[*ssa.Function]bool                        // see soloTest
	imported       map[*types.Func]*accessFact                   // see importFact
	owned          map[*ssa.Function]*ownings                    // see ownedRoots
	joinedGos      map[*ssa.Go]bool                              // see joinedGo
	forkJoins      map[*ssa.Function]bool                        // see forkJoined
	// promotedSet holds the methods of unexported types promoted to
	// exported ones (see promoted).
	promotedSet map[types.Object]bool
}

func run(pass *analysis.Pass) (any, error) { return analyze(pass, true) }

func runFacts(pass *analysis.Pass) (any, error) { return analyze(pass, false) }

// analyze runs the analyzer over the package of pass: the checks, when
// check is set, then the export of its facts.
func analyze(pass *analysis.Pass, check bool) (_ any, err error) {
	defer func() {
		// An internal error in one package must not stop the driver from
		// analyzing the others; say which package and what happened.
		if r := recover(); r != nil {
			err = fmt.Errorf("race: internal error analyzing package %s: %v", pass.Pkg.Path(), r)
		}
	}()
	ssaRes, ok := pass.ResultOf[buildssa.Analyzer].(*buildssa.SSA)
	if !ok {
		return nil, fmt.Errorf("race: no SSA for package %s", pass.Pkg.Path())
	}
	c := &checker{
		pass:           pass,
		checks:         check,
		res:            &warning.Result{},
		pkg:            ssaRes.Pkg,
		funcs:          ssaRes.SrcFuncs,
		infos:          map[*ssa.Function]*funcInfo{},
		made:           map[*ssa.Function]bool{},
		publishes:      map[ssa.Value]bool{},
		exits:          map[*ssa.Function]map[string]int{},
		senderCount:    map[string]int{},
		outsideTypes:   map[string]bool{},
		waitIns:        map[*ssa.Function][]map[string]int{},
		recvIns:        map[*ssa.Function][]map[string]int{},
		exitKeysOf:     map[*ssa.Function]map[*ssa.Go]map[string]bool{},
		sums:           map[*ssa.Function]*summary{},
		impls:          map[implKey][]*ssa.Function{},
		replacing:      map[*ssa.Function][]*ssa.Store{},
		retPaths:       map[*ssa.Function]paramPath{},
		freshParams:    map[*ssa.Parameter]bool{},
		returnedParams: map[*ssa.Function]int{},
		reported:       map[reportKey]bool{},
		names:          map[*ssa.Function]string{},
		escs:           map[*ssa.Function]*escapes{},
		freshFuncs:     map[*ssa.Function]bool{},
	}
	if lockset.NotAnalyzed(pass) {
		// The standard library is not analyzed: its races are not the
		// user's, and skipping it keeps go vet -vettool fast. Its
		// functions have no facts, so calls into it are not followed.
		return c.res, nil
	}
	c.caps = newCaptures(c.funcs)
	c.locks = pass.ResultOf[lockset.Analyzer].(*lockset.Result)
	c.onceFuncs = findOnceFuncs(c.funcs)
	c.indexExprStarts(pass.Files)
	c.computeContexts()

	if check {
		// The checks ask for the background of a call site again
		// after the summary of its function has; without them each is
		// asked for once (see callBackground).
		c.backgrounds = map[ssa.CallInstruction]background{}
		c.checkGuards()
		c.checkGoroutines()
		// The facts need neither the backgrounds of call sites nor the
		// accesses the spawners bound at theirs (they ask again, through
		// the summaries the checks computed): on a large package those
		// caches hold a third of the memory.
		c.backgrounds, c.spawners = nil, nil
	}
	c.exportFacts()
	return c.res, nil
}

// indexExprStarts maps the positions SSA records for field selections
// (the selector's name), index expressions (the left bracket), calls
// (the left parenthesis), range loops (the keyword; to the ranged
// expression) and go and defer statements (the keyword) to the start of
// the whole expression, the position a reviewer and the instrumenter
// look for.
func (c *checker) indexExprStarts(files []*ast.File) {
	c.starts = map[token.Pos]token.Pos{}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				c.starts[n.Sel.Pos()] = n.Pos()
			case *ast.CallExpr:
				c.starts[n.Lparen] = n.Pos()
			case *ast.IndexExpr:
				c.starts[n.Lbrack] = n.Pos()
			case *ast.RangeStmt:
				if n.X != nil {
					c.starts[n.For] = n.X.Pos()
				}
			case *ast.GoStmt:
				c.starts[n.Go] = n.Call.Pos()
			case *ast.DeferStmt:
				c.starts[n.Defer] = n.Call.Pos()
			}
			return true
		})
	}
}

// exprStart returns the start of the expression SSA recorded at pos.
func (c *checker) exprStart(pos token.Pos) token.Pos {
	if s, ok := c.starts[pos]; ok {
		return s
	}
	return pos
}
