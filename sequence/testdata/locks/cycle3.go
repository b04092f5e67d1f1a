package locks

import "sync"

var muC, muD, muE sync.Mutex

// Three paths take C→D, D→E and E→C: a cycle of three classes.
func pathCD() {
	muC.Lock()
	muD.Lock()
	muD.Unlock()
	muC.Unlock()
}

func pathDE() {
	muD.Lock()
	muE.Lock()
	muE.Unlock()
	muD.Unlock()
}

func pathEC() {
	muE.Lock()
	muC.Lock()
	muC.Unlock()
	muE.Unlock()
}
