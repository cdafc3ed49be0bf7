#!/usr/bin/env bash
# The fast test tier (lit: test/ir, test/passes, test/codegen,
# test/frontend) with dlc and dlc-opt built with AddressSanitizer +
# UndefinedBehaviorSanitizer and assertions on, in build/fuzz (the build the
# fuzzers use: scripts/fuzz.sh; $DLC_FUZZ_DIR if set). Any report fails its
# test. Prints lit's results. With --all, the whole suite instead (every
# test directory; hours on 2 cores: the node suites compile each model under
# the sanitizers; the code dlc generates is not instrumented, the compiler,
# runtime and tools that run it are). Extra arguments go to lit (e.g.
# --filter REGEX to run part of it).
# Usage: scripts/sanitize-compiler.sh [--all] [LIT ARGS]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
all=0
if [ "${1:-}" = --all ]; then
  all=1
  shift
fi
. "$root/scripts/checked-build.sh"
if [ "$all" -eq 1 ]; then
  ninja -C "$out" >/dev/null
  exec /usr/lib/llvm-22/bin/lit "$@" "$out/test"
fi
ninja -C "$out" dlc dlc-opt dlc-onnx-data >/dev/null
/usr/lib/llvm-22/bin/lit "$@" "$out/test/ir" "$out/test/passes" \
  "$out/test/codegen" "$out/test/frontend"
