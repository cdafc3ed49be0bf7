"""Compares two raw float32 output files (run_raw.c's) element by element.

Usage: compare_raw.py A B [--rtol R] [--atol A]
Prints the element count, the largest difference and PASS or FAIL; two
builds for different ISAs (vector widths, FMA contraction) agree to rounding,
not bit for bit.
"""
import argparse
import sys

import numpy as np

ap = argparse.ArgumentParser()
ap.add_argument("a")
ap.add_argument("b")
ap.add_argument("--rtol", type=float, default=1e-3)
ap.add_argument("--atol", type=float, default=1e-4)
args = ap.parse_args()
a = np.fromfile(args.a, dtype=np.float32)
b = np.fromfile(args.b, dtype=np.float32)
if a.size != b.size or a.size == 0:
    print(f"FAIL: {a.size} vs {b.size} elements")
    sys.exit(1)
if not (np.isfinite(a).all() and np.isfinite(b).all()):
    print("FAIL: non-finite values")
    sys.exit(1)
diff = np.abs(a - b)
print(f"elements: {a.size}, max |a-b| {diff.max():.3g}, max |a| {np.abs(a).max():.3g}, "
      f"std(a) {a.std():.3g}")
ok = np.allclose(a, b, rtol=args.rtol, atol=args.atol)
print("PASS" if ok else "FAIL")
sys.exit(0 if ok else 1)
