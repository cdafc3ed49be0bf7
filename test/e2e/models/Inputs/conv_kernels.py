"""Checks the kernels of a CUDA model's --emit=ptx output (stdin): how many
there are, and that every kernel with a convolution's shape of work stages
its operands in shared memory.

usage: conv_kernels.py --max-kernels N --min-shared M [--min-async A]
                       [--min-mma T] < model.ptx

A kernel counts as staging in shared memory when dlc's kernel table gives
it dynamic shared memory and its PTX (the last image) writes shared memory
(st.shared, or cp.async from global memory), synchronizes (bar.sync), loads
from shared memory (ld.shared or ldmatrix, or a wgmma's descriptors) and
does its multiply-adds there (fma.rn.f32, or mma.sync or wgmma on tensor
cores); as copying asynchronously when it also
commits and waits for cp.async groups (a double-buffered K loop). Prints
"K kernels, S stage operands in shared memory, P of them with cp.async, T
on tensor cores" and exits 1 when there are more than N kernels, fewer than
M staging ones, fewer than A asynchronous ones or fewer than T staging
ones on tensor cores.
"""
import argparse
import re
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--max-kernels", type=int, required=True)
    ap.add_argument("--min-shared", type=int, required=True)
    ap.add_argument("--min-async", type=int, default=0)
    ap.add_argument("--min-mma", type=int, default=0)
    args = ap.parse_args()
    text = sys.stdin.read()
    shared = {m.group(1): int(m.group(2))
              for m in re.finditer(r"^// dlc: kernel (\S+) shared (\d+)$", text, re.M)}
    image = re.split(r"^// dlc: PTX for sm_\d+a?, \d+ kernels$", text, flags=re.M)[-1]
    staged = asynchronous = tensor_cores = 0
    # Each kernel up to the next (an inline asm block's braces end lines too).
    for m in re.finditer(r"^\.visible \.entry (\w+)\((.*?)(?=^\.visible \.entry |\Z)",
                         image, re.S | re.M):
        body = m.group(2)
        writes = "st.shared" in body or "cp.async.cg.shared.global" in body or \
            "cp.async.ca.shared.global" in body
        # Tensor cores: a warp's mma.sync or a warpgroup's wgmma (which
        # reads its shared-memory operands through descriptors).
        mma = "mma.sync.aligned" in body or "wgmma.mma_async" in body
        reads = "ld.shared" in body or "ldmatrix.sync.aligned" in body or \
            "wgmma.mma_async" in body
        if shared.get(m.group(1), 0) and writes and reads and \
                "bar.sync" in body and ("fma.rn.f32" in body or mma):
            staged += 1
            tensor_cores += mma
            if "cp.async.commit_group" in body and "cp.async.wait_group" in body:
                asynchronous += 1
    print(f"{len(shared)} kernels, {staged} stage operands in shared memory, "
          f"{asynchronous} of them with cp.async, {tensor_cores} on tensor "
          f"cores")
    ok = len(shared) <= args.max_kernels and staged >= args.min_shared and \
        asynchronous >= args.min_async and tensor_cores >= args.min_mma
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
