"""Writes or prints an ONNX TensorProto file with given values.

usage: tensor_values.py write OUT.pb DTYPE DIMS VALUES
       tensor_values.py print IN.pb
DTYPE is a numpy dtype name, DIMS and VALUES comma-separated (empty DIMS: a
scalar; empty VALUES: no elements); print writes "DTYPE [DIMS] V V V ...".
"""
import sys

import numpy as np
from onnx import TensorProto, numpy_helper

if sys.argv[1] == "write":
    out, dtype, dims, values = sys.argv[2:6]
    shape = [int(d) for d in dims.split(",") if d]
    array = np.array([float(v) for v in values.split(",") if v]).astype(dtype).reshape(shape)
    with open(out, "wb") as f:
        f.write(numpy_helper.from_array(array, "x").SerializeToString())
else:
    t = TensorProto()
    with open(sys.argv[2], "rb") as f:
        t.ParseFromString(f.read())
    a = numpy_helper.to_array(t)
    print(a.dtype.name, list(a.shape), " ".join(f"{v:g}" for v in a.reshape(-1)))
