// bench/peers/dotnet/Peer.cs: the benchmark's kernels on .NET's task library run by Mono 6.8
// (Debian 12's mono-runtime: Task.Factory.StartNew from a pool thread pushes to that thread's
// work-stealing queue, ThreadPoolWorkQueue.WorkStealingQueue, the variant `dotnet`; Task.Result
// runs the task inline when it is still in the local queue), the peer `dotnet-mono` of
// `stealcheck bench` (bench/rt_peer.cpp). The kernels are bench/kernels.hpp's, written again
// here with the same inputs and the same 64-bit check values (bench/peers/java/ForkJoinPeer.java
// has the same list); each fork as the task library's idiom writes it: start the others, compute
// the last, wait for the others' results.
//
// The protocol is ForkJoinPeer.java's: one request per line on stdin, one answer per line on
// stdout.
//   threads P      -> "ok" (the thread pool's minimum and maximum worker threads set to P)
//   run K ARGS     -> kernel K on the pool, timed here: "ok CHECK NANOS CPU_NANOS STEALS PEAK_KB"
//   serial K ARGS  -> the same recursion called without tasks
//   quit           -> exits
// NANOS is the kernel's wall time (Stopwatch), CPU_NANOS the process's CPU time over it
// (Process.TotalProcessorTime), STEALS -1 (the task library counts no steals for a program),
// PEAK_KB the process's peak resident memory (VmHWM). A bad request answers "error " and why. No
// warm-up runs of its own: Mono compiles each method once, on its first call, and the bench's
// untimed first run of each cell makes that call.
using System;
using System.Diagnostics;
using System.IO;
using System.Security.Cryptography;
using System.Threading;
using System.Threading.Tasks;

public static class Peer {
  /// The request is `serial`: every kernel calls its children instead of starting them.
  static bool serial;

  static Task<long> Start(Func<long> f) {
    return Task.Factory.StartNew(f);
  }

  // ---- fib ----
  static long Fib(int n) {
    if (n < 2) return n;
    Task<long> b = Start(() => Fib(n - 2));  // as fork2(a, b): b offered to thieves, a run here
    long a = Fib(n - 1);
    return a + b.Result;
  }

  static long FibSerial(int n) {
    return n < 2 ? n : FibSerial(n - 1) + FibSerial(n - 2);
  }

  // ---- nqueens ----
  static bool Fits(byte[] b, int row, int col) {
    for (int r = 0; r < row; ++r) {
      int d = b[r] - col;
      if (d == 0 || d == row - r || d == r - row) return false;
    }
    return true;
  }

  static long Queens(int n, int row, byte[] board) {
    if (row == n) return 1;
    var kids = new Task<long>[n];
    long found = 0;
    for (int c = 0; c < n; ++c) {
      if (!Fits(board, row, c)) continue;
      byte[] child = (byte[])board.Clone();  // the child's own copy
      child[row] = (byte)c;
      if (serial) {
        found += Queens(n, row + 1, child);
        continue;
      }
      kids[c] = Start(() => Queens(n, row + 1, child));
    }
    foreach (Task<long> k in kids)
      if (k != null) found += k.Result;
    return found;
  }

  // ---- uts (SHA-1 node states, as bench/uts_tree.cpp) ----
  static readonly ThreadLocal<SHA1> sha1 = new ThreadLocal<SHA1>(() => SHA1.Create());
  const int MaxChildren = 100, RangeLeaf = 8;

  sealed class Tree {
    public int shape, genMx, m;
    public double b0, q;
    public uint seed;
  }

  sealed class Node {
    public readonly byte[] state;
    public readonly int height;

    public Node(byte[] state, int height) {
      this.state = state;
      this.height = height;
    }
  }

  static void PutBe32(byte[] o, int at, uint v) {
    o[at] = (byte)(v >> 24);
    o[at + 1] = (byte)(v >> 16);
    o[at + 2] = (byte)(v >> 8);
    o[at + 3] = (byte)v;
  }

  static Node Root(Tree t) {
    var block = new byte[20];
    PutBe32(block, 16, t.seed);
    return new Node(sha1.Value.ComputeHash(block), 0);
  }

  static Node SpawnChild(Node parent, int i) {
    var input = new byte[24];
    Buffer.BlockCopy(parent.state, 0, input, 0, 20);
    PutBe32(input, 20, (uint)i);
    return new Node(sha1.Value.ComputeHash(input), parent.height + 1);
  }

  static double Uniform(Node n) {
    uint b = ((uint)n.state[16] << 24) | ((uint)n.state[17] << 16) | ((uint)n.state[18] << 8) |
             n.state[19];
    return (double)(b & 0x7fffffffu) / 2147483648.0;
  }

  static int NumChildren(Tree t, Node n) {
    if (t.shape == 0) {
      if (n.height == 0) return (int)Math.Floor(t.b0);
      int k = Uniform(n) < t.q ? t.m : 0;
      return Math.Min(k, MaxChildren);
    }
    double b = n.height < t.genMx ? t.b0 : 0.0;
    if (b == 0.0) return 0;
    double p = 1.0 / (1.0 + b);
    int kids = (int)Math.Floor(Math.Log(1.0 - Uniform(n)) / Math.Log(1.0 - p));
    return Math.Min(kids, MaxChildren);
  }

  /// The size of the subtree of child `index` of parent (the root when parent is null); the
  /// child's SHA-1 is computed by the task that runs it, as in uts_range.
  static long UtsNode(Tree t, Node parent, int index) {
    Node n = parent == null ? Root(t) : SpawnChild(parent, index);
    int kids = NumChildren(t, n);
    if (kids == 0) return 1;
    var o = new long[kids];
    UtsRange(t, n, 0, kids, o);
    long total = 1;
    foreach (long v in o) total += v;
    return total;
  }

  /// Children lo..hi-1 of n into o[lo..hi-1]: halves first while wider than RangeLeaf, then the
  /// others started and the last called, as uts_range.
  static void UtsRange(Tree t, Node n, int lo, int hi, long[] o) {
    if (hi - lo > RangeLeaf) {
      int mid = lo + (hi - lo) / 2;
      if (serial) {
        UtsRange(t, n, lo, mid, o);
        UtsRange(t, n, mid, hi, o);
        return;
      }
      Task right = Task.Factory.StartNew(() => UtsRange(t, n, mid, hi, o));
      UtsRange(t, n, lo, mid, o);
      right.Wait();
      return;
    }
    var kids = new Task<long>[hi - lo];
    for (int i = lo; i + 1 < hi; ++i) {
      int at = i;
      if (serial) {
        o[i] = UtsNode(t, n, i);
        continue;
      }
      kids[i - lo] = Start(() => UtsNode(t, n, at));
    }
    o[hi - 1] = UtsNode(t, n, hi - 1);
    if (!serial)
      for (int i = lo; i + 1 < hi; ++i) o[i] = kids[i - lo].Result;
  }

  // ---- matmul ----
  const int MatmulLeaf = 64;

  static void MatmulRec(double[] a, double[] b, double[] c, int n, int i0, int j0, int k0, int s) {
    if (s <= MatmulLeaf) {
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
      if (serial) {
        MatmulRec(a, b, c, n, i0, j0, k, h);
        MatmulRec(a, b, c, n, i0, j0 + h, k, h);
        MatmulRec(a, b, c, n, i0 + h, j0, k, h);
        MatmulRec(a, b, c, n, i0 + h, j0 + h, k, h);
        continue;
      }
      Task q0 = Task.Factory.StartNew(() => MatmulRec(a, b, c, n, i0, j0, k, h));
      Task q1 = Task.Factory.StartNew(() => MatmulRec(a, b, c, n, i0, j0 + h, k, h));
      Task q2 = Task.Factory.StartNew(() => MatmulRec(a, b, c, n, i0 + h, j0, k, h));
      MatmulRec(a, b, c, n, i0 + h, j0 + h, k, h);
      Task.WaitAll(q0, q1, q2);
    }
  }

  const ulong Gamma = 0x9e3779b97f4a7c15UL;

  static ulong SplitmixMix(ulong z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9UL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebUL;
    return z ^ (z >> 31);
  }

  static ulong Matmul(int n) {
    double[] a = new double[n * n], b = new double[n * n], c = new double[n * n];
    for (int i = 0; i < n * n; ++i) {
      a[i] = (double)((int)(((long)i * 7 + 3) % 13) - 6);
      b[i] = (double)((int)(((long)i * 5 + 1) % 11) - 5);
    }
    MatmulRec(a, b, c, n, 0, 0, 0, n);
    ulong hash = 0;  // bench/kernels.hpp matmul_hash: uts_child(h ^ bits, 0) per entry
    foreach (double v in c)
      hash = SplitmixMix((hash ^ (ulong)BitConverter.DoubleToInt64Bits(v)) + Gamma);
    return hash;
  }

  // ---- uts-fine (splitmix64 node ids, as bench/kernels.hpp uts_child) ----
  static ulong Child(ulong parent, int i) {
    return SplitmixMix(parent + Gamma * ((ulong)i + 1));
  }

  static long FineNode(int m, double q, ulong id) {
    int kids = (double)(id >> 11) * (1.0 / 9007199254740992.0) < q ? m : 0;
    return kids == 0 ? 1 : 1 + FineSubtrees(m, q, id, 0, kids);
  }

  /// Children lo..hi-1 of parent: the others started, the last called.
  static long FineSubtrees(int m, double q, ulong parent, int lo, int hi) {
    var kids = new Task<long>[hi - lo];
    long total = 0;
    for (int i = lo; i + 1 < hi; ++i) {
      ulong id = Child(parent, i);
      if (serial) {
        total += FineNode(m, q, id);
        continue;
      }
      kids[i - lo] = Start(() => FineNode(m, q, id));
    }
    total += FineNode(m, q, Child(parent, hi - 1));
    if (!serial)
      for (int i = lo; i + 1 < hi; ++i) total += kids[i - lo].Result;
    return total;
  }

  /// The root's b0 children in batches of 50 (the last batch called), plus the root.
  static long FineRoot(int b0, int m, double q, ulong seed) {
    int batches = (b0 + 49) / 50;
    var kids = new Task<long>[batches];
    long total = 1;
    for (int bi = 0; bi < batches; ++bi) {
      int lo = bi * 50, hi = Math.Min(bi * 50 + 50, b0);
      if (serial || bi + 1 == batches) {
        total += FineSubtrees(m, q, seed, lo, hi);
        continue;
      }
      kids[bi] = Start(() => FineSubtrees(m, q, seed, lo, hi));
    }
    if (!serial)
      for (int bi = 0; bi + 1 < batches; ++bi) total += kids[bi].Result;
    return total;
  }

  // ---- loop and relay (loop_leaf: splitmix64 of i, its top 32 bits) ----
  static long Leaf(int i) {
    return (long)(Child(0, i) >> 32);
  }

  /// n leaves started in a loop, then joined (loop); or one at a time (relay).
  static long Loop(int n, bool oneAtATime) {
    long sum = 0;
    if (serial) {
      for (int i = 0; i < n; ++i) sum += Leaf(i);
      return sum;
    }
    if (oneAtATime) {
      for (int i = 0; i < n; ++i) {
        int at = i;
        sum += Start(() => Leaf(at)).Result;
      }
      return sum;
    }
    var all = new Task<long>[n];
    for (int i = 0; i < n; ++i) {
      int at = i;
      all[i] = Start(() => Leaf(at));
    }
    foreach (Task<long> t in all) sum += t.Result;
    return sum;
  }

  // ---- requests ----
  static Func<ulong> Kernel(string[] w) {
    if (w.Length < 3) throw new ArgumentException("too few arguments");
    switch (w[1]) {
      case "fib": {
        int n = int.Parse(w[2]);
        return () => (ulong)(serial ? FibSerial(n) : Fib(n));
      }
      case "nqueens": {
        int n = int.Parse(w[2]);
        if (n > 16) throw new ArgumentException("nqueens " + n + " is over 16");
        return () => (ulong)Queens(n, 0, new byte[16]);
      }
      case "uts": {
        if (w.Length < 8) throw new ArgumentException("too few arguments");
        var t = new Tree {
          shape = int.Parse(w[2]), b0 = double.Parse(w[3], System.Globalization.CultureInfo.InvariantCulture),
          genMx = int.Parse(w[4]), q = double.Parse(w[5], System.Globalization.CultureInfo.InvariantCulture),
          m = int.Parse(w[6]), seed = uint.Parse(w[7])
        };
        return () => (ulong)UtsNode(t, null, 0);
      }
      case "utsfine": {
        if (w.Length < 6) throw new ArgumentException("too few arguments");
        int b0 = int.Parse(w[2]), m = int.Parse(w[3]);
        double q = double.Parse(w[4], System.Globalization.CultureInfo.InvariantCulture);
        ulong seed = ulong.Parse(w[5]);
        return () => (ulong)FineRoot(b0, m, q, seed);
      }
      case "matmul": {
        int n = int.Parse(w[2]);
        return () => Matmul(n);
      }
      case "loop":
      case "relay": {
        int n = int.Parse(w[2]);
        bool relay = w[1] == "relay";
        return () => (ulong)Loop(n, relay);
      }
      default:
        throw new ArgumentException("unknown kernel " + w[1]);
    }
  }

  /// The process's peak resident set (VmHWM of /proc/self/status), in KiB; -1 if unknown.
  static long PeakKb() {
    try {
      foreach (string l in File.ReadAllLines("/proc/self/status"))
        if (l.StartsWith("VmHWM:", StringComparison.Ordinal))
          return long.Parse(l.Substring(6).Trim().Split(' ')[0]);
    } catch (IOException) {
      return -1;
    }
    return -1;
  }

  static string Answer(string line, Process self) {
    string[] w = line.Split(new[] {' ', '\t'}, StringSplitOptions.RemoveEmptyEntries);
    if (w.Length == 0) return "error an empty request";
    if (w[0] == "threads") {
      int p;
      if (w.Length != 2 || !int.TryParse(w[1], out p) || p < 1)
        return "error bad thread count in '" + line + "'";
      int workers, io;
      ThreadPool.GetMinThreads(out workers, out io);
      // The order keeps min <= max at every step.
      bool ok = p >= workers ? ThreadPool.SetMaxThreads(p, Math.Max(io, Environment.ProcessorCount)) &&
                                   ThreadPool.SetMinThreads(p, io)
                             : ThreadPool.SetMinThreads(p, io) &&
                                   ThreadPool.SetMaxThreads(p, Math.Max(io, Environment.ProcessorCount));
      return ok ? "ok" : "error the thread pool refused " + p + " worker threads";
    }
    if (w[0] != "run" && w[0] != "serial") return "error unknown request '" + line + "'";
    serial = w[0] == "serial";
    Func<ulong> run;
    try {
      run = Kernel(w);
    } catch (Exception e) when (e is FormatException || e is OverflowException || e is ArgumentException) {
      return "error " + e.Message;
    }
    self.Refresh();
    TimeSpan cpu0 = self.TotalProcessorTime;
    Stopwatch clock = Stopwatch.StartNew();
    ulong check = serial ? run() : Task.Run(run).Result;
    long nanos = (long)(clock.Elapsed.TotalMilliseconds * 1e6);
    self.Refresh();
    long cpu = (self.TotalProcessorTime - cpu0).Ticks * 100;
    return "ok " + check + " " + nanos + " " + cpu + " -1 " + PeakKb();
  }

  public static int Main() {
    Process self = Process.GetCurrentProcess();
    Answer("threads 1", self);
    for (string line; (line = Console.In.ReadLine()) != null;) {
      line = line.Trim();
      if (line == "quit") break;
      Console.Out.WriteLine(Answer(line, self));
      Console.Out.Flush();
    }
    return 0;
  }
}
// SPDX-License-Identifier: Apache-2.0
