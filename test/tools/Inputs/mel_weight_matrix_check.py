"""Compares dlc's MelWeightMatrix output with ONNX's reference algorithm
(onnx/backend/test/case/node/melweightmatrix.py, in numpy float64) for the
sizes and edges given. usage: mel_weight_matrix_check.py OUT.pb MELS DFT
RATE LOWER UPPER"""
import sys

import numpy as np
from onnx import TensorProto, numpy_helper

out, mels, dft, rate = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
lower, upper = np.float32(sys.argv[5]), np.float32(sys.argv[6])
bins = dft // 2 + 1
fb = np.arange(0, mels + 2)
low_mel = 2595 * np.log10(1 + lower / 700)
high_mel = 2595 * np.log10(1 + upper / 700)
fb = fb * ((high_mel - low_mel) / fb.shape[0]) + low_mel
fb = 700 * (np.power(10, fb / 2595) - 1)
fb = (((dft + 1) * fb) // rate).astype(int)
want = np.zeros((bins, mels))
for i in range(mels):
    l, c, h = fb[i], fb[i + 1], fb[i + 2]
    if c == l:
        want[c, i] = 1
    else:
        for j in range(l, c + 1):
            want[j, i] = (j - l) / (c - l)
    if h > c:
        for j in range(c, h):
            want[j, i] = (h - j) / (h - c)
t = TensorProto()
with open(out, "rb") as f:
    t.ParseFromString(f.read())
got = numpy_helper.to_array(t)
ok = got.shape == want.shape and np.allclose(got, want, atol=1e-6)
print("mel weights %s %s" % (list(got.shape), "match" if ok else "differ: %s vs %s" % (got, want)))
