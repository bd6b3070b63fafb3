// bench/peers/go/peer.go: the benchmark's kernels on Go's goroutines (Go 1.19: the runtime's
// per-P run queues with work stealing, runtime/proc.go findrunnable), the peer `go` of
// `stealcheck bench` (bench/rt_peer.cpp). The kernels are bench/kernels.hpp's, written again
// here with the same inputs and the same 64-bit check values (bench/peers/java/ForkJoinPeer.java
// has the same list); each fork as Go's idiom writes it: a goroutine per forked child and a
// sync.WaitGroup to join, the last child called in place.
//
// The protocol is ForkJoinPeer.java's: one request per line on stdin, one answer per line on
// stdout.
//
//	threads P      -> "ok" (GOMAXPROCS P)
//	run K ARGS     -> kernel K with goroutines, timed here: "ok CHECK NANOS CPU_NANOS STEALS PEAK_KB"
//	serial K ARGS  -> the same recursion called without goroutines
//	quit           -> exits
//
// NANOS is the kernel's wall time (time.Now, monotonic), CPU_NANOS the process's user and system
// time over it (getrusage), STEALS -1 (Go's scheduler does not count its steals for a program),
// PEAK_KB the process's peak resident memory (VmHWM). A bad request answers "error " and why.
// No warm-up runs of its own: Go compiles ahead of time, and the bench's untimed first run of
// each cell warms the heap.
package main

import (
	"bufio"
	"crypto/sha1"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// serial: the request is `serial`; every kernel calls its children instead of starting them.
var serial bool

// ---- fib ----

func fibSerial(n int) uint64 {
	if n < 2 {
		return uint64(n)
	}
	return fibSerial(n-1) + fibSerial(n-2)
}

func fib(n int) uint64 {
	if n < 2 {
		return uint64(n)
	}
	var b uint64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // as fork2(a, b): b offered to other Ps, a run here
		b = fib(n - 2)
		wg.Done()
	}()
	a := fib(n - 1)
	wg.Wait()
	return a + b
}

// ---- nqueens ----

func fits(board []byte, row, col int) bool {
	for r := 0; r < row; r++ {
		d := int(board[r]) - col
		if d == 0 || d == row-r || d == r-row {
			return false
		}
	}
	return true
}

func queens(n, row int, board []byte) uint64 {
	if row == n {
		return 1
	}
	found := make([]uint64, n)
	var wg sync.WaitGroup
	for c := 0; c < n; c++ {
		if !fits(board, row, c) {
			continue
		}
		child := append([]byte(nil), board...) // the child's own copy
		child[row] = byte(c)
		if serial {
			found[c] = queens(n, row+1, child)
			continue
		}
		wg.Add(1)
		go func(c int) {
			found[c] = queens(n, row+1, child)
			wg.Done()
		}(c)
	}
	wg.Wait()
	var total uint64
	for _, f := range found {
		total += f
	}
	return total
}

// ---- uts (SHA-1 node states, as bench/uts_tree.cpp) ----

const maxChildren, rangeLeaf = 100, 8

type tree struct {
	shape, genMx, m int
	b0, q           float64
	seed            uint32
}

type node struct {
	state  [sha1.Size]byte
	height int
}

func root(t *tree) node {
	var block [20]byte
	binary.BigEndian.PutUint32(block[16:], t.seed)
	return node{sha1.Sum(block[:]), 0}
}

func spawnChild(parent *node, i int) node {
	var in [sha1.Size + 4]byte
	copy(in[:], parent.state[:])
	binary.BigEndian.PutUint32(in[sha1.Size:], uint32(i))
	return node{sha1.Sum(in[:]), parent.height + 1}
}

func uniform(n *node) float64 {
	b := binary.BigEndian.Uint32(n.state[16:])
	return float64(b&0x7fffffff) / 2147483648.0
}

func numChildren(t *tree, n *node) int {
	if t.shape == 0 {
		if n.height == 0 {
			return int(math.Floor(t.b0))
		}
		kids := 0
		if uniform(n) < t.q {
			kids = t.m
		}
		return min(kids, maxChildren)
	}
	b := 0.0
	if n.height < t.genMx {
		b = t.b0
	}
	if b == 0 {
		return 0
	}
	p := 1.0 / (1.0 + b)
	kids := int(math.Floor(math.Log(1.0-uniform(n)) / math.Log(1.0-p)))
	return min(kids, maxChildren)
}

func min(a, b int) int {
	if a < b {
		return a
	}
	return b
}

// utsNode: the size of the subtree of child `index` of parent (the root when parent is nil);
// the child's SHA-1 is computed by the goroutine that runs it, as in uts_range.
func utsNode(t *tree, parent *node, index int) uint64 {
	var n node
	if parent == nil {
		n = root(t)
	} else {
		n = spawnChild(parent, index)
	}
	kids := numChildren(t, &n)
	if kids == 0 {
		return 1
	}
	out := make([]uint64, kids)
	utsRange(t, &n, 0, kids, out)
	total := uint64(1)
	for _, v := range out {
		total += v
	}
	return total
}

// utsRange: children lo..hi-1 of n into out[lo..hi-1]: halves first while wider than
// rangeLeaf, then the others started and the last called, as uts_range.
func utsRange(t *tree, n *node, lo, hi int, out []uint64) {
	if hi-lo > rangeLeaf {
		mid := lo + (hi-lo)/2
		if serial {
			utsRange(t, n, lo, mid, out)
			utsRange(t, n, mid, hi, out)
			return
		}
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			utsRange(t, n, mid, hi, out)
			wg.Done()
		}()
		utsRange(t, n, lo, mid, out)
		wg.Wait()
		return
	}
	var wg sync.WaitGroup
	for i := lo; i+1 < hi; i++ {
		if serial {
			out[i] = utsNode(t, n, i)
			continue
		}
		wg.Add(1)
		go func(i int) {
			out[i] = utsNode(t, n, i)
			wg.Done()
		}(i)
	}
	out[hi-1] = utsNode(t, n, hi-1)
	wg.Wait()
}

// ---- matmul ----

const matmulLeaf = 64

type matrices struct {
	a, b, c []float64
	n       int
}

func matmulRec(m *matrices, i0, j0, k0, s int) {
	if s <= matmulLeaf {
		for i := i0; i < i0+s; i++ {
			for k := k0; k < k0+s; k++ {
				aik := m.a[i*m.n+k]
				for j := j0; j < j0+s; j++ {
					m.c[i*m.n+j] += aik * m.b[k*m.n+j]
				}
			}
		}
		return
	}
	h := s / 2
	for kk := 0; kk < 2; kk++ { // the two k halves in sequence: same sums everywhere
		k := k0 + kk*h
		quads := [4][2]int{{i0, j0}, {i0, j0 + h}, {i0 + h, j0}, {i0 + h, j0 + h}}
		if serial {
			for _, q := range quads {
				matmulRec(m, q[0], q[1], k, h)
			}
			continue
		}
		var wg sync.WaitGroup
		for _, q := range quads[:3] {
			wg.Add(1)
			go func(q [2]int) {
				matmulRec(m, q[0], q[1], k, h)
				wg.Done()
			}(q)
		}
		matmulRec(m, quads[3][0], quads[3][1], k, h)
		wg.Wait()
	}
}

const gamma uint64 = 0x9e3779b97f4a7c15

func splitmixMix(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func matmul(n int) uint64 {
	m := &matrices{make([]float64, n*n), make([]float64, n*n), make([]float64, n*n), n}
	for i := 0; i < n*n; i++ {
		m.a[i] = float64(int((int64(i)*7+3)%13) - 6)
		m.b[i] = float64(int((int64(i)*5+1)%11) - 5)
	}
	matmulRec(m, 0, 0, 0, n)
	var h uint64 // bench/kernels.hpp matmul_hash: uts_child(h ^ bits, 0) per entry
	for _, v := range m.c {
		h = splitmixMix((h ^ math.Float64bits(v)) + gamma)
	}
	return h
}

// ---- uts-fine (splitmix64 node ids, as bench/kernels.hpp uts_child) ----

func child(parent uint64, i int) uint64 { return splitmixMix(parent + gamma*(uint64(i)+1)) }

func fineNode(m int, q float64, id uint64) uint64 {
	kids := 0
	if float64(id>>11)*(1.0/(1<<53)) < q {
		kids = m
	}
	if kids == 0 {
		return 1
	}
	return 1 + fineSubtrees(m, q, id, 0, kids)
}

// fineSubtrees: children lo..hi-1 of parent: the others started, the last called.
func fineSubtrees(m int, q float64, parent uint64, lo, hi int) uint64 {
	out := make([]uint64, hi-lo)
	var wg sync.WaitGroup
	for i := lo; i+1 < hi; i++ {
		if serial {
			out[i-lo] = fineNode(m, q, child(parent, i))
			continue
		}
		wg.Add(1)
		go func(i int) {
			out[i-lo] = fineNode(m, q, child(parent, i))
			wg.Done()
		}(i)
	}
	out[hi-1-lo] = fineNode(m, q, child(parent, hi-1))
	wg.Wait()
	var total uint64
	for _, v := range out {
		total += v
	}
	return total
}

// fineRoot: the root's b0 children in batches of 50 (the last batch called), plus the root.
func fineRoot(b0, m int, q float64, seed uint64) uint64 {
	batches := (b0 + 49) / 50
	out := make([]uint64, batches)
	var wg sync.WaitGroup
	for bi := 0; bi < batches; bi++ {
		lo, hi := bi*50, min(bi*50+50, b0)
		if serial || bi+1 == batches {
			out[bi] = fineSubtrees(m, q, seed, lo, hi)
			continue
		}
		wg.Add(1)
		go func(bi, lo, hi int) {
			out[bi] = fineSubtrees(m, q, seed, lo, hi)
			wg.Done()
		}(bi, lo, hi)
	}
	wg.Wait()
	total := uint64(1)
	for _, v := range out {
		total += v
	}
	return total
}

// ---- loop and relay (loop_leaf: splitmix64 of i, its top 32 bits) ----

func leaf(i int) uint64 { return child(0, i) >> 32 }

// loop: n leaves started in a loop, then joined; relay: one at a time.
func loop(n int, oneAtATime bool) uint64 {
	var sum uint64
	if serial {
		for i := 0; i < n; i++ {
			sum += leaf(i)
		}
		return sum
	}
	if oneAtATime {
		for i := 0; i < n; i++ {
			var v uint64
			var wg sync.WaitGroup
			wg.Add(1)
			go func(i int) {
				v = leaf(i)
				wg.Done()
			}(i)
			wg.Wait()
			sum += v
		}
		return sum
	}
	out := make([]uint64, n)
	var wg sync.WaitGroup
	wg.Add(n)
	for i := 0; i < n; i++ {
		go func(i int) {
			out[i] = leaf(i)
			wg.Done()
		}(i)
	}
	wg.Wait()
	for _, v := range out {
		sum += v
	}
	return sum
}

// ---- requests ----

// args reads the request's numbers after the kernel's name, in order.
type args struct {
	w   []string
	at  int
	err error
}

func (a *args) next() string {
	a.at++
	if a.at >= len(a.w) {
		if a.err == nil {
			a.err = fmt.Errorf("too few arguments for %s", a.w[1])
		}
		return "0"
	}
	return a.w[a.at]
}

func (a *args) int() int {
	v, err := strconv.Atoi(a.next())
	if err != nil && a.err == nil {
		a.err = err
	}
	return v
}

func (a *args) float() float64 {
	v, err := strconv.ParseFloat(a.next(), 64)
	if err != nil && a.err == nil {
		a.err = err
	}
	return v
}

func (a *args) uint64() uint64 {
	v, err := strconv.ParseUint(a.next(), 10, 64)
	if err != nil && a.err == nil {
		a.err = err
	}
	return v
}

// kernel parses request w (w[0] is run or serial, w[1] the kernel) and returns the run that
// answers it, or an error for a bad request.
func kernel(w []string) (func() uint64, error) {
	if len(w) < 2 {
		return nil, fmt.Errorf("no kernel")
	}
	a := &args{w: w, at: 1}
	var run func() uint64
	switch w[1] {
	case "fib":
		n := a.int()
		run = func() uint64 {
			if serial {
				return fibSerial(n)
			}
			return fib(n)
		}
	case "nqueens":
		n := a.int()
		run = func() uint64 { return queens(n, 0, make([]byte, 16)) }
	case "uts":
		t := &tree{shape: a.int(), b0: a.float(), genMx: a.int(), q: a.float(), m: a.int()}
		t.seed = uint32(a.int())
		run = func() uint64 { return utsNode(t, nil, 0) }
	case "utsfine":
		b0, m, q, seed := a.int(), a.int(), a.float(), a.uint64()
		run = func() uint64 { return fineRoot(b0, m, q, seed) }
	case "matmul":
		n := a.int()
		run = func() uint64 { return matmul(n) }
	case "loop", "relay":
		n, relay := a.int(), w[1] == "relay"
		run = func() uint64 { return loop(n, relay) }
	default:
		return nil, fmt.Errorf("unknown kernel %s", w[1])
	}
	return run, a.err
}

// cpuNanos: the process's user and system time so far.
func cpuNanos() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// peakKb: the process's peak resident set (VmHWM of /proc/self/status), in KiB; -1 if unknown.
func peakKb() int64 {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return -1
	}
	for _, l := range strings.Split(string(status), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmHWM:" {
			if v, err := strconv.ParseInt(f[1], 10, 64); err == nil {
				return v
			}
		}
	}
	return -1
}

func answer(line string) string {
	w := strings.Fields(line)
	if len(w) == 0 {
		return "error an empty request"
	}
	switch w[0] {
	case "threads":
		p := 0
		if len(w) == 2 {
			p, _ = strconv.Atoi(w[1])
		}
		if p < 1 {
			return "error bad thread count in '" + line + "'"
		}
		runtime.GOMAXPROCS(p)
		return "ok"
	case "run", "serial":
		serial = w[0] == "serial"
		run, err := kernel(w)
		if err != nil {
			return "error " + err.Error()
		}
		cpu0 := cpuNanos()
		t0 := time.Now()
		check := run()
		nanos := time.Since(t0).Nanoseconds()
		cpu := cpuNanos() - cpu0
		return fmt.Sprintf("ok %d %d %d -1 %d", check, nanos, cpu, peakKb())
	}
	return "error unknown request '" + line + "'"
}

func main() {
	runtime.GOMAXPROCS(1)
	in := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	for in.Scan() {
		line := strings.TrimSpace(in.Text())
		if line == "quit" {
			break
		}
		fmt.Fprintln(out, answer(line))
		out.Flush()
	}
}

// SPDX-License-Identifier: Apache-2.0
