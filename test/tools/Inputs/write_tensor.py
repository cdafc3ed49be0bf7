"""Writes an ONNX TensorProto file of zeros.

usage: write_tensor.py OUT.pb DTYPE DIM,DIM,...   (DTYPE: a numpy dtype name;
an empty dims list makes a scalar)
"""
import sys

import numpy as np
from onnx import numpy_helper

out, dtype, dims = sys.argv[1], sys.argv[2], sys.argv[3]
shape = [int(d) for d in dims.split(",") if d]
with open(out, "wb") as f:
    f.write(numpy_helper.from_array(np.zeros(shape, dtype=dtype), "x").SerializeToString())
