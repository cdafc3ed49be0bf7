#!/usr/bin/env bash
# Quick start, step 1: install what is missing, build dlc, compile the
# bundled digits model into a C library and run the example application
# linked against it (prints predictions and accuracy).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${DLC_BUILD_DIR:-$root/build}
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" dlc
out=$build/quickstart
rm -rf "$out"
"$build/bin/dlc" compile "$root/examples/digits/digits.onnx" -o "$out" --name digits
c++ -std=c++17 -O2 "$root/examples/digits/main.cpp" -I"$out" "$out/libdigits.a" -lomp -lm -o "$out/digits"
"$out/digits" "$root/examples/digits/digits_test.bin"
