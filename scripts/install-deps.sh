#!/usr/bin/env bash
# Installs what dlc needs on Debian 12, skipping what is already there:
# LLVM/MLIR 22, ONNX and protobuf, the build tools, the test tools (PyTorch
# exports the real-model tests' architectures; OpenBLAS is the benchmarks'
# sgemm reference; valgrind checks passes for reads of erased IR; clang's
# sanitizer runtimes build the checked runtime, scripts/sanitize.sh;
# chromium renders dlc analyze's HTML report headless in a test; Debian's
# AArch64 cross compiler and qemu-user build and run AArch64 libraries, with
# the arm64 OpenMP runtime extracted into ~/.cache/dlc/arm64), and ONNX
# Runtime (npm, for reference outputs) into ~/.cache/dlc/ort.
# Idempotent; safe to run again.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

packages=(
  cmake ninja-build ccache clang-22 lld-22
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools libzstd-dev libomp-22-dev
  libonnx-dev libprotobuf-dev protobuf-compiler
  libgtest-dev python3-onnx python3-numpy nodejs npm libopenblas-dev
  python3-torch python3-torchvision valgrind libclang-rt-22-dev chromium python3-pil
  dpkg-dev g++-aarch64-linux-gnu qemu-user
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Node may come from elsewhere (e.g. nodesource): then npm/nodejs are not needed.
if command -v node >/dev/null && command -v npm >/dev/null; then
  missing=("${missing[@]/nodejs}"); missing=("${missing[@]/npm}")
fi
read -r -a missing <<<"${missing[*]}"
if ((${#missing[@]})); then
  echo "install-deps: installing ${missing[*]}"
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "install-deps: all Debian packages present"
fi

# The arm64 OpenMP runtime for the AArch64 tests: dpkg must know the arm64
# architecture for apt to fetch it (extracted, not installed).
sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
arm64_dir=${DLC_ARM64_DIR:-$HOME/.cache/dlc/arm64}
if [ ! -e "$arm64_dir/libomp.so.5" ]; then
  if ! dpkg --print-foreign-architectures | grep -qx arm64; then
    $sudo dpkg --add-architecture arm64
    $sudo apt-get update -qq
  fi
  if ! "$here/cross/ensure-arm64-omp.sh" "$arm64_dir"; then
    echo "install-deps: warning: the arm64 OpenMP runtime could not be fetched; AArch64 tests will be skipped" >&2
  fi
fi

# ONNX Runtime for reference outputs (tests that need it are skipped without).
ort_dir=${DLC_ORT_DIR:-$HOME/.cache/dlc/ort}
if ! "$here/../test/e2e/ort/ensure-ort.sh" "$ort_dir"; then
  echo "install-deps: warning: onnxruntime-node could not be installed; ORT comparisons will be skipped" >&2
fi
