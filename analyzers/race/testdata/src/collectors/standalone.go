package collectors

import "sync"

// An Object keeps its Info by value under its mutex (minio-go's
// Object.objectInfo); callers also handle Infos of their own: locals,
// elements of a []Info, values a literal makes. Those are other memory:
// reading their Size needs no Object's lock. Silent.
type Info struct {
	Size int64
	ETag string
}

type Object struct {
	mu   sync.Mutex
	info Info
	read int64
}

func (o *Object) Stat() Info {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.info.Size -= o.read
	return o.info
}

func (o *Object) Read(n int64) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.read += n
	o.info.ETag = ""
}

func (o *Object) Reset(size int64) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.info = Info{Size: size}
}

func TotalSize(infos []Info) int64 {
	var n int64
	for i := range infos {
		n += infos[i].Size
	}
	return n
}

func Sized(size int64) *Info {
	info := &Info{}
	info.Size = size
	return info
}

func Fetch(get func() Info) int64 {
	var info Info
	done := make(chan struct{})
	go func() {
		info = get()
		close(done)
	}()
	<-done
	return info.Size
}

func (o *Object) Size() int64 {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.info.Size
}

func (o *Object) Grow(n int64) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.info.Size += n
}

// Peek reads the Object's own Info without its lock: reported.
func (o *Object) Peek() int64 {
	return o.info.Size // want `possible data race: \(\*collectors.Object\).Peek reads \(collectors.Info\).Size without holding \(collectors.Object\).mu`
}
