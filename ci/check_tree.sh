#!/usr/bin/env bash
# ci/check_tree.sh [SOURCE_DIR]: checks of the source tree itself (CTest: repo.check_tree).
#  - every source, CMake file and script carries an SPDX license line;
#  - includes run downward only: deques, oracle < harness < models < stress, scheduler <
#    litmus, bench, include < testing, tools; inside models/, graph < report < runtime <
#    explore < divide < front; examples/ includes only the installed <stealcheck/...> headers;
#  - the installed layers (deques, oracle, harness, models, stress) are included as
#    "stealcheck/detail/<layer>/..." everywhere;
#  - no two files include each other.
# Prints one line per violation; exit 1 if there is any.
set -uo pipefail
cd "${1:-$(dirname "$0")/..}"
python3 - <<'PY'
import os, re, sys
level = {"deques": 0, "oracle": 0, "harness": 1, "models": 2, "stress": 3, "scheduler": 3,
         "litmus": 4, "bench": 4, "include": 4, "testing": 5, "tools": 5}
# The layers installed under include/stealcheck/detail/ (include/stealcheck/detail/ links to them
# here): everything includes them as "stealcheck/detail/<layer>/...", so that once installed
# nothing but <stealcheck/...> is on a user's include path.
installed = {"deques", "oracle", "harness", "models", "stress"}
model_layer = {"graph": 0, "report": 1, "runtime": 2, "explore": 3, "divide": 4, "front": 5}
bad = []
edges = {}
for top in list(level) + ["examples", "ci", "cmake", ".ci"]:
    for root, dirs, files in os.walk(top):
        dirs[:] = [d for d in dirs if not d.startswith("corpus")]
        for f in files:
            path = os.path.join(root, f)
            is_src = re.search(r"\.(cpp|hpp|h)$", f)
            if is_src or re.search(r"(\.cmake|\.sh|\.py|\.in|CMakeLists\.txt)$", f) or path == ".ci/run":
                if "SPDX-License-Identifier:" not in open(path, encoding="utf-8").read():
                    bad.append(f"{path}: no SPDX-License-Identifier line")
            if not is_src:
                continue
            for inc in re.findall(r'#include\s+"([^"]+)"', open(path, encoding="utf-8").read()):
                first = inc.split("/")[0]
                if top == "examples":
                    # its own headers (examples/deques/ is a folder of the example project's) or
                    # the installed <stealcheck/...>, never stealcheck's internals
                    own = any(os.path.exists(os.path.join(d, inc))
                              for d in (root, "examples", os.path.dirname(root)))
                    if inc.startswith("stealcheck/") or (first in level and not own):
                        bad.append(f"{path}: includes \"{inc}\" (examples/ use the installed <stealcheck/...> only)")
                    continue
                if first in installed:
                    bad.append(f"{path}: includes \"{inc}\" (an installed layer is \"stealcheck/detail/{inc}\")")
                if inc.startswith("stealcheck/detail/"):  # an installed layer's header
                    inc = inc[len("stealcheck/detail/"):]
                    first = inc.split("/")[0]
                elif first == "stealcheck":  # <stealcheck/...> spelled with quotes: include/
                    first, inc = "include", "include/" + inc
                if first not in level:
                    continue
                edges.setdefault(path, set()).add(inc)
                if top in level and level[first] > level[top]:
                    bad.append(f"{path}: includes \"{inc}\", a folder above {top}/")
                parts, incparts = path.split("/"), inc.split("/")
                if (top == "models" and first == "models" and len(parts) > 2 and len(incparts) > 2
                        and parts[1] in model_layer and incparts[1] in model_layer
                        and model_layer[incparts[1]] > model_layer[parts[1]]):
                    bad.append(f"{path}: includes \"{inc}\", a layer above models/{parts[1]}/")
for a, incs in edges.items():
    for b in incs:
        if a in edges.get(b, ()) and a < b:
            bad.append(f"{a} and {b} include each other")
for line in bad:
    print(line)
print(f"check_tree: {len(bad)} problem(s)")
sys.exit(1 if bad else 0)
PY
# SPDX-License-Identifier: Apache-2.0
