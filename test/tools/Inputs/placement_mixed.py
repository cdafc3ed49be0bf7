"""Writes a model that mixes devices under --cpu-nodes, and an input.

usage: placement_mixed.py DIR [check]

DIR/model.onnx:  h = Relu(MatMul(x, W)); s = ReduceSum(h) (a scalar);
                 m = ReduceMax(h, axis 1); y = (h - m) * s + B,
                 x: float[16,32], W: float[32,64], B: float[64]
                 (initializers), outputs y and s. The nodes are named mm,
                 relu, sum, rowmax, center, scale and bias.
DIR/data/input_0.pb: a value for x.
With `check`: compares DIR/out/output_{0,1}.pb (y, s) with numpy's values
(relative error 1e-3: s is a float32 sum of 1024 values) and prints OK.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
rng = np.random.default_rng(11)
w = rng.uniform(-1, 1, (32, 64)).astype(np.float32)
b = rng.uniform(-1, 1, (64,)).astype(np.float32)
x = rng.uniform(-1, 1, (16, 32)).astype(np.float32)

if len(sys.argv) > 2 and sys.argv[2] == "check":
    h = np.maximum(x @ w, 0).astype(np.float32)
    s = np.float32(h.astype(np.float64).sum())
    m = h.max(axis=1, keepdims=True)
    y = ((h - m) * s + b).astype(np.float32)
    for i, (name, expected) in enumerate([("y", y), ("s", s)]):
        proto = onnx.load_tensor(os.path.join(out, "out", f"output_{i}.pb"))
        actual = numpy_helper.to_array(proto)
        if proto.name != name or actual.shape != np.shape(expected):
            sys.exit(f"output {i} is {proto.name}{list(actual.shape)}, "
                     f"expected {name}{list(np.shape(expected))}")
        err = float(np.max(np.abs(actual - expected) / np.maximum(np.abs(expected), 1)))
        # s sums 1024 float32 values (numpy in float64); y scales by it.
        if not err <= 1e-3:
            sys.exit(f"output {name}: relative error {err} > 1e-3")
    print("OK: y and s match numpy")
    sys.exit(0)

os.makedirs(os.path.join(out, "data"), exist_ok=True)
node = helper.make_node
graph = helper.make_graph(
    [node("MatMul", ["x", "W"], ["mm_out"], name="mm"),
     node("Relu", ["mm_out"], ["h"], name="relu"),
     node("ReduceSum", ["h"], ["s"], name="sum", keepdims=0),
     node("ReduceMax", ["h"], ["m"], name="rowmax", axes=[1], keepdims=1),
     node("Sub", ["h", "m"], ["c"], name="center"),
     node("Mul", ["c", "s"], ["t"], name="scale"),
     node("Add", ["t", "B"], ["y"], name="bias")],
    "placement_mixed",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [16, 32])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [16, 64]),
     helper.make_tensor_value_info("s", TensorProto.FLOAT, [])],
    initializer=[numpy_helper.from_array(w, "W"), numpy_helper.from_array(b, "B")])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
model.ir_version = 8
onnx.checker.check_model(model)
onnx.save(model, os.path.join(out, "model.onnx"))
with open(os.path.join(out, "data", "input_0.pb"), "wb") as f:
    f.write(numpy_helper.from_array(x, "x").SerializeToString())
