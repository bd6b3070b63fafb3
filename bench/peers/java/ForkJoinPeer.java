// bench/peers/java/ForkJoinPeer.java: the benchmark's kernels on Java's ForkJoinPool
// (java.util.concurrent.ForkJoinPool and RecursiveTask, JDK 17), the peer `java-fjp` of
// `stealcheck bench` (bench/rt_peer.cpp). The kernels are bench/kernels.hpp's, written again
// here with the same inputs and the same 64-bit check values: fib without cutoff, nqueens with a
// copy of the board per child, UTS on SHA-1 node states (bench/uts_tree.cpp: the counts UTS
// publishes), matmul in quadrants with 64 x 64 leaves; each fork as ForkJoinPool's own idiom
// writes it (fork the others, compute the last, join).
//
// A child process that stays alive and answers one request per line (stdin to stdout); the
// first time it sees a request it runs it WARMUP_RUNS times untimed before the timed run:
//   threads P             -> "ok": a new pool of parallelism P
//   run K ARGS            -> kernel K on the pool, timed here (the answer below)
//   serial K ARGS         -> the same answer for the same recursion called without the pool
//   quit                  -> exits
// ARGS: fib N | nqueens N | uts SHAPE B0 GEN_MX Q M SEED (SHAPE 0 binomial, 1 geometric) |
// utsfine B0 M Q SEED | matmul N | loop N | relay N. CHECK is unsigned decimal; NANOS the
// kernel's wall time (System.nanoTime), CPU_NANOS the process's CPU time over it, STEALS
// ForkJoinPool.getStealCount's growth, PEAK_KB the process's peak resident memory (VmHWM). The
// answer is "ok CHECK NANOS CPU_NANOS STEALS PEAK_KB"; a bad request answers "error " and why.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveAction;
import java.util.concurrent.RecursiveTask;

public final class ForkJoinPeer {
  /** The request is `serial`: every task calls its children instead of forking them. */
  private static boolean serial = false;

  // ---- fib ----
  static final class Fib extends RecursiveTask<Long> {
    private static final long serialVersionUID = 1L;  // tasks are never serialized

    final int n;

    Fib(int n) {
      this.n = n;
    }

    @Override
    protected Long compute() {
      if (serial) return fibSerial(n);
      if (n < 2) return (long) n;
      Fib b = new Fib(n - 2);  // as fork2(a, b): b offered to thieves, a run here
      b.fork();
      long x = new Fib(n - 1).compute();
      return x + b.join();
    }
  }

  static long fibSerial(int n) {
    return n < 2 ? n : fibSerial(n - 1) + fibSerial(n - 2);
  }

  // ---- nqueens ----
  static boolean fits(byte[] b, int row, int col) {
    for (int r = 0; r < row; ++r) {
      int d = b[r] - col;
      if (d == 0 || d == row - r || d == r - row) return false;
    }
    return true;
  }

  static final class Queens extends RecursiveTask<Long> {
    private static final long serialVersionUID = 1L;  // tasks are never serialized

    final int n, row;
    final byte[] board;

    Queens(int n, int row, byte[] board) {
      this.n = n;
      this.row = row;
      this.board = board;
    }

    @Override
    protected Long compute() {
      if (row == n) return 1L;
      Queens[] kids = new Queens[n];
      for (int c = 0; c < n; ++c) {
        if (!fits(board, row, c)) continue;
        byte[] child = board.clone();  // the child's own copy
        child[row] = (byte) c;
        kids[c] = new Queens(n, row + 1, child);
        if (serial) continue;
        kids[c].fork();
      }
      long found = 0;
      for (Queens k : kids)
        if (k != null) found += serial ? k.compute() : k.join();
      return found;
    }
  }

  // ---- uts (SHA-1 node states, as bench/uts_tree.cpp) ----
  static final ThreadLocal<MessageDigest> sha1 = ThreadLocal.withInitial(() -> {
    try {
      return MessageDigest.getInstance("SHA-1");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  });
  static final int MAX_CHILDREN = 100, RANGE_LEAF = 8;

  static final class Tree {
    int shape, genMx, m;
    double b0, q;
    int seed;
  }

  static final class Node {
    final byte[] state;
    final int height;

    Node(byte[] state, int height) {
      this.state = state;
      this.height = height;
    }
  }

  static Node root(Tree t) {
    byte[] block = new byte[20];
    putBe32(block, 16, t.seed);
    MessageDigest d = sha1.get();
    d.reset();
    d.update(block);
    return new Node(d.digest(), 0);
  }

  static Node spawn(Node parent, int i) {
    byte[] index = new byte[4];
    putBe32(index, 0, i);
    MessageDigest d = sha1.get();
    d.reset();
    d.update(parent.state);
    d.update(index);
    return new Node(d.digest(), parent.height + 1);
  }

  static void putBe32(byte[] out, int at, int v) {
    out[at] = (byte) (v >>> 24);
    out[at + 1] = (byte) (v >>> 16);
    out[at + 2] = (byte) (v >>> 8);
    out[at + 3] = (byte) v;
  }

  static int numChildren(Tree t, Node n) {
    if (t.shape == 0) {
      if (n.height == 0) return (int) Math.floor(t.b0);
      int kids = uniform(n) < t.q ? t.m : 0;
      return Math.min(kids, MAX_CHILDREN);
    }
    double b = n.height < t.genMx ? t.b0 : 0.0;
    if (b == 0.0) return 0;
    double p = 1.0 / (1.0 + b);
    int kids = (int) Math.floor(Math.log(1.0 - uniform(n)) / Math.log(1.0 - p));
    return Math.min(kids, MAX_CHILDREN);
  }

  static double uniform(Node n) {
    long b = ((n.state[16] & 0xffL) << 24) | ((n.state[17] & 0xffL) << 16)
        | ((n.state[18] & 0xffL) << 8) | (n.state[19] & 0xffL);
    return (double) (b & 0x7fffffffL) / 2147483648.0;
  }

  /** The size of the subtree of child `index` of `parent` (the root when parent is null); the
   * child's SHA-1 is computed by the task that runs it, as in uts_range. */
  static final class UtsNode extends RecursiveTask<Long> {
    private static final long serialVersionUID = 1L;  // tasks are never serialized

    final Tree t;
    final Node parent;
    final int index;

    UtsNode(Tree t, Node parent, int index) {
      this.t = t;
      this.parent = parent;
      this.index = index;
    }

    @Override
    protected Long compute() {
      Node n = parent == null ? root(t) : spawn(parent, index);
      int kids = numChildren(t, n);
      if (kids == 0) return 1L;
      long[] out = new long[kids];
      new UtsRange(t, n, 0, kids, out).compute();
      long total = 1;
      for (long v : out) total += v;
      return total;
    }
  }

  /** Children lo..hi-1 of n into out[lo..hi-1]: halves by fork first while wider than
   * RANGE_LEAF, then the others forked and the last called, as uts_range. */
  static final class UtsRange extends RecursiveAction {
    private static final long serialVersionUID = 1L;  // tasks are never serialized

    final Tree t;
    final Node n;
    final int lo, hi;
    final long[] out;

    UtsRange(Tree t, Node n, int lo, int hi, long[] out) {
      this.t = t;
      this.n = n;
      this.lo = lo;
      this.hi = hi;
      this.out = out;
    }

    @Override
    protected void compute() {
      if (hi - lo > RANGE_LEAF) {
        int mid = lo + (hi - lo) / 2;
        UtsRange right = new UtsRange(t, n, mid, hi, out);
        if (serial) {
          new UtsRange(t, n, lo, mid, out).compute();
          right.compute();
          return;
        }
        right.fork();
        new UtsRange(t, n, lo, mid, out).compute();
        right.join();
        return;
      }
      UtsNode[] kids = new UtsNode[hi - lo];
      for (int i = lo; i + 1 < hi; ++i) {
        kids[i - lo] = new UtsNode(t, n, i);
        if (!serial) kids[i - lo].fork();
      }
      out[hi - 1] = new UtsNode(t, n, hi - 1).compute();
      for (int i = lo; i + 1 < hi; ++i) out[i] = serial ? kids[i - lo].compute() : kids[i - lo].join();
    }
  }

  // ---- matmul ----
  static final int MATMUL_LEAF = 64;

  static final class Matmul extends RecursiveAction {
    private static final long serialVersionUID = 1L;  // tasks are never serialized

    final double[] a, b, c;
    final int n, i0, j0, k0, s;

    Matmul(double[] a, double[] b, double[] c, int n, int i0, int j0, int k0, int s) {
      this.a = a;
      this.b = b;
      this.c = c;
      this.n = n;
      this.i0 = i0;
      this.j0 = j0;
      this.k0 = k0;
      this.s = s;
    }

    @Override
    protected void compute() {
      if (s <= MATMUL_LEAF) {
        for (int i = i0; i < i0 + s; ++i)
          for (int k = k0; k < k0 + s; ++k) {
            double aik = a[i * n + k];
            for (int j = j0; j < j0 + s; ++j) c[i * n + j] += aik * b[k * n + j];
          }
        return;
      }
      int h = s / 2;
      for (int kk = 0; kk < 2; ++kk) {  // the two k halves in sequence: same sums everywhere
        int k = k0 + kk * h;
        Matmul[] q = {new Matmul(a, b, c, n, i0, j0, k, h), new Matmul(a, b, c, n, i0, j0 + h, k, h),
            new Matmul(a, b, c, n, i0 + h, j0, k, h), new Matmul(a, b, c, n, i0 + h, j0 + h, k, h)};
        if (serial) {
          for (Matmul x : q) x.compute();
        } else {
          invokeAll(q);
        }
      }
    }
  }

  static long splitmixMix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }

  static long matmul(ForkJoinPool pool, int n) {
    double[] a = new double[n * n], b = new double[n * n], c = new double[n * n];
    for (int i = 0; i < n * n; ++i) {
      a[i] = (double) ((int) (((long) i * 7 + 3) % 13) - 6);
      b[i] = (double) ((int) (((long) i * 5 + 1) % 11) - 5);
    }
    Matmul root = new Matmul(a, b, c, n, 0, 0, 0, n);
    if (serial) {
      root.compute();
    } else {
      pool.invoke(root);
    }
    long h = 0;  // bench/kernels.hpp matmul_hash: uts_child(h ^ bits, 0) per entry
    for (double v : c) h = splitmixMix((h ^ Double.doubleToRawLongBits(v)) + 0x9e3779b97f4a7c15L);
    return h;
  }

  // ---- uts-fine (splitmix64 node ids, as bench/kernels.hpp uts_child) ----
  static final long GAMMA = 0x9e3779b97f4a7c15L;

  static long child(long parent, int i) {
    return splitmixMix(parent + GAMMA * ((long) i + 1));
  }

  static int fineChildren(int m, double q, long id) {
    double u = (double) (id >>> 11) * 0x1.0p-53;
    return u < q ? m : 0;
  }

  /** The subtree of node `id`. */
  static final class FineNode extends RecursiveTask<Long> {
    private static final long serialVersionUID = 1L;  // tasks are never serialized
    final int m;
    final double q;
    final long id;

    FineNode(int m, double q, long id) {
      this.m = m;
      this.q = q;
      this.id = id;
    }

    @Override
    protected Long compute() {
      int kids = fineChildren(m, q, id);
      return kids == 0 ? 1 : 1 + fineSubtrees(m, q, id, 0, kids);
    }
  }

  /** Children lo..hi-1 of parent: the others forked, the last called (uts_subtrees). */
  static long fineSubtrees(int m, double q, long parent, int lo, int hi) {
    FineNode[] kids = new FineNode[hi - lo];
    long total = 0;
    for (int i = lo; i + 1 < hi; ++i) {
      kids[i - lo] = new FineNode(m, q, child(parent, i));
      if (serial) {
        total += kids[i - lo].compute();
      } else {
        kids[i - lo].fork();
      }
    }
    total += new FineNode(m, q, child(parent, hi - 1)).compute();
    if (!serial)
      for (int i = lo; i + 1 < hi; ++i) total += kids[i - lo].join();
    return total;
  }

  /** Batch lo..hi-1 of the root's children. */
  static final class FineBatch extends RecursiveTask<Long> {
    private static final long serialVersionUID = 1L;  // tasks are never serialized
    final int m, lo, hi;
    final double q;
    final long seed;

    FineBatch(int m, double q, long seed, int lo, int hi) {
      this.m = m;
      this.q = q;
      this.seed = seed;
      this.lo = lo;
      this.hi = hi;
    }

    @Override
    protected Long compute() {
      return fineSubtrees(m, q, seed, lo, hi);
    }
  }

  /** The root's b0 children in batches of 50 (uts: the last batch called), plus the root. */
  static final class FineRoot extends RecursiveTask<Long> {
    private static final long serialVersionUID = 1L;  // tasks are never serialized
    final int b0, m;
    final double q;
    final long seed;

    FineRoot(int b0, int m, double q, long seed) {
      this.b0 = b0;
      this.m = m;
      this.q = q;
      this.seed = seed;
    }

    @Override
    protected Long compute() {
      int batches = (b0 + 49) / 50;
      FineBatch[] kids = new FineBatch[batches];
      long total = 1;
      for (int bi = 0; bi < batches; ++bi) {
        kids[bi] = new FineBatch(m, q, seed, bi * 50, Math.min(bi * 50 + 50, b0));
        if (serial || bi + 1 == batches) {
          total += kids[bi].compute();
        } else {
          kids[bi].fork();
        }
      }
      if (!serial)
        for (int bi = 0; bi + 1 < batches; ++bi) total += kids[bi].join();
      return total;
    }
  }

  // ---- loop and relay (loop_leaf: splitmix64 of i, its top 32 bits) ----
  static long leaf(int i) {
    return child(0, i) >>> 32;
  }

  static final class Leaf extends RecursiveTask<Long> {
    private static final long serialVersionUID = 1L;  // tasks are never serialized
    final int i;

    Leaf(int i) {
      this.i = i;
    }

    @Override
    protected Long compute() {
      return leaf(i);
    }
  }

  /** n leaves spawned in a loop, then joined (loop); or one at a time (relay). */
  static final class Loop extends RecursiveTask<Long> {
    private static final long serialVersionUID = 1L;  // tasks are never serialized
    final int n;
    final boolean oneAtATime;

    Loop(int n, boolean oneAtATime) {
      this.n = n;
      this.oneAtATime = oneAtATime;
    }

    @Override
    protected Long compute() {
      long sum = 0;
      if (serial) {
        for (int i = 0; i < n; ++i) sum += leaf(i);
        return sum;
      }
      if (oneAtATime) {
        for (int i = 0; i < n; ++i) {
          Leaf t = new Leaf(i);
          t.fork();
          sum += t.join();
        }
        return sum;
      }
      Leaf[] all = new Leaf[n];
      for (int i = 0; i < n; ++i) {
        all[i] = new Leaf(i);
        all[i].fork();
      }
      for (Leaf t : all) sum += t.join();
      return sum;
    }
  }

  /** The process's peak resident set (VmHWM of /proc/self/status), in KiB; -1 if unknown. */
  static long peakKb() {
    try {
      for (String l : Files.readAllLines(Paths.get("/proc/self/status"), StandardCharsets.UTF_8))
        if (l.startsWith("VmHWM:")) return Long.parseLong(l.replaceAll("[^0-9]", ""));
    } catch (java.io.IOException | NumberFormatException e) {
      return -1;
    }
    return -1;
  }

  // ---- requests ----
  static long kernel(ForkJoinPool pool, String[] w) {
    switch (w[1]) {
      case "fib": {
        Fib t = new Fib(Integer.parseInt(w[2]));
        return serial ? t.compute() : pool.invoke(t);
      }
      case "nqueens": {
        Queens t = new Queens(Integer.parseInt(w[2]), 0, new byte[16]);
        return serial ? t.compute() : pool.invoke(t);
      }
      case "uts": {
        Tree tr = new Tree();
        tr.shape = Integer.parseInt(w[2]);
        tr.b0 = Double.parseDouble(w[3]);
        tr.genMx = Integer.parseInt(w[4]);
        tr.q = Double.parseDouble(w[5]);
        tr.m = Integer.parseInt(w[6]);
        tr.seed = Integer.parseInt(w[7]);
        UtsNode t = new UtsNode(tr, null, 0);
        return serial ? t.compute() : pool.invoke(t);
      }
      case "utsfine": {
        FineRoot t = new FineRoot(Integer.parseInt(w[2]), Integer.parseInt(w[3]),
            Double.parseDouble(w[4]), Long.parseUnsignedLong(w[5]));
        return serial ? t.compute() : pool.invoke(t);
      }
      case "matmul":
        return matmul(pool, Integer.parseInt(w[2]));
      case "loop":
      case "relay": {
        Loop t = new Loop(Integer.parseInt(w[2]), w[1].equals("relay"));
        return serial ? t.compute() : pool.invoke(t);
      }
      default:
        throw new IllegalArgumentException("unknown kernel " + w[1]);
    }
  }

  /** Untimed runs of a request the first time this process sees it, as JMH's warm-up
   * iterations: the bench's own untimed run per cell comes on top. */
  static final int WARMUP_RUNS = 3;

  static final java.util.Set<String> warmed = new java.util.HashSet<>();

  public static void main(String[] args) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
    com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    ForkJoinPool pool = new ForkJoinPool(1);
    for (String line; (line = in.readLine()) != null;) {
      String[] w = line.trim().split("\\s+");
      try {
        if (w[0].equals("quit")) break;
        if (w[0].equals("threads")) {
          pool.shutdown();
          pool = new ForkJoinPool(Integer.parseInt(w[1]));
          out.println("ok");
        } else if (w[0].equals("run") || w[0].equals("serial")) {
          serial = w[0].equals("serial");
          if (warmed.add(line))  // the JIT's warm-up: the first time, untimed runs first
            for (int i = 0; i < WARMUP_RUNS; ++i) kernel(pool, w);
          long steals0 = pool.getStealCount();
          long cpu0 = os.getProcessCpuTime();
          long t0 = System.nanoTime();
          long check = kernel(pool, w);
          long nanos = System.nanoTime() - t0;
          long cpu = os.getProcessCpuTime() - cpu0;
          out.println("ok " + Long.toUnsignedString(check) + " " + nanos + " " + cpu + " "
              + (pool.getStealCount() - steals0) + " " + peakKb());
        } else {
          out.println("error unknown request '" + line + "'");
        }
      } catch (RuntimeException e) {
        out.println("error " + e);
      }
      out.flush();
    }
    pool.shutdown();
  }
}
// SPDX-License-Identifier: Apache-2.0
