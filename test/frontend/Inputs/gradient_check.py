"""Checks dlc's Gradient outputs for gradient.onnxtxt against the
derivatives worked out by hand, evaluated with numpy:
d = (tanh(x*w) - relu(x)) / w, summed over all elements (Gradient seeds
ones): dd/dx = (w * (1 - tanh^2(x*w)) - [x > 0]) / w and
dd/dw = sum over rows of x * (1 - tanh^2(x*w)) / w - (tanh(x*w) - relu(x)) / w^2.
usage: gradient_check.py IN_DIR OUT_DIR"""
import sys

import numpy as np
from onnx import TensorProto, numpy_helper


def load(path):
    t = TensorProto()
    with open(path, "rb") as f:
        t.ParseFromString(f.read())
    return numpy_helper.to_array(t)


x = load(sys.argv[1] + "/input_0.pb").astype(np.float64)
w = load(sys.argv[1] + "/input_1.pb").astype(np.float64)
t = np.tanh(x * w)
relu = np.maximum(x, 0)
want = {
    0: (t - relu) / w,
    1: (w * (1 - t * t) - (x > 0)) / w,
    2: (x * (1 - t * t) / w - (t - relu) / (w * w)).sum(axis=0),
}
for k, expected in want.items():
    got = load(sys.argv[2] + "/output_%d.pb" % k)
    ok = got.shape == expected.shape and np.allclose(got, expected, rtol=1e-5, atol=1e-6)
    print("output %d: %s" % (k, "ok" if ok else "MISMATCH %s vs %s" % (got, expected)))
