"""Raw inputs and the expected output of test/tools/Inputs/symbolic.onnxtxt
(z = relu(x + y) * x, x [batch, seq, 2], y [seq, 2]) at batch 3, seq 5, for
the GPU runner (scripts/gpu/runner.c), computed with numpy.

usage: symbolic_raw.py write DIR         x.bin, y.bin, want.bin
       symbolic_raw.py check DIR OUT     OUT's leading elements against want
"""
import os
import sys

import numpy as np

if sys.argv[1] == "write":
    d = sys.argv[2]
    x = (np.arange(30, dtype=np.float32) - 10).reshape(3, 5, 2)
    y = np.linspace(-3, 3, 10, dtype=np.float32).reshape(5, 2)
    x.tofile(os.path.join(d, "x.bin"))
    y.tofile(os.path.join(d, "y.bin"))
    (np.maximum(x + y, 0) * x).astype(np.float32).tofile(os.path.join(d, "want.bin"))
else:
    want = np.fromfile(os.path.join(sys.argv[2], "want.bin"), dtype=np.float32)
    got = np.fromfile(sys.argv[3], dtype=np.float32)
    diff = float(np.abs(got[:want.size] - want).max())
    print(f"{want.size} of {got.size} elements checked, max abs diff {diff:g}")
