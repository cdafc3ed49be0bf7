"""Writes DIR/input_0.pb (input_ids i64[1,128], seed 0) and DIR/input_1.pb
(attention_mask bool[1,128], all True) for the BERT-style encoder."""
import os
import sys

import numpy as np
from onnx import numpy_helper

out = sys.argv[1]
ids = np.random.default_rng(0).integers(0, 1000, (1, 128)).astype(np.int64)
mask = np.ones((1, 128), dtype=bool)
with open(os.path.join(out, "input_0.pb"), "wb") as f:
    f.write(numpy_helper.from_array(ids, "input_ids").SerializeToString())
with open(os.path.join(out, "input_1.pb"), "wb") as f:
    f.write(numpy_helper.from_array(mask, "attention_mask").SerializeToString())
