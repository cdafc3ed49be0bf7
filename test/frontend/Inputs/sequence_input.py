"""Writes a model whose second graph input is a sequence, not a tensor.

usage: sequence_input.py OUT.onnx
"""
import sys

import onnx
from onnx import TensorProto, helper

x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])
seq = helper.make_value_info(
    "s", helper.make_sequence_type_proto(
        helper.make_tensor_type_proto(TensorProto.FLOAT, [3])))
y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])
graph = helper.make_graph([helper.make_node("Relu", ["x"], ["y"], name="relu")],
                          "g", [x, seq], [y])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
model.ir_version = 8
onnx.save(model, sys.argv[1])
