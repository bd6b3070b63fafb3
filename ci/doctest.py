#!/usr/bin/env python3
"""ci/doctest.py STEALCHECK [--cxx CXX] [--pages FILE...]: runs the code blocks of the README and
the manual (--pages: of those files instead).

Every fenced code block of README.md, docs/*.md and docs/case-studies/*.md (the directive
blocks of the site, ```{...}, aside) follows a marker line, an HTML comment that the page
does not show, which says what is done with it:

  <!-- doc: run -->                 a shell block, run with bash -e from the repository's root
                                    (`stealcheck` is the STEALCHECK given); it must exit 0
  <!-- doc: output -->              `$ COMMAND` and what it prints: COMMAND is run and each
                                    quoted line must appear in its output, in order, the
                                    same but for times, rates and hashes ("..." skips lines,
                                    a line ending in "..." is a prefix)
  <!-- doc: output, exit N -->      the same, and COMMAND exits N
  <!-- doc: output, numbers free --> the same, any number in place of each number (a native
                                    run, whose values depend on the thread timing; up to
                                    three runs, the first that prints the quoted lines passes)
  <!-- doc: output, native -->      the same numbers, up to three runs: the table of a command
                                    with native columns, whose catches follow the thread timing
  <!-- doc: compile -->             C++: compiled against the source tree's headers
                                    (-fsyntax-only); `#include "my_deque.hpp"` finds a deque
                                    template my_deque (Chase-Lev)
  <!-- doc: skip (REASON) -->       not run; the reason is required

A block without a marker, an unknown marker, a skip without a reason, and a block that does
not do what its marker says fail the run (exit 1), each named by file and line.
"""
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MARKER = re.compile(r"^<!-- doc: (run|output|compile|skip)(.*?)-->\s*$")
FENCE = re.compile(r"^(\s*)(```+)(.*)$")
NUMBER = re.compile(r"\d+(\.\d+)?")
# What changes from run to run even with the same seed: times, rates, hashes.
TIME = re.compile(r"\d+(\.\d+)?\s?(s|ms|us|µs|ns|min)\b|\d+(\.\d+)?/s\b|\b[0-9a-f]{7,40}\b")


def pages():
    out = [os.path.join(ROOT, "README.md")]
    for sub in ("docs", os.path.join("docs", "case-studies")):
        d = os.path.join(ROOT, sub)
        out += sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".md"))
    return out


def blocks(path):
    """(line number, marker or None, info string, text) of each code block of a page."""
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence, info = m.groups()
        start = i
        body = []
        i += 1
        while i < len(lines) and not lines[i].strip().startswith(fence):
            body.append(lines[i][len(indent):] if lines[i].startswith(indent) else lines[i])
            i += 1
        i += 1
        if info.strip().startswith("{"):
            continue  # a directive of the site (toctree, doxygenfile), not a code block
        prev = start - 1
        while prev >= 0 and not lines[prev].strip():
            prev -= 1
        marker = MARKER.match(lines[prev].strip()) if prev >= 0 else None
        yield start + 1, marker, info.strip(), "\n".join(body)


def normalize(line, numbers_free):
    line = TIME.sub("#", line)
    if numbers_free:
        line = NUMBER.sub("#", line)
    return " ".join(line.split())


def check_output(expected, actual, numbers_free):
    """The first quoted line that does not appear in order, or None."""
    got = [normalize(l, numbers_free) for l in actual.split("\n")]
    k = 0
    for line in expected:
        if line.strip() == "..." or not line.strip():
            continue
        want = normalize(line.rstrip(". ") if line.rstrip().endswith("...") else line,
                         numbers_free)
        prefix = line.rstrip().endswith("...")
        while k < len(got) and not (got[k].startswith(want) if prefix else got[k] == want):
            k += 1
        if k == len(got):
            return line
        k += 1
    return None


def shell(command, stealcheck, timeout=600):
    env = dict(os.environ)
    with tempfile.TemporaryDirectory(prefix="doctest-bin-") as bindir:
        os.symlink(stealcheck, os.path.join(bindir, "stealcheck"))
        env["PATH"] = bindir + os.pathsep + env["PATH"]
        env.pop("STEALCHECK_PROGRESS", None)
        p = subprocess.run(["bash", "-e", "-c", command], cwd=ROOT, env=env, timeout=timeout,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p.returncode, p.stdout


def compile_cpp(text, cxx):
    with tempfile.TemporaryDirectory(prefix="doctest-cpp-") as d:
        with open(os.path.join(d, "my_deque.hpp"), "w") as f:
            f.write('#pragma once\n#include "stealcheck/detail/deques/chase_lev.hpp"\n'
                    "template <class T, class Mem>\n"
                    "using my_deque = stealcheck::chase_lev<T, Mem>;\n")
        src = os.path.join(d, "block.cpp")
        with open(src, "w") as f:
            f.write(text + "\n")
        p = subprocess.run([cxx, "-std=c++20", "-fsyntax-only", "-I", d, "-I",
                            os.path.join(ROOT, "include"), src],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        return p.returncode, p.stdout


def main():
    import argparse
    ap = argparse.ArgumentParser(description="Runs the code blocks of the README and the manual.")
    ap.add_argument("stealcheck", help="the stealcheck command the blocks run")
    ap.add_argument("--cxx", default="g++", help="the compiler of the C++ blocks")
    ap.add_argument("--pages", nargs="+", help="check these Markdown files instead")
    args = ap.parse_args()
    stealcheck = os.path.abspath(args.stealcheck)
    if not os.access(stealcheck, os.X_OK):
        print(f"ci/doctest.py: error: {args.stealcheck} is not an executable", file=sys.stderr)
        return 2
    cxx = args.cxx
    failures = []
    counts = {"run": 0, "output": 0, "compile": 0, "skip": 0}
    for page in [os.path.abspath(p) for p in args.pages] if args.pages else pages():
        rel = os.path.relpath(page, ROOT)
        for line, marker, info, text in blocks(page):
            where = f"{rel}:{line}"
            if marker is None:
                failures.append(f"{where}: a code block without a <!-- doc: ... --> marker")
                continue
            kind, rest = marker.group(1), marker.group(2).strip()
            counts[kind] += 1
            if kind == "skip":
                if not re.match(r"^\(.+\)$", rest):
                    failures.append(f"{where}: doc: skip needs a reason in parentheses")
                continue
            if kind == "run":
                rc, out = shell(text, stealcheck)
                if rc != 0:
                    tail = out.strip().split("\n")[-1] if out.strip() else ""
                    failures.append(f"{where}: the block exited {rc}: {tail}")
                continue
            if kind == "compile":
                rc, out = compile_cpp(text, cxx)
                if rc != 0:
                    first = next((l for l in out.split("\n") if "error" in l), out[:200])
                    failures.append(f"{where}: does not compile: {first}")
                continue
            # output: the first line is `$ COMMAND`, the rest what it prints
            body = text.split("\n")
            if not body or not body[0].startswith("$ "):
                failures.append(f"{where}: doc: output needs a first line `$ COMMAND`")
                continue
            want_rc, numbers_free, native = None, False, False
            for option in [o.strip() for o in rest.split(",") if o.strip()]:
                m = re.match(r"^exit (\d+)$", option)
                if m:
                    want_rc = int(m.group(1))
                elif option == "numbers free":
                    numbers_free = True
                elif option == "native":
                    native = True
                else:
                    failures.append(f"{where}: unknown doc: output option {option!r}")
            # A native run's interleavings follow the machine's timing: its block may take
            # three runs to print what the page quotes (a model run's output is exact).
            for attempt in range(3 if numbers_free or native else 1):
                problem = None
                rc, out = shell(body[0][2:], stealcheck)
                if want_rc is None and rc != 0:
                    problem = f"`{body[0][2:]}` exited {rc}"
                elif want_rc is not None and rc != want_rc:
                    problem = f"`{body[0][2:]}` exited {rc}, the page says {want_rc}"
                else:
                    missing = check_output(body[1:], out, numbers_free)
                    if missing is not None:
                        problem = f"`{body[0][2:]}` no longer prints: {missing.strip()[:120]}"
                if problem is None:
                    break
            if problem is not None:
                failures.append(f"{where}: {problem}")
    print("ci/doctest.py: %d blocks run, %d outputs checked, %d compiled, %d not run (with "
          "their reasons)" % (counts["run"], counts["output"], counts["compile"], counts["skip"]))
    for f in failures:
        print("FAIL " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
# SPDX-License-Identifier: Apache-2.0
