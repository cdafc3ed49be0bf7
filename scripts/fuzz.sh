#!/usr/bin/env bash
# Builds dlc's libFuzzer targets (clang-22, -fsanitize=fuzzer with ASan and
# UBSan, assertions on) into build/fuzz and runs each for SECONDS (default
# 60) on a corpus seeded from the ONNX node-test models (build/onnx-data,
# made by the main build; $DLC_BUILD_DIR if set) and the hostile corpus
# (test/tools/Inputs/hostile/make_corpus.py). Findings (crashes, sanitizer
# reports, timeouts, out-of-memory) stop the run with libFuzzer's report and
# the input saved as build/fuzz/crash-*; turn each into a regression test.
# Usage: scripts/fuzz.sh [SECONDS]   (hours: scripts/fuzz.sh 3600)
# DLC_FUZZ_SEED and DLC_FUZZ_RUNS fix libFuzzer's seed and number of
# executions, and DLC_FUZZ_CORPUS the corpus directory, instead (the test
# suite's run: an empty corpus, the same inputs on every
# machine, so that CI does not turn red on a machine that runs more).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-60}
build=${DLC_BUILD_DIR:-$root/build}
out=${DLC_FUZZ_DIR:-$build/fuzz}
. "$root/scripts/ccache-launcher.sh"
if [ ! -f "$out/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$out" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir -DLLVM_USE_LINKER=lld \
    -DDLC_SANITIZER=fuzzer-no-link,address,undefined -DDLC_ENABLE_ASSERTIONS=ON \
    -DDLC_BUILD_FUZZERS=ON "${launcher[@]}" >/dev/null
fi
ninja -C "$out" dlc-fuzz-import >/dev/null

seeds=$out/seeds/import
if [ ! -d "$seeds" ]; then
  mkdir -p "$seeds"
  for m in "$build"/onnx-data/node/*/model.onnx; do
    [ -f "$m" ] && cp "$m" "$seeds/$(basename "$(dirname "$m")").onnx"
  done
  hostile=$(mktemp -d)
  /usr/bin/python3 "$root/test/tools/Inputs/hostile/make_corpus.py" "$hostile" >/dev/null
  find "$hostile" -name '*.onnx' -type f -exec sh -c 'cp "$1" "$2/hostile-$(echo "$1" | tr / _)"' _ {} "$seeds" \;
  rm -rf "$hostile"
fi
corpus=${DLC_FUZZ_CORPUS:-$out/corpus/import}  # where new inputs go
mkdir -p "$corpus"
cd "$out"
echo "== dlc-fuzz-import: $seconds s${DLC_FUZZ_RUNS:+ or $DLC_FUZZ_RUNS runs}, seeds $(ls "$seeds" | wc -l), corpus $(ls "$corpus" | wc -l)"
# allow_user_poisoning=0: LLVM's allocators poison memory from inline code
# compiled here but not from Debian's uninstrumented MLIR libraries; mixing
# the two reports false use-after-poison errors.
log=$out/import.log
rc=0
ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1:allow_user_poisoning=0 \
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  "$out/bin/dlc-fuzz-import" -max_total_time="$seconds" -timeout=20 \
    ${DLC_FUZZ_SEED:+-seed="$DLC_FUZZ_SEED"} ${DLC_FUZZ_RUNS:+-runs="$DLC_FUZZ_RUNS"} \
    -rss_limit_mb=4096 -malloc_limit_mb=4096 -print_final_stats=1 \
    "$corpus" "$seeds" >"$log" 2>&1 || rc=$?
grep -E '^(stat::|#[0-9]+ +DONE|==[0-9]+==ERROR|SUMMARY|INFO: Seed|artifact)' "$log" || true
if [ "$rc" -ne 0 ]; then
  echo "fuzz: dlc-fuzz-import found a problem (exit $rc); full log: $log"
  exit 1
fi
echo "fuzz: no findings"
