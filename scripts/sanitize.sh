#!/usr/bin/env bash
# Builds the runtime and its unit tests (no compiler: DLC_BUILD_COMPILER=OFF)
# with AddressSanitizer + UndefinedBehaviorSanitizer and, separately, with
# ThreadSanitizer, assertions on, and runs the tests under each. Any report
# fails (halt_on_error). Usage: scripts/sanitize.sh [BUILD_ROOT]
# (default build/sanitize: build/sanitize/asan-ubsan, build/sanitize/tsan).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/build/sanitize}
. "$root/scripts/ccache-launcher.sh"
for config in asan-ubsan:address,undefined tsan:thread; do
  name=${config%%:*} sanitizer=${config#*:}
  dir=$out/$name
  if [ ! -f "$dir/build.ninja" ]; then
    cmake -G Ninja -S "$root" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
      -DDLC_BUILD_COMPILER=OFF -DDLC_SANITIZER="$sanitizer" \
      -DDLC_ENABLE_ASSERTIONS=ON "${launcher[@]}" >/dev/null
  fi
  ninja -C "$dir" dlc-runtime-tests dlc-fake-cuda >/dev/null
  echo "== $name ($sanitizer)"
  ASAN_OPTIONS=detect_leaks=1:halt_on_error=1 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
    "$dir/bin/dlc-runtime-tests" --gtest_brief=1
done
echo "sanitizers: clean"
