// examples/go-recorder: a Go program that records a history of its own work-stealing deque
// for `stealcheck lincheck --history FILE` (stealcheck's docs/history-format.md). The deque is
// a slice behind a sync.Mutex: the owner pushes and pops at the bottom, thieves steal at the
// top. Nothing of stealcheck runs here; only the file is shared.
//
// Stamps come from one counter incremented with atomic.AddUint64 right before and right after
// each operation. Go's atomics are sequentially consistent, more than the acquire-release RMW
// the format asks for: if A's response stamp is below B's invoke stamp, A happens before B.
//
// Usage: go-recorder OUT.jsonl [OPS] [--lie]   (--lie: the first value taken is replaced by
// one never pushed, a history the checker must reject). Exit 2 on bad arguments.
package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
)

type deque struct {
	mu    sync.Mutex
	items []uint64
}

func (d *deque) push(v uint64) {
	d.mu.Lock()
	d.items = append(d.items, v)
	d.mu.Unlock()
}

func (d *deque) pop() (uint64, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.items) == 0 {
		return 0, false
	}
	v := d.items[len(d.items)-1]
	d.items = d.items[:len(d.items)-1]
	return v, true
}

func (d *deque) steal() (uint64, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.items) == 0 {
		return 0, false
	}
	v := d.items[0]
	d.items = d.items[1:]
	return v, true
}

type record struct {
	thread           int
	op               string
	hasValue         bool
	value            uint64
	invoke, response uint64
}

var clock uint64

func stamp() uint64 { return atomic.AddUint64(&clock, 1) - 1 }

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: go-recorder OUT.jsonl [OPS] [--lie]")
		os.Exit(2)
	}
	ops, lie := uint64(20000), false
	for _, a := range os.Args[2:] {
		if a == "--lie" {
			lie = true
		} else if n, err := strconv.ParseUint(a, 10, 32); err == nil {
			ops = n
		} else {
			fmt.Fprintf(os.Stderr, "go-recorder: error: bad argument '%s'\n", a)
			os.Exit(2)
		}
	}
	var d deque
	const thieves = 2
	logs := make([][]record, thieves+1)
	var done atomic.Bool
	var wg sync.WaitGroup
	for t := 1; t <= thieves; t++ {
		wg.Add(1)
		go func(t int) {
			defer wg.Done()
			for {
				inv := stamp()
				v, ok := d.steal()
				res := stamp()
				logs[t] = append(logs[t], record{t, "steal", ok, v, inv, res})
				if done.Load() {
					return
				}
			}
		}(t)
	}
	pop := func() bool {
		inv := stamp()
		v, ok := d.pop()
		res := stamp()
		logs[0] = append(logs[0], record{0, "pop", ok, v, inv, res})
		return ok
	}
	next := uint64(0)
	for i := uint64(0); i < ops; i++ {
		if i%3 == 2 {
			pop()
			continue
		}
		inv := stamp()
		d.push(next)
		res := stamp()
		logs[0] = append(logs[0], record{0, "push", true, next, inv, res})
		next++
	}
	done.Store(true)
	wg.Wait()
	for pop() {
	}
	if lie { // the first value taken becomes one never pushed
		var first *record
		for t := range logs {
			for i := range logs[t] {
				r := &logs[t][i]
				if r.op != "push" && r.hasValue && (first == nil || r.invoke < first.invoke) {
					first = r
				}
			}
		}
		if first != nil {
			first.value = next + 1000
		}
	}
	f, err := os.Create(os.Args[1])
	if err != nil {
		fmt.Fprintf(os.Stderr, "go-recorder: error: %v\n", err)
		os.Exit(2)
	}
	w := bufio.NewWriter(f)
	fmt.Fprintln(w, `{"stealcheck_history": 1, "spec": "lifo_owner"}`)
	n := 0
	for _, log := range logs {
		for _, r := range log {
			result := `"empty"`
			if r.hasValue {
				result = strconv.FormatUint(r.value, 10)
			}
			if r.op == "push" {
				fmt.Fprintf(w, `{"thread": 0, "op": "push", "value": %d, "invoke": %d, "response": %d}`+"\n",
					r.value, r.invoke, r.response)
			} else {
				fmt.Fprintf(w, `{"thread": %d, "op": "%s", "result": %s, "invoke": %d, "response": %d}`+"\n",
					r.thread, r.op, result, r.invoke, r.response)
			}
			n++
		}
	}
	if err := w.Flush(); err != nil || f.Close() != nil {
		fmt.Fprintf(os.Stderr, "go-recorder: error: cannot write %s\n", os.Args[1])
		os.Exit(2)
	}
	suffix := ""
	if lie {
		suffix = " (one result falsified)"
	}
	fmt.Printf("%d operations of 1 owner and %d thieves written to %s%s\n", n, thieves, os.Args[1], suffix)
}

// SPDX-License-Identifier: Apache-2.0
