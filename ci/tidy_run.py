#!/usr/bin/env python3
"""ci/tidy_run.py TIDY BUILD_DIR HEADER_FILTER FILE...: runs clang-tidy (TIDY) on each FILE,
JOBS (default: the number of cores) at a time, and prints its findings; ci/tidy.sh calls it.

A unit with no finding is remembered in a cache (STEALCHECK_TIDY_CACHE, default
~/.cache/stealcheck/tidy; "off" keeps none): its key is a hash of clang-tidy's version, the
repository's .clang-tidy, the header filter, the unit's compile command and the unit as
clang's preprocessor gives it with comments kept (every header it includes, and every NOLINT,
with the repository's path taken out, so that clones in other folders share it). A unit whose
key is in the cache is not run again: what clang-tidy reads of it is what it read when it found
nothing. A unit with a finding, or one without a compile command (a file given by path from
outside the build), is never cached. Prints clang-tidy's output of the units it ran, then one
line "tidy_run: N units, M from the cache".
"""
import concurrent.futures
import hashlib
import json
import os
import pathlib
import re
import shlex
import subprocess
import sys

FINDING = re.compile(r"(error|warning): .*\[[a-z]")


def findings(out: str) -> bool:
    """Whether clang-tidy's output holds a finding outside the system headers."""
    return any(FINDING.search(line) and not line.startswith("/usr/") for line in out.splitlines())


def cache_dir():
    setting = os.environ.get("STEALCHECK_TIDY_CACHE", "")
    if setting == "off":
        return None
    if setting:
        return pathlib.Path(setting)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return pathlib.Path(base) / "stealcheck" / "tidy"


def preprocess_command(entry):
    """The unit's compile command as clang++-16 -E -C (to standard output), with the macro
    clang-tidy's front end defines (its static analyzer's)."""
    args = shlex.split(entry["command"]) if "command" in entry else list(entry["arguments"])
    out = ["clang++-16"]
    skip = False
    for a in args[1:]:
        if skip:
            skip = False
        elif a == "-o":
            skip = True
        elif a != "-c":
            out.append(a)
    return out + ["-E", "-C", "-D__clang_analyzer__=1", "-Wno-unknown-warning-option"]


def key_of(entry, root, salt):
    cmd = preprocess_command(entry)
    done = subprocess.run(cmd, cwd=entry["directory"], capture_output=True, check=False)
    if done.returncode != 0:
        return None
    h = hashlib.sha256(salt)
    h.update(" ".join(cmd).replace(root, "").encode())
    h.update(done.stdout.replace(root.encode(), b""))
    return h.hexdigest()


def main():
    tidy, build, header_filter, files = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    root = os.getcwd()  # taken out of every path (-I/work/x and /work/x/deques/... alike)
    jobs = int(os.environ.get("JOBS", "0")) or os.cpu_count() or 1
    db = {e["file"]: e for e in json.load(open(os.path.join(build, "compile_commands.json")))}
    cache = cache_dir()
    salt = hashlib.sha256()
    salt.update(subprocess.run([tidy, "--version"], capture_output=True, check=True).stdout)
    salt.update(pathlib.Path(".clang-tidy").read_bytes())
    salt.update(header_filter.replace(root, "").encode())
    salt = salt.digest()

    def one(f):
        path = os.path.abspath(f)
        key = None
        if cache is not None and path in db:
            key = key_of(db[path], root, salt)
            if key is not None and (cache / key).exists():
                return f, "", True
        done = subprocess.run(
            [tidy, "-p", build, "--quiet", "--extra-arg=-Wno-unknown-warning-option",
             "--header-filter=" + header_filter, f],
            capture_output=True, text=True, check=False)
        out = done.stdout + done.stderr
        if key is not None and not findings(out):
            cache.mkdir(parents=True, exist_ok=True)
            (cache / key).touch()
        return f, out, False

    cached = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        for _, out, hit in pool.map(one, files):
            cached += hit
            sys.stdout.write(out)
    print(f"tidy_run: {len(files)} units, {cached} from the cache")


if __name__ == "__main__":
    main()
# SPDX-License-Identifier: Apache-2.0
