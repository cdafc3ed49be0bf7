#!/usr/bin/env bash
# Builds dlc's libFuzzer targets (clang-22, -fsanitize=fuzzer with ASan and
# UBSan, assertions on) into build/fuzz and runs each for SECONDS (default
# 60):
#   import       model bytes -> load -> check -> import -> verify
#   pipeline     model bytes -> the whole CPU pipeline -> object code
#   tensor-file  TensorProto files -> dlc run's reader
#   runtime      the runtime's checks of create options and run's tensors
# Seeds: the ONNX node-test models (build/onnx-data, made by the main build;
# $DLC_BUILD_DIR if set) and the hostile corpus
# (test/tools/Inputs/hostile/make_corpus.py) for the model targets, the
# node tests' tensor files for tensor-file, none for runtime. Findings
# (crashes, sanitizer reports, timeouts, out-of-memory) stop a target with
# libFuzzer's report and the input saved as build/fuzz/TARGET-crash-*; turn each
# into a regression test. Each target's final statistics (executions,
# coverage) are printed, and appended with the date to build/fuzz/runs.log.
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]   (hours: scripts/fuzz.sh 3600)
# DLC_FUZZ_INPUTS=DIR runs each file of DIR once instead of fuzzing.
# DLC_FUZZ_SEED and DLC_FUZZ_RUNS fix libFuzzer's seed and number of
# executions, DLC_FUZZ_CORPUS the corpus directory (one per target below
# it) and DLC_FUZZ_SEEDS=N every Nth seed only, instead (the test suite's
# runs: the same inputs on every machine, so that CI does not turn red on a
# machine that runs more).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(import pipeline tensor-file runtime)
for target in "${targets[@]}"; do
  case $target in
  import | pipeline | tensor-file | runtime) ;;
  *) echo "fuzz: unknown target '$target' (import, pipeline, tensor-file, runtime)" >&2; exit 2 ;;
  esac
done
. "$root/scripts/checked-build.sh"
ninja -C "$out" "${targets[@]/#/dlc-fuzz-}" >/dev/null

# Seed directories, made once (one script at a time).
seeds=$out/seeds
mkdir -p "$seeds"
exec 9>"$seeds/.lock"
flock 9
if [ ! -d "$seeds/models" ]; then
  mkdir -p "$seeds/models.tmp"
  for m in "$build"/onnx-data/node/*/model.onnx; do
    [ -f "$m" ] && cp "$m" "$seeds/models.tmp/$(basename "$(dirname "$m")").onnx"
  done
  hostile=$(mktemp -d)
  /usr/bin/python3 "$root/test/tools/Inputs/hostile/make_corpus.py" "$hostile" >/dev/null
  find "$hostile" -name '*.onnx' -type f -exec sh -c 'cp "$1" "$2/hostile-$(echo "$1" | tr / _)"' _ {} "$seeds/models.tmp" \;
  mkdir -p "$seeds/tensors.tmp"
  for f in "$build"/onnx-data/node/*/test_data_set_0/*.pb; do
    [ -f "$f" ] && cp "$f" "$seeds/tensors.tmp/$(basename "$(dirname "$(dirname "$f")")")-$(basename "$f")"
  done
  find "$hostile" -name '*.pb' -type f -exec sh -c 'cp "$1" "$2/hostile-$(echo "$1" | tr / _)"' _ {} "$seeds/tensors.tmp" \;
  rm -rf "$hostile"
  mv "$seeds/models.tmp" "$seeds/models"
  mv "$seeds/tensors.tmp" "$seeds/tensors"
fi
flock -u 9

# Every Nth seed (sorted by name) when DLC_FUZZ_SEEDS=N.
seed_dir() {
  local dir=$1
  if [ -z "${DLC_FUZZ_SEEDS:-}" ] || [ ! -d "$dir" ]; then
    echo "$dir"
    return
  fi
  local sub="$dir.every$DLC_FUZZ_SEEDS"
  if [ ! -d "$sub" ]; then
    mkdir -p "$sub.tmp"
    ls "$dir" | sort | awk -v n="$DLC_FUZZ_SEEDS" 'NR % n == 1 || n == 1' |
      while read -r f; do cp "$dir/$f" "$sub.tmp/"; done
    mv "$sub.tmp" "$sub"
  fi
  echo "$sub"
}

found=0
cd "$out"
# DLC_FUZZ_INPUTS=DIR: no fuzzing; each target runs every file of DIR once
# (test/tools/Inputs/schema_sweep.py's models in the test suite).
if [ -n "${DLC_FUZZ_INPUTS:-}" ]; then
  for target in "${targets[@]}"; do
    log=$out/$target-inputs.log
    n=$(find "$DLC_FUZZ_INPUTS" -maxdepth 1 -type f | wc -l)
    echo "== dlc-fuzz-$target: $n inputs once"
    rc=0
    find "$DLC_FUZZ_INPUTS" -maxdepth 1 -type f -print0 | sort -z |
      xargs -0 -n 4000 "$out/bin/dlc-fuzz-$target" -timeout=20 \
        -rss_limit_mb=4096 -malloc_limit_mb=4096 >"$log" 2>&1 || rc=$?
    echo "inputs run: $(grep -c '^Running: ' "$log")"
    if [ "$rc" -ne 0 ]; then
      grep -E '^(==[0-9]+==ERROR|SUMMARY)|Assertion' "$log" | head -4
      echo "fuzz: dlc-fuzz-$target found a problem (exit $rc); full log: $log"
      found=1
    fi
  done
  [ "$found" -eq 0 ] && echo "fuzz: no findings"
  exit "$found"
fi
for target in "${targets[@]}"; do
  case $target in
  import | pipeline) dirs=("$(seed_dir "$seeds/models")") ;;
  tensor-file) dirs=("$(seed_dir "$seeds/tensors")") ;;
  runtime) dirs=() ;;
  esac
  corpus=${DLC_FUZZ_CORPUS:-$out/corpus}/$target # where new inputs go
  mkdir -p "$corpus"
  # A pipeline execution compiles a model (tenths of a second); the others
  # take microseconds to milliseconds.
  timeout=20
  [ "$target" = pipeline ] && timeout=60
  echo "== dlc-fuzz-$target: $seconds s${DLC_FUZZ_RUNS:+ or $DLC_FUZZ_RUNS runs}, corpus $(ls "$corpus" | wc -l)${dirs:+, seeds $(ls "${dirs[0]}" | wc -l)}"
  log=$out/$target.log
  rc=0
  start=$(date +%s)
  "$out/bin/dlc-fuzz-$target" -max_total_time="$seconds" -timeout="$timeout" \
    ${DLC_FUZZ_SEED:+-seed="$DLC_FUZZ_SEED"} ${DLC_FUZZ_RUNS:+-runs="$DLC_FUZZ_RUNS"} \
    -rss_limit_mb=4096 -malloc_limit_mb=4096 -print_final_stats=1 \
    -artifact_prefix="$out/$target-" "$corpus" "${dirs[@]}" >"$log" 2>&1 || rc=$?
  grep -E '^(stat::|#[0-9]+[[:space:]]+DONE|==[0-9]+==ERROR|SUMMARY|INFO: Seed|artifact)' "$log" || true
  done_line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -1 || true)
  printf '%s %s %ss rc=%s %s\n' "$(date -u +%FT%TZ)" "$target" "$(($(date +%s) - start))" "$rc" \
    "${done_line:-(no DONE line)}" >>"$out/runs.log"
  if [ "$rc" -ne 0 ]; then
    echo "fuzz: dlc-fuzz-$target found a problem (exit $rc); full log: $log"
    found=1
  fi
done
[ "$found" -eq 0 ] || exit 1
echo "fuzz: no findings"
