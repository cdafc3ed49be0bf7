#!/bin/sh
# Generate the ONNX backend test data (node/, simple/, pytorch-*/, real/)
# from Debian's python3-onnx into OUTDIR.  Idempotent: a stamp file records a
# completed run, so a second call is a no-op.  Delete OUTDIR to regenerate.
#
# usage: test/e2e/node/generate.sh OUTDIR
set -eu

if [ $# -ne 1 ]; then
    echo "usage: $0 OUTDIR" >&2
    exit 2
fi
OUT=$1
PY=${PYTHON:-/usr/bin/python3}   # Debian's python (onnx 1.12, numpy 1.24)
STAMP="$OUT/.generated"

if [ -f "$STAMP" ]; then
    echo "generate.sh: $OUT already generated ($(cat "$STAMP")), skipping"
    exit 0
fi

mkdir -p "$OUT"
start=$(date +%s)
# onnx 1.12's test-case modules still use the np.float/np.int/... aliases that
# numpy 1.24 removed; restore them before importing the backend test modules.
"$PY" -c '
import sys
import numpy as np
np.float, np.int, np.bool, np.object = float, int, bool, object
from onnx.backend.test import cmd_tools
sys.argv = ["backend-test-tools", "generate-data", "-o", sys.argv[1]]
cmd_tools.main()
' "$OUT"
end=$(date +%s)

n=$(find "$OUT/node" -mindepth 2 -maxdepth 2 -name model.onnx | wc -l)
echo "onnx $("$PY" -c 'import onnx; print(onnx.__version__)'), $n node tests, $((end - start)) s" > "$STAMP"
echo "generate.sh: $(cat "$STAMP")"
