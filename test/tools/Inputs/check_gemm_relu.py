"""Checks dlc run's output for the model of gemm_relu.py against numpy.

usage: check_gemm_relu.py DIR

Reads DIR/model.onnx (W, B), DIR/data/input_0.pb and DIR/out/output_0.pb;
exits 1 (with the reason) unless the output has the expected name, dtype and
shape and all values are within 1e-5 of numpy's.
"""
import os
import sys

import numpy as np
import onnx
from onnx import numpy_helper

d = sys.argv[1]
model = onnx.load(os.path.join(d, "model.onnx"))
inits = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
x = numpy_helper.to_array(onnx.load_tensor(os.path.join(d, "data", "input_0.pb")))
expected = np.maximum(0.5 * (x @ inits["W"].T) + 2.0 * inits["B"], 0).astype(np.float32)
if not (expected == 0).any() or not (expected > 0).any():
    sys.exit("bad test data: Relu should clip some values and keep others")

proto = onnx.load_tensor(os.path.join(d, "out", "output_0.pb"))
actual = numpy_helper.to_array(proto)
if proto.name != "y":
    sys.exit(f"output is named {proto.name!r}, expected 'y'")
if actual.dtype != np.float32 or actual.shape != expected.shape:
    sys.exit(f"output is {actual.dtype}{list(actual.shape)}, expected float32{list(expected.shape)}")
err = float(np.max(np.abs(actual - expected)))
if not err <= 1e-5:
    sys.exit(f"max abs error {err} > 1e-5\nexpected:\n{expected}\nactual:\n{actual}")
print(f"OK: max abs error {err}")
