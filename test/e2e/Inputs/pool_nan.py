#!/usr/bin/python3
"""MaxPool propagates NaN: `dlc run` against a numpy reference (np.max over
each window of the -inf padded input, which is NaN when the window holds a
NaN) on inputs with NaNs at chosen places, for the window shapes that dlc
lowers tap by tap (an odd and an even number of taps, strides, ceil_mode)
and one it reduces with linalg's named op.

  pool_nan.py --dlc PATH [--target cpu|cuda-emulator] --work DIR

Prints one line per case and PASS, or the first mismatch and exits 1.
"""
import argparse
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

# (name, kernel, strides, pads [h0, w0, h1, w1], ceil_mode)
CASES = [
    ("k3s1p1", [3, 3], [1, 1], [1, 1, 1, 1], 0),
    ("k2s2", [2, 2], [2, 2], [0, 0, 0, 0], 0),
    ("k3s2ceil", [3, 3], [2, 2], [0, 0, 0, 0], 1),
    ("k5p2", [5, 5], [1, 1], [2, 2, 2, 2], 0),
    ("k6x5", [6, 5], [1, 1], [0, 0, 0, 0], 0),  # 30 taps: the named op
]
SHAPE = [1, 3, 11, 12]


def out_size(n, k, s, p0, p1, ceil):
    span = n + p0 + p1 - k
    return (-(-span // s) if ceil else span // s) + 1


def reference(x, k, s, p, ceil):
    oh = out_size(x.shape[2], k[0], s[0], p[0], p[2], ceil)
    ow = out_size(x.shape[3], k[1], s[1], p[1], p[3], ceil)
    # Pad with -inf far enough for ceil_mode's last windows.
    hi_h = max(p[2], (oh - 1) * s[0] + k[0] - x.shape[2] - p[0])
    hi_w = max(p[3], (ow - 1) * s[1] + k[1] - x.shape[3] - p[1])
    xp = np.pad(x, ((0, 0), (0, 0), (p[0], hi_h), (p[1], hi_w)),
                constant_values=-np.inf)
    y = np.empty(x.shape[:2] + (oh, ow), np.float32)
    for i in range(oh):
        for j in range(ow):
            win = xp[:, :, i * s[0]:i * s[0] + k[0], j * s[1]:j * s[1] + k[1]]
            y[:, :, i, j] = np.max(win, axis=(2, 3))  # NaN if any is NaN
    return y


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dlc", required=True)
    ap.add_argument("--target", default="cpu")
    ap.add_argument("--work", required=True)
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    rng = np.random.default_rng(1)
    x = rng.standard_normal(SHAPE).astype(np.float32)
    # NaNs at a corner, on an edge, inside, and two in one neighbourhood:
    # each lands in a different tap position of the windows around it.
    for c, h, w in [(0, 0, 0), (0, 5, 11), (1, 4, 6), (2, 7, 2), (2, 8, 3)]:
        x[0, c, h, w] = np.nan
    x[0, 1, 9, 9] = np.inf
    data = os.path.join(args.work, "data")
    os.makedirs(data, exist_ok=True)
    onnx.save_tensor(numpy_helper.from_array(x, "x"),
                     os.path.join(data, "input_0.pb"))
    failed = False
    for name, k, s, p, ceil in CASES:
        ref = reference(x, k, s, p, ceil)
        node = helper.make_node("MaxPool", ["x"], ["y"], kernel_shape=k,
                                strides=s, pads=p, ceil_mode=ceil)
        graph = helper.make_graph(
            [node], name,
            [helper.make_tensor_value_info("x", TensorProto.FLOAT, SHAPE)],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT,
                                           list(ref.shape))])
        model = helper.make_model(graph,
                                  opset_imports=[helper.make_opsetid("", 13)])
        path = os.path.join(args.work, name + ".onnx")
        onnx.save(model, path)
        out = os.path.join(args.work, name + ".out")
        r = subprocess.run([args.dlc, "run", path, "--data", data, "--out",
                            out, "--target", args.target],
                           capture_output=True, text=True)
        if r.returncode != 0:
            print(f"{name}: dlc failed: {r.stderr.strip()}")
            failed = True
            continue
        got = numpy_helper.to_array(
            onnx.load_tensor(os.path.join(out, "output_0.pb")))
        nan_ref, nan_got = np.isnan(ref), np.isnan(got)
        if got.shape != ref.shape or not np.array_equal(nan_ref, nan_got) or \
                not np.array_equal(got[~nan_got], ref[~nan_ref]):
            print(f"{name}: MISMATCH: {int(nan_ref.sum())} NaNs expected, "
                  f"{int(nan_got.sum())} got at "
                  f"{np.argwhere(nan_ref != nan_got)[:4].tolist()}")
            failed = True
            continue
        print(f"{name}: ok {int(nan_ref.sum())} NaNs of {ref.size}")
    print("FAIL" if failed else "PASS")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
