"""Writes a model y = x + w whose initializer w (4 floats: 1, 2, 3, 4) is
stored as external data.

usage: external_data.py OUT.onnx LOCATION [DATA_FILE [OFFSET [LENGTH]]]

LOCATION is the location recorded in the model, relative to the model's
directory. The bytes are written to DATA_FILE (default, or "-": LOCATION
resolved against the model's directory). OFFSET and LENGTH (default 0 and
16) are recorded as given, numbers or not.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

out, location = sys.argv[1], sys.argv[2]
data_file = sys.argv[3] if len(sys.argv) > 3 and sys.argv[3] != "-" else os.path.join(
    os.path.dirname(os.path.abspath(out)), location)
offset = sys.argv[4] if len(sys.argv) > 4 else "0"
length = sys.argv[5] if len(sys.argv) > 5 else "16"

values = np.array([1, 2, 3, 4], dtype=np.float32)
with open(data_file, "wb") as f:
    f.write(values.tobytes())

w = TensorProto()
w.name = "w"
w.data_type = TensorProto.FLOAT
w.dims.extend([4])
w.data_location = TensorProto.EXTERNAL
for key, value in (("location", location), ("offset", offset),
                   ("length", length)):
    entry = w.external_data.add()
    entry.key, entry.value = key, value

x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [4])
y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [4])
graph = helper.make_graph([helper.make_node("Add", ["x", "w"], ["y"], name="add")],
                          "g", [x], [y], initializer=[w])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
model.ir_version = 8
onnx.save(model, out)
