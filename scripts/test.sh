#!/usr/bin/env bash
# Quick start, step 2: builds what the tests need and runs the whole test
# suite (lit: FileCheck tests, runtime unit tests, ONNX node tests, ONNX
# Runtime comparisons, the example application). Ends with "N passed, N failed".
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${DLC_BUILD_DIR:-$root/build}
"$root/scripts/build.sh" dlc dlc-opt dlc_runtime dlc-runtime-tests dlc-fake-cuda dlc-onnx-data || exit 1
log=$(mktemp)
/usr/lib/llvm-22/bin/lit -v "$build/test" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
passed=$(grep -cE '^PASS: ' "$log")
failed=$(grep -cE '^(FAIL|XPASS|UNRESOLVED|TIMEOUT): ' "$log")
skipped=$(grep -cE '^UNSUPPORTED: ' "$log")
rm -f "$log"
echo "$passed passed, $failed failed, $skipped skipped"
exit "$rc"
