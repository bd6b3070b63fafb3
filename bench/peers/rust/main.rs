// bench/peers/rust/main.rs: the benchmark's kernels on Rayon (rayon 1.6 and rayon-core 1.10 as
// Debian 12 ships them: per-worker crossbeam-deque Chase-Lev deques, rayon-core
// src/registry.rs WorkerThread::steal), the peer `rayon` of `stealcheck bench`
// (bench/rt_peer.cpp). The kernels are bench/kernels.hpp's, written again here with the same
// inputs and the same 64-bit check values (bench/peers/java/ForkJoinPeer.java has the same
// list); each fork as Rayon's idiom writes it: `rayon::join` for two children and, for more,
// the children's range split in halves by `rayon::join` (as Rayon's parallel iterators split);
// `rayon::scope` and `spawn` where the kernel is a spawning loop (loop, relay).
//
// The protocol is ForkJoinPeer.java's: one request per line on stdin, one answer per line on
// stdout.
//   threads P      -> "ok" (a new rayon::ThreadPool of P threads)
//   run K ARGS     -> kernel K on the pool, timed here: "ok CHECK NANOS CPU_NANOS STEALS PEAK_KB"
//   serial K ARGS  -> the same recursion called without the pool
//   quit           -> exits
// NANOS is the kernel's wall time (Instant), CPU_NANOS the process's user and system time over
// it (getrusage), STEALS -1 (Rayon does not count its steals for a program), PEAK_KB the
// process's peak resident memory (VmHWM). A bad request answers "error " and why. No warm-up
// runs of its own: Rust compiles ahead of time, and the bench's untimed first run of each cell
// warms the pool and the allocator.
use sha1::{Digest, Sha1};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The request is `serial`: every kernel calls its children instead of offering them.
static SERIAL: AtomicBool = AtomicBool::new(false);

fn serial() -> bool {
    SERIAL.load(Ordering::Relaxed) // one thread writes it, between requests
}

/// Both closures, in parallel unless serial.
fn join<A: FnOnce() -> u64 + Send, B: FnOnce() -> u64 + Send>(a: A, b: B) -> (u64, u64) {
    if serial() {
        (a(), b())
    } else {
        rayon::join(a, b)
    }
}

/// out[i] = f(first + i) for every i: the children split in halves by `rayon::join` down to one
/// each, as Rayon's parallel iterators split a range (rayon's iter/plumbing bridge); serially in
/// order when serial.
fn each_child<F: Fn(usize) -> u64 + Sync>(out: &mut [u64], first: usize, f: &F) {
    match out.len() {
        0 => {}
        1 => out[0] = f(first),
        len => {
            let (left, right) = out.split_at_mut(len / 2);
            join(
                || {
                    each_child(left, first, f);
                    0
                },
                || {
                    each_child(right, first + len / 2, f);
                    0
                },
            );
        }
    }
}

// ---- fib ----

fn fib(n: u32) -> u64 {
    if n < 2 {
        return n as u64;
    }
    if serial() {
        return fib_serial(n);
    }
    let (a, b) = rayon::join(|| fib(n - 1), || fib(n - 2)); // b offered to thieves, a run here
    a + b
}

fn fib_serial(n: u32) -> u64 {
    if n < 2 {
        n as u64
    } else {
        fib_serial(n - 1) + fib_serial(n - 2)
    }
}

// ---- nqueens ----

fn fits(board: &[u8], row: usize, col: usize) -> bool {
    (0..row).all(|r| {
        let d = board[r] as i64 - col as i64;
        d != 0 && d != (row - r) as i64 && d != r as i64 - row as i64
    })
}

fn queens(n: usize, row: usize, board: &[u8]) -> u64 {
    if row == n {
        return 1;
    }
    let cols: Vec<usize> = (0..n).filter(|&c| fits(board, row, c)).collect();
    let mut found = vec![0u64; cols.len()];
    each_child(&mut found, 0, &|i| {
        let mut child = board.to_vec(); // the child's own copy
        child[row] = cols[i] as u8;
        queens(n, row + 1, &child)
    });
    found.iter().sum()
}

// ---- uts (SHA-1 node states, as bench/uts_tree.cpp) ----

const MAX_CHILDREN: usize = 100;

struct Tree {
    shape: u32,
    b0: f64,
    gen_mx: u32,
    q: f64,
    m: usize,
    seed: u32,
}

struct Node {
    state: [u8; 20],
    height: u32,
}

fn root(t: &Tree) -> Node {
    let mut block = [0u8; 20];
    block[16..].copy_from_slice(&t.seed.to_be_bytes());
    Node {
        state: Sha1::digest(&block).into(),
        height: 0,
    }
}

fn spawn_child(parent: &Node, i: usize) -> Node {
    let mut h = Sha1::new();
    h.update(parent.state);
    h.update((i as u32).to_be_bytes());
    Node {
        state: h.finalize().into(),
        height: parent.height + 1,
    }
}

fn uniform(n: &Node) -> f64 {
    let b = u32::from_be_bytes([n.state[16], n.state[17], n.state[18], n.state[19]]);
    (b & 0x7fff_ffff) as f64 / 2147483648.0
}

fn num_children(t: &Tree, n: &Node) -> usize {
    if t.shape == 0 {
        if n.height == 0 {
            return t.b0.floor() as usize;
        }
        let kids = if uniform(n) < t.q { t.m } else { 0 };
        return kids.min(MAX_CHILDREN);
    }
    let b = if n.height < t.gen_mx { t.b0 } else { 0.0 };
    if b == 0.0 {
        return 0;
    }
    let p = 1.0 / (1.0 + b);
    let kids = ((1.0 - uniform(n)).ln() / (1.0 - p).ln()).floor() as usize;
    kids.min(MAX_CHILDREN)
}

/// The size of the subtree of child `index` of `parent` (the root when None); the child's SHA-1
/// is computed by the task that runs it, as in uts_range (whose halving down to 8 children, and
/// then one task each, becomes halving down to one here).
fn uts_node(t: &Tree, parent: Option<&Node>, index: usize) -> u64 {
    let n = match parent {
        None => root(t),
        Some(p) => spawn_child(p, index),
    };
    let kids = num_children(t, &n);
    if kids == 0 {
        return 1;
    }
    let mut out = vec![0u64; kids];
    each_child(&mut out, 0, &|i| uts_node(t, Some(&n), i));
    1 + out.iter().sum::<u64>()
}

// ---- matmul ----

const MATMUL_LEAF: usize = 64;

/// C's rows are written by one task per quadrant: a raw pointer shared by the tasks, each
/// writing its own quadrant only.
#[derive(Clone, Copy)]
struct Out(*mut f64);
unsafe impl Send for Out {}
unsafe impl Sync for Out {}

fn matmul_rec(a: &[f64], b: &[f64], c: Out, n: usize, i0: usize, j0: usize, k0: usize, s: usize) {
    if s <= MATMUL_LEAF {
        for i in i0..i0 + s {
            for k in k0..k0 + s {
                let aik = a[i * n + k];
                for j in j0..j0 + s {
                    // SAFETY: (i, j) lies in this task's quadrant; no other task writes it now.
                    unsafe { *c.0.add(i * n + j) += aik * b[k * n + j] };
                }
            }
        }
        return;
    }
    let h = s / 2;
    for kk in 0..2 {
        // the two k halves in sequence: same sums everywhere
        let k = k0 + kk * h;
        let q = |i, j| {
            matmul_rec(a, b, c, n, i, j, k, h);
            0
        };
        join(
            || join(|| q(i0, j0), || q(i0, j0 + h)).0,
            || join(|| q(i0 + h, j0), || q(i0 + h, j0 + h)).0,
        );
    }
}

const GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

fn splitmix_mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn matmul(n: usize) -> u64 {
    let a: Vec<f64> = (0..n * n)
        .map(|i| (((i as i64 * 7 + 3) % 13) - 6) as f64)
        .collect();
    let b: Vec<f64> = (0..n * n)
        .map(|i| (((i as i64 * 5 + 1) % 11) - 5) as f64)
        .collect();
    let mut c = vec![0.0f64; n * n];
    matmul_rec(&a, &b, Out(c.as_mut_ptr()), n, 0, 0, 0, n);
    // bench/kernels.hpp matmul_hash: uts_child(h ^ bits, 0) per entry
    c.iter().fold(0u64, |h, v| {
        splitmix_mix((h ^ v.to_bits()).wrapping_add(GAMMA))
    })
}

// ---- uts-fine (splitmix64 node ids, as bench/kernels.hpp uts_child) ----

fn child(parent: u64, i: usize) -> u64 {
    splitmix_mix(parent.wrapping_add(GAMMA.wrapping_mul(i as u64 + 1)))
}

fn fine_node(m: usize, q: f64, id: u64) -> u64 {
    let kids = if ((id >> 11) as f64) * (1.0 / (1u64 << 53) as f64) < q {
        m
    } else {
        0
    };
    if kids == 0 {
        return 1;
    }
    1 + fine_subtrees(m, q, id, 0, kids)
}

/// Children lo..hi-1 of parent.
fn fine_subtrees(m: usize, q: f64, parent: u64, lo: usize, hi: usize) -> u64 {
    let mut out = vec![0u64; hi - lo];
    each_child(&mut out, lo, &|i| fine_node(m, q, child(parent, i)));
    out.iter().sum()
}

/// The root's b0 children in batches of 50, plus the root.
fn fine_root(b0: usize, m: usize, q: f64, seed: u64) -> u64 {
    let mut out = vec![0u64; (b0 + 49) / 50];
    each_child(&mut out, 0, &|bi| {
        fine_subtrees(m, q, seed, bi * 50, (bi * 50 + 50).min(b0))
    });
    1 + out.iter().sum::<u64>()
}

// ---- loop and relay (loop_leaf: splitmix64 of i, its top 32 bits) ----

fn leaf(i: usize) -> u64 {
    child(0, i) >> 32
}

/// n leaves spawned in a loop, then joined (loop); or one at a time (relay).
fn run_loop(n: usize, one_at_a_time: bool) -> u64 {
    if serial() {
        return (0..n).map(leaf).sum();
    }
    if one_at_a_time {
        return (0..n)
            .map(|i| {
                let mut v = 0;
                rayon::scope(|s| s.spawn(|_| v = leaf(i)));
                v
            })
            .sum();
    }
    let mut out = vec![0u64; n];
    rayon::scope(|s| {
        for (i, slot) in out.iter_mut().enumerate() {
            s.spawn(move |_| *slot = leaf(i));
        }
    });
    out.iter().sum()
}

// ---- requests ----

fn arg<T: std::str::FromStr>(w: &[&str], at: usize) -> Result<T, String> {
    let text = w
        .get(at)
        .ok_or_else(|| format!("too few arguments for {}", w[1]))?;
    text.parse::<T>()
        .map_err(|_| format!("bad number '{}'", text))
}

/// The run that answers request w (w[0] run or serial, w[1] the kernel), or why it is bad.
fn kernel(w: &[&str]) -> Result<Box<dyn Fn() -> u64 + Send + Sync>, String> {
    let kernel = w.get(1).ok_or_else(|| "no kernel".to_string())?;
    Ok(match *kernel {
        "fib" => {
            let n: u32 = arg(w, 2)?;
            Box::new(move || if serial() { fib_serial(n) } else { fib(n) })
        }
        "nqueens" => {
            let n: usize = arg(w, 2)?;
            if n > 16 {
                return Err(format!("nqueens {} is over 16", n));
            }
            Box::new(move || queens(n, 0, &[0u8; 16]))
        }
        "uts" => {
            let t = Tree {
                shape: arg(w, 2)?,
                b0: arg(w, 3)?,
                gen_mx: arg(w, 4)?,
                q: arg(w, 5)?,
                m: arg(w, 6)?,
                seed: arg(w, 7)?,
            };
            Box::new(move || uts_node(&t, None, 0))
        }
        "utsfine" => {
            let (b0, m, q, seed): (usize, usize, f64, u64) =
                (arg(w, 2)?, arg(w, 3)?, arg(w, 4)?, arg(w, 5)?);
            Box::new(move || fine_root(b0, m, q, seed))
        }
        "matmul" => {
            let n: usize = arg(w, 2)?;
            Box::new(move || matmul(n))
        }
        "loop" | "relay" => {
            let (n, relay): (usize, bool) = (arg(w, 2)?, *kernel == "relay");
            Box::new(move || run_loop(n, relay))
        }
        other => return Err(format!("unknown kernel {}", other)),
    })
}

/// The process's user and system time so far, in nanoseconds.
fn cpu_nanos() -> i64 {
    // SAFETY: getrusage writes the struct it is given and nothing else.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut ru) } != 0 {
        return 0;
    }
    let ns = |t: libc::timeval| t.tv_sec as i64 * 1_000_000_000 + t.tv_usec as i64 * 1000;
    ns(ru.ru_utime) + ns(ru.ru_stime)
}

/// The process's peak resident set (VmHWM of /proc/self/status), in KiB; -1 if unknown.
fn peak_kb() -> i64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(-1)
}

/// A pool of p workers with 64 MiB stacks: UTS T3's 1,368 levels, each a few frames of
/// `rayon::join` deep, overflow the 2 MiB that Rust gives a thread by default.
fn new_pool(p: usize) -> Result<rayon::ThreadPool, rayon::ThreadPoolBuildError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(p)
        .stack_size(64 << 20)
        .build()
}

fn answer(line: &str, pool: &mut rayon::ThreadPool) -> String {
    let w: Vec<&str> = line.split_whitespace().collect();
    match w.first().copied() {
        Some("threads") => match w.get(1).and_then(|p| p.parse::<usize>().ok()) {
            Some(p) if p >= 1 => match new_pool(p) {
                Ok(new_pool) => {
                    *pool = new_pool;
                    "ok".to_string()
                }
                Err(e) => format!("error {}", e),
            },
            _ => format!("error bad thread count in '{}'", line),
        },
        Some(how @ ("run" | "serial")) => {
            SERIAL.store(how == "serial", Ordering::Relaxed);
            let run = match kernel(&w) {
                Ok(run) => run,
                Err(e) => return format!("error {}", e),
            };
            let cpu0 = cpu_nanos();
            let t0 = Instant::now();
            let check = pool.install(|| run());
            let nanos = t0.elapsed().as_nanos();
            let cpu = cpu_nanos() - cpu0;
            format!("ok {} {} {} -1 {}", check, nanos, cpu, peak_kb())
        }
        _ => format!("error unknown request '{}'", line),
    }
}

fn main() {
    let mut pool = new_pool(1).expect("a pool of one thread");
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let line = match line {
            Ok(line) => line,
            Err(_) => break,
        };
        let line = line.trim();
        if line == "quit" {
            break;
        }
        if writeln!(out, "{}", answer(line, &mut pool))
            .and_then(|_| out.flush())
            .is_err()
        {
            break;
        }
    }
}

// SPDX-License-Identifier: Apache-2.0
