package indirect // want package:`orders\{\(indirect.FIFO\).lock->\(indirect.Informer\).mu \(indirect.Informer\).mu->\(indirect.FIFO\).lock \(indirect.Informer2\).mu->\(indirect.FIFO2\).lock \(indirect.Cacher\).mu->\(indirect.Watch\).mu \(indirect.Watch\).mu->\(indirect.Cacher\).mu \(indirect.Site\).mu->\(indirect.Page\).mu \(indirect.Page\).mu->\(indirect.Site\).mu \(indirect.DeviceSet\).Mutex->\(indirect.DevInfo\).lock \(indirect.DevInfo\).lock->\(indirect.DeviceSet\).Mutex\}`

// The fixtures of this package take locks through calls the analysis
// must follow past the package's own direct calls: functions the
// standard library runs (sync.Once.Do, sort.Slice, fmt calling String), a
// callee taking back its caller's lock, callbacks stored in fields, and a
// retry loop whose first iteration still holds the lock a callee releases.
