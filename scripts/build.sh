#!/usr/bin/env bash
# Configures (once) and builds dlc into build/ with Ninja, clang-22, lld and
# ccache when present.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${DLC_BUILD_DIR:-$root/build}
. "$root/scripts/ccache-launcher.sh"
if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir -DLLVM_USE_LINKER=lld \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit "${launcher[@]}"
fi
ninja -C "$build" "$@"
