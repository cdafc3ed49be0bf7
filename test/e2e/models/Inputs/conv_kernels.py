"""Checks the kernels of a CUDA model's --emit=ptx output (stdin): how many
there are, and that every kernel with a convolution's shape of work stages
its operands in shared memory.

usage: conv_kernels.py --max-kernels N --min-shared M < model.ptx

A kernel counts as staging in shared memory when dlc's kernel table gives
it dynamic shared memory and its PTX (the last image) stores to and loads
from shared memory between barriers (st.shared, bar.sync, ld.shared) and
does its multiply-adds (fma.rn.f32) there. Prints
"K kernels, S stage operands in shared memory" and exits 1 when there are
more than N kernels or fewer than M such kernels.
"""
import argparse
import re
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--max-kernels", type=int, required=True)
    ap.add_argument("--min-shared", type=int, required=True)
    args = ap.parse_args()
    text = sys.stdin.read()
    shared = {m.group(1): int(m.group(2))
              for m in re.finditer(r"^// dlc: kernel (\S+) shared (\d+)$", text, re.M)}
    image = re.split(r"^// dlc: PTX for sm_\d+, \d+ kernels$", text, flags=re.M)[-1]
    staged = 0
    for m in re.finditer(r"\.entry (\w+)\((.*?)\n\}\n", image, re.S):
        body = m.group(2)
        if shared.get(m.group(1), 0) and all(
                op in body for op in ("st.shared", "bar.sync", "ld.shared", "fma.rn.f32")):
            staged += 1
    print(f"{len(shared)} kernels, {staged} stage operands in shared memory")
    ok = len(shared) <= args.max_kernels and staged >= args.min_shared
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
