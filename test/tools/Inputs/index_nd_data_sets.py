"""Lays out the data sets of ../run-index-nd-out-of-range.test from the
tensors it wrote: input_0..5 = x, i, k, u, e, w."""
import os
import shutil
import sys

root = sys.argv[1]
sets = {
    "ok": ("i-ok", "k-ok", "e-ok"),
    "bad-i": ("i-bad", "k-ok", "e-ok"),
    "bad-k": ("i-ok", "k-bad", "e-ok"),
    "bad-e": ("i-ok", "k-ok", "e-bad"),
    "bad-all": ("i-bad", "k-bad", "e-bad"),
}
for name, (i, k, e) in sets.items():
    d = os.path.join(root, name)
    os.makedirs(d, exist_ok=True)
    for n, src in enumerate(("x", i, k, "u", e, "w")):
        shutil.copy(os.path.join(root, src + ".pb"),
                    os.path.join(d, "input_%d.pb" % n))
