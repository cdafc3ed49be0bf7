#!/usr/bin/python3
"""Assemble every PTX image of `dlc compile --target cuda --emit=ptx` output.

    ptxas_check.py [--ptxas PATH] FILE|-

FILE holds one or more images, each introduced by a line
"// dlc: PTX for sm_XX, N kernels". Each is assembled with
`ptxas -arch=sm_XX`; one line per image is printed ("sm_80: ok, N kernels"
or the first ptxas error). Exit 0 iff every image assembles and there is at
least one (or dlc said the model has no kernels).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

HEADER = re.compile(r"^// dlc: PTX for (sm_\d+), (\d+) kernels\n", re.M)


def split_images(text):
    """[(arch, kernels, ptx)] from --emit=ptx output."""
    parts = HEADER.split(text)
    return [(parts[i], int(parts[i + 1]), parts[i + 2])
            for i in range(1, len(parts) - 2, 3)]


def assemble(ptxas, arch, ptx):
    """None if ptxas accepts `ptx` for `arch`, else its first error line."""
    with tempfile.TemporaryDirectory(prefix="dlc_ptx_") as tmp:
        path = os.path.join(tmp, f"{arch}.ptx")
        with open(path, "w") as f:
            f.write(ptx)
        p = subprocess.run([ptxas, f"-arch={arch}", path, "-o", os.devnull],
                           capture_output=True, text=True)
        if p.returncode == 0:
            return None
        lines = (p.stderr or p.stdout).strip().splitlines()
        return lines[0] if lines else f"exit {p.returncode}"


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ptxas", default="/usr/local/cuda/bin/ptxas")
    ap.add_argument("file")
    args = ap.parse_args()
    text = sys.stdin.read() if args.file == "-" else open(args.file).read()
    images = split_images(text)
    if not images:
        if text.startswith("// dlc: no kernels"):
            print("no kernels")
            return 0
        print("error: no PTX images found")
        return 1
    ok = True
    for arch, kernels, ptx in images:
        err = assemble(args.ptxas, arch, ptx)
        print(f"{arch}: ok, {kernels} kernels" if err is None else f"{arch}: {err}")
        ok &= err is None
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
