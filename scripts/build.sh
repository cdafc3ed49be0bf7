#!/usr/bin/env bash
# Configures (once) and builds dlc into build/ with Ninja, clang-22, lld and
# ccache when present.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${DLC_BUILD_DIR:-$root/build}
export CCACHE_BASEDIR=$root
if [ ! -f "$build/build.ninja" ]; then
  launcher=()
  if command -v ccache >/dev/null; then
    launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  fi
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir -DLLVM_USE_LINKER=lld \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit "${launcher[@]}"
fi
ninja -C "$build" "$@"
