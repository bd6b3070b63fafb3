#!/usr/bin/env python3
"""tools/tests/progress_tty.py STEALCHECK PATTERN [--timed] -- ARGS...: the status line of a
long command.

Runs `STEALCHECK ARGS...` four times and checks that the status line (harness/progress.hpp) is
drawn exactly where it should be:
  - stderr on a pseudo-terminal: drawn ("\\r" lines matching PATTERN), and erased at the end;
  - stderr on a pipe: nothing of it (no "\\r", no escape sequence);
  - a pseudo-terminal with --no-progress: nothing of it;
  - a pipe with --progress: drawn.
The command's exit code and its stdout must be the same in all four runs (the line is only on
stderr); with --timed (bench, whose table judges times) only its number of lines. Exit 0 when all holds, else 1 with one line naming what did not.
"""
import os
import pty
import re
import subprocess
import sys
import tempfile


def run(cmd, tty):
    """(exit code, stdout, stderr) with stderr on a pseudo-terminal or a pipe."""
    if not tty:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
        return p.returncode, p.stdout, p.stderr
    master, slave = pty.openpty()
    out_file = tempfile.TemporaryFile()  # not a pipe: a full pipe would stop the command
    p = subprocess.Popen(cmd, stdout=out_file, stderr=slave)
    os.close(slave)
    err = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the other end closed: the command ended
            break
        if not chunk:
            break
        err += chunk
    p.wait(timeout=600)
    os.close(master)
    out_file.seek(0)
    out = out_file.read()
    return p.returncode, out, err


def drawn(err, pattern):
    lines = [l for l in err.decode(errors="replace").split("\r") if l.strip()]
    return any(re.search(pattern, l) for l in lines)


def main():
    timed = len(sys.argv) > 3 and sys.argv[3] == "--timed"
    rest = 4 if timed else 3
    if len(sys.argv) < rest + 1 or sys.argv[rest] != "--":
        print("usage: progress_tty.py STEALCHECK PATTERN [--timed] -- ARGS...", file=sys.stderr)
        return 2
    base = [sys.argv[1]] + sys.argv[rest + 1:]
    pattern = sys.argv[2]
    runs = {
        "terminal": run(base, True),
        "pipe": run(base, False),
        "terminal --no-progress": run(base + ["--no-progress"], True),
        "pipe --progress": run(base + ["--progress"], False),
    }
    rc0, out0, _ = runs["pipe"]
    # What stdout says, numbers and the spaces that align them aside (times differ by run).
    def words(out):
        return re.sub(rb"[-+]?\d+(\.\d+)?(e[-+]?\d+)?", b"#", out).split()

    def same(out):
        if timed:
            return out.count(b"\n") == out0.count(b"\n")
        return words(out) == words(out0)
    for name, (rc, out, err) in runs.items():
        err = err.replace(b"\r\n", b"\n")  # a terminal's own newline translation
        if rc != rc0:
            print(f"FAIL {name}: exit {rc}, with stderr on a pipe {rc0}")
            return 1
        if not same(out):
            print(f"FAIL {name}: stdout differs from the run with stderr on a pipe")
            return 1
        want = name in ("terminal", "pipe --progress")
        has = drawn(err, pattern)
        escape = b"\r" in err or b"\x1b[" in err
        if want and not has:
            print(f"FAIL {name}: no status line matching {pattern!r}; stderr: {err[-300:]!r}")
            return 1
        # the last escape sequence is the erase (a log line may follow it, never a drawn line)
        if want and not err[: err.rfind(b"\x1b[K") + 3].endswith(b"\r\x1b[K"):
            print(f"FAIL {name}: the status line is not erased at the end: {err[-120:]!r}")
            return 1
        if not want and escape:
            print(f"FAIL {name}: a status line reached it: {err[:300]!r}")
            return 1
    print(f"ok: drawn on a terminal and with --progress, nowhere else ({' '.join(base[1:])})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
# SPDX-License-Identifier: Apache-2.0
