"""Writes a small Gemm + Relu model and an input for it.

usage: gemm_relu.py DIR

DIR/model.onnx:       y = Relu(Gemm(x, W, B, alpha=0.5, beta=2, transB=1)),
                      x: float[2,4], W: float[3,4], B: float[3] (initializers)
DIR/data/input_0.pb:  a value for x
The values are fixed (seeded) and chosen so that Relu clips some outputs.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
os.makedirs(os.path.join(out, "data"), exist_ok=True)
rng = np.random.default_rng(7)
w = rng.uniform(-1, 1, (3, 4)).astype(np.float32)
b = rng.uniform(-1, 1, (3,)).astype(np.float32)
x = rng.uniform(-2, 2, (2, 4)).astype(np.float32)

graph = helper.make_graph(
    [helper.make_node("Gemm", ["x", "W", "B"], ["h"], name="fc",
                      alpha=0.5, beta=2.0, transB=1),
     helper.make_node("Relu", ["h"], ["y"], name="relu")],
    "gemm_relu",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])],
    initializer=[numpy_helper.from_array(w, "W"), numpy_helper.from_array(b, "B")])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
model.ir_version = 8
onnx.checker.check_model(model)
onnx.save(model, os.path.join(out, "model.onnx"))
with open(os.path.join(out, "data", "input_0.pb"), "wb") as f:
    f.write(numpy_helper.from_array(x, "x").SerializeToString())
