#!/usr/bin/env bash
# The fast test tier (lit: test/ir, test/passes, test/codegen,
# test/frontend) with dlc and dlc-opt built with AddressSanitizer +
# UndefinedBehaviorSanitizer and assertions on, in build/fuzz (the build the
# fuzzers use: scripts/fuzz.sh; $DLC_FUZZ_DIR if set). Any report fails its
# test. Prints lit's results. Usage: scripts/sanitize-compiler.sh [LIT ARGS]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/scripts/checked-build.sh"
ninja -C "$out" dlc dlc-opt dlc-onnx-data >/dev/null
/usr/lib/llvm-22/bin/lit "$@" "$out/test/ir" "$out/test/passes" \
  "$out/test/codegen" "$out/test/frontend"
