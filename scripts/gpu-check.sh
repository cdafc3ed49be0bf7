#!/usr/bin/env bash
# GPU tests and benchmarks of the CUDA target, in two steps.
#
#   scripts/gpu-check.sh --prepare [--quick]
#       Here (needs the dlc build, python3-onnx, torch, ptxas): compiles the
#       node suite, ResNet-50 (batch 1 and 32), MobileNetV2 (batch 32), the
#       BERT encoder (batch 1 and 8) and a 4096^3 MatMul for CUDA, with their
#       references and static kernel checks, into
#       build/gpu-check/bundle.tar.xz (scripts/gpu/prepare.py).
#   scripts/gpu-check.sh [REPORT_DIR [CHECK_OPTIONS...]]
#       On a machine with an NVIDIA GPU (CUDA driver, python3 + numpy, a C
#       compiler; PyTorch for the speed comparison; no LLVM/MLIR/ONNX needed):
#       unpacks the bundle, runs it (scripts/gpu/check.py) and writes
#       REPORT_DIR/gpu-report.{json,md} (default: $OUT if set, else
#       build/gpu-check), whose "bars" say which of the CUDA target's bars
#       hold. Meant to take under 8 minutes on an H200. Exits 2 when there
#       is no GPU, after saying so. CHECK_OPTIONS go to check.py (--budget,
#       --only-node REGEX, --skip STEP: a short rerun).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if [ "${1:-}" = "--prepare" ]; then
  shift
  exec /usr/bin/python3 "$root/scripts/gpu/prepare.py" "$@"
fi
report=${1:-${OUT:-$root/build/gpu-check}}
[ $# -gt 0 ] && shift
tarball=$root/build/gpu-check/bundle.tar.xz
if [ ! -f "$tarball" ]; then
  echo "gpu-check: $tarball is missing: run scripts/gpu-check.sh --prepare on a build machine first" >&2
  exit 1
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tar -xJf "$tarball" -C "$work"
python=
for candidate in python3 /usr/bin/python3 /usr/local/bin/python3; do
  if command -v "$candidate" >/dev/null && "$candidate" -c 'import numpy' 2>/dev/null; then
    python=$candidate
    break
  fi
done
if [ -z "$python" ]; then
  echo "gpu-check: no python3 with numpy found" >&2
  exit 1
fi
"$python" "$work/bundle/check.py" "$work/bundle" "$report" "$@"
