"""Writes a model of independent convolutions with constant weights, one
per tiling case of dlc-cpu-select-tiling (rows of 28, 14, 13 and 7 columns,
stride 2, a 7x7 stride-2 stem, pointwise over 7x7, 14x14 and 28x28 images,
with stride 2 and with filters that are not whole vectors, depthwise,
grouped, with bias and ReLU), as real models
have them: weights are initializers, so that dlc packs them at compile
time.

    conv_shapes.py OUT.onnx
"""
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper, save

# name, C, H, W, F, k, stride, pad, group, relu
CASES = [
    ("s1_w28", 32, 28, 28, 32, 3, 1, 1, 1, True),
    ("s1_w14", 48, 14, 14, 40, 3, 1, 1, 1, False),
    ("s1_w7", 64, 7, 7, 64, 3, 1, 1, 1, True),
    ("s1_w13", 32, 13, 13, 32, 3, 1, 1, 1, True),
    ("s2_w56", 16, 56, 56, 32, 3, 2, 1, 1, False),
    ("s2_w14", 32, 14, 14, 64, 3, 2, 1, 1, True),
    ("stem", 3, 64, 64, 16, 7, 2, 3, 1, True),
    ("pw_w7", 96, 7, 7, 80, 1, 1, 0, 1, True),
    ("pw_w14", 64, 14, 14, 48, 1, 1, 0, 1, False),
    ("pw_w28", 24, 28, 28, 40, 1, 1, 0, 1, True),
    ("pw_s2", 32, 28, 28, 64, 1, 2, 0, 1, False),
    ("pw_half", 116, 14, 14, 116, 1, 1, 0, 1, True),
    ("dw_s1", 24, 28, 28, 24, 3, 1, 1, 24, True),
    ("dw_s2", 32, 28, 28, 32, 3, 2, 1, 32, False),
    ("grouped", 48, 14, 14, 48, 3, 1, 1, 6, True),
]


def main():
    rng = np.random.default_rng(7)
    nodes, inputs, outputs, inits = [], [], [], []
    for name, c, h, w, f, k, s, p, g, relu in CASES:
        x, wt, b, y = f"{name}_x", f"{name}_w", f"{name}_b", name
        inputs.append(helper.make_tensor_value_info(x, TensorProto.FLOAT, [1, c, h, w]))
        inits.append(numpy_helper.from_array(
            rng.standard_normal((f, c // g, k, k)).astype(np.float32) * 0.2, wt))
        inits.append(numpy_helper.from_array(
            rng.standard_normal(f).astype(np.float32), b))
        conv_out = f"{name}_conv" if relu else y
        nodes.append(helper.make_node(
            "Conv", [x, wt, b], [conv_out], name=f"{name}_conv_node",
            kernel_shape=[k, k], strides=[s, s], pads=[p] * 4, group=g))
        if relu:
            nodes.append(helper.make_node("Relu", [conv_out], [y], name=f"{name}_relu"))
        oh = (h + 2 * p - k) // s + 1
        ow = (w + 2 * p - k) // s + 1
        outputs.append(helper.make_tensor_value_info(y, TensorProto.FLOAT, [1, f, oh, ow]))
    graph = helper.make_graph(nodes, "conv_shapes", inputs, outputs, inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    save(model, sys.argv[1])


if __name__ == "__main__":
    main()
