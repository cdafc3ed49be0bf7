#!/bin/sh
# Usage: ensure-ort.sh DIR
# Makes sure DIR/node_modules/onnxruntime-node exists, installing the version pinned in
# this directory's package.json / package-lock.json into DIR if it is missing, then checks
# that the CPU backend loads. `--ignore-scripts` skips onnxruntime-node's postinstall
# (a CUDA download); the linux-x64 CPU binding ships inside the package.
set -eu

if [ $# -ne 1 ]; then
  echo "usage: $0 DIR" >&2
  exit 2
fi
dir=$1
here=$(cd "$(dirname "$0")" && pwd)

if [ ! -d "$dir/node_modules/onnxruntime-node" ]; then
  mkdir -p "$dir"
  cp "$here/package.json" "$here/package-lock.json" "$dir/"
  npm install --ignore-scripts --no-audit --no-fund --prefix "$dir"
fi

# shellcheck disable=SC2016 # a JavaScript template literal, not shell
NODE_PATH="$dir/node_modules" node -e '
const ort = require("onnxruntime-node");
if (!ort.listSupportedBackends().some((b) => b.name === "cpu")) throw new Error("no cpu backend");
console.log(`onnxruntime-node ${ort.env.versions.node} ready`);
'
