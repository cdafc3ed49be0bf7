"""A model of N chained nodes (Relu, Neg, Neg, Relu, ...: y = relu(x) for N
a multiple of 4), for the compile-time and stack-depth checks of very deep
graphs.

usage: deep_chain.py write OUT.onnx N DATA_DIR   (the model and input_0.pb)
       deep_chain.py check DATA_DIR OUT_DIR      (y == relu(x))
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

if sys.argv[1] == "write":
    out, n, data = sys.argv[2], int(sys.argv[3]), sys.argv[4]
    ops = ["Relu", "Neg", "Neg", "Relu"]
    nodes = [helper.make_node(ops[i % 4], ["x" if i == 0 else f"t{i}"],
                              ["y" if i == n - 1 else f"t{i + 1}"], name=f"n{i}")
             for i in range(n)]
    graph = helper.make_graph(
        nodes, "deep", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [64])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [64])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.save(model, out)
    os.makedirs(data, exist_ok=True)
    x = np.random.default_rng(0).standard_normal(64).astype(np.float32)
    with open(os.path.join(data, "input_0.pb"), "wb") as f:
        f.write(numpy_helper.from_array(x, "x").SerializeToString())
else:
    t = onnx.TensorProto()
    with open(os.path.join(sys.argv[2], "input_0.pb"), "rb") as f:
        t.ParseFromString(f.read())
    x = numpy_helper.to_array(t)
    with open(os.path.join(sys.argv[3], "output_0.pb"), "rb") as f:
        t.ParseFromString(f.read())
    y = numpy_helper.to_array(t)
    ok = np.array_equal(y, np.maximum(x, 0))
    print("deep chain: y == relu(x)" if ok else "deep chain: WRONG")
    sys.exit(0 if ok else 1)
