#!/usr/bin/env bash
# Quick start, step 2: builds what the tests need and runs the whole test
# suite in its two tiers (lit; the fast tier: FileCheck tests of the
# dialect, passes, importer and code generators, the runtime's, compiler
# library's and analysis library's unit tests, the example application;
# the end-to-end tier: the tools, ONNX node tests, real models, ONNX
# Runtime comparisons, the fuzzers for a bounded number of executions),
# then test/ir, passes, codegen and frontend again with dlc and dlc-opt
# built with ASan + UBSan (scripts/sanitize-compiler.sh; its tests are
# counted as "asan: ...").
# Ends with "N passed, N failed".
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${DLC_BUILD_DIR:-$root/build}
"$root/scripts/build.sh" dlc dlc-opt dlc_runtime dlc-runtime-tests dlc-compiler-tests \
  dlc-analysis-tests dlc-fake-cuda dlc-onnx-data || exit 1
# The checked build (ASan + UBSan, assertions: the fuzzers and the fast
# tier's tools), before the suite uses it.
checked_log=$(mktemp)
if ! (. "$root/scripts/checked-build.sh" &&
  ninja -C "$out" dlc dlc-opt dlc-onnx-data dlc-fuzz-import dlc-fuzz-pipeline \
    dlc-fuzz-tensor-file dlc-fuzz-runtime) >"$checked_log" 2>&1; then
  tail -50 "$checked_log"
  echo "the checked build (build/fuzz) failed"
  exit 1
fi
rm -f "$checked_log"
log=$(mktemp)
# The two tiers of test/CMakeLists.txt (ninja check-dlc, check-dlc-e2e),
# each timed; --time-tests lists the slowest tests after each tier.
rc=0
for tier in fast e2e; do
  if [ $tier = fast ]; then
    dirs=(ir passes codegen frontend compiler analysis runtime examples)
  else
    dirs=(tools e2e)
  fi
  start=$(date +%s)
  /usr/lib/llvm-22/bin/lit -v --time-tests "${dirs[@]/#/$build/test/}" 2>&1 | tee -a "$log"
  [ "${PIPESTATUS[0]}" -eq 0 ] || rc=1
  echo "== the $tier tier took $(($(date +%s) - start)) s"
done
echo "== the fast tier under ASan + UBSan (scripts/sanitize-compiler.sh)"
"$root/scripts/sanitize-compiler.sh" -v 2>&1 |
  sed -E 's/^(PASS|FAIL|XPASS|UNRESOLVED|TIMEOUT|UNSUPPORTED|XFAIL): /&asan: /' | tee -a "$log"
[ "${PIPESTATUS[0]}" -eq 0 ] || rc=1
passed=$(grep -cE '^PASS: ' "$log")
failed=$(grep -cE '^(FAIL|XPASS|UNRESOLVED|TIMEOUT): ' "$log")
skipped=$(grep -cE '^UNSUPPORTED: ' "$log")
rm -f "$log"
echo "$passed passed, $failed failed, $skipped skipped"
exit "$rc"
