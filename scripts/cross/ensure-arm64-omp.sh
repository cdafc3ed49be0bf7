#!/bin/sh
# Usage: ensure-arm64-omp.sh DIR
# Puts Debian's arm64 OpenMP runtime (libomp5-19:arm64, the __kmpc_* ABI that
# dlc's parallel loops call) under DIR, extracted rather than installed: it
# cannot be installed beside the amd64 one (both own the same paths under
# /usr/lib/llvm-19). Needs the arm64 architecture in dpkg's list
# (install-deps.sh adds it) for `apt-get download`. The AArch64 tests
# (test/e2e/aarch64-qemu.test) link against DIR/libomp.so.5 and run under
# qemu-aarch64 with DIR on the library path.
set -eu
if [ $# -ne 1 ]; then
  echo "usage: $0 DIR" >&2
  exit 2
fi
dir=$1
[ -e "$dir/libomp.so.5" ] && exit 0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && apt-get download -qq libomp5-19:arm64)
dpkg-deb -x "$tmp"/libomp5-19_*_arm64.deb "$tmp/root"
mkdir -p "$dir"
cp -L "$tmp/root/usr/lib/llvm-19/lib/libomp.so.5" "$dir/libomp.so.5"
echo "ensure-arm64-omp: $dir/libomp.so.5"
