#!/usr/bin/python3
"""Assemble every PTX image of `dlc compile --target cuda --emit=ptx` output.

    ptxas_check.py [--ptxas PATH] [--gates] [--report FILE] FILE|-

FILE holds one or more images, each introduced by a line
"// dlc: PTX for sm_XX, N kernels", after the kernel table
("// dlc: kernel NAME shared BYTES", the dynamic shared memory of each).
Each image is assembled with `ptxas -arch=sm_XX`; one line per image is
printed ("sm_80: ok, N kernels" or the first ptxas error). Exit 0 iff every
image assembles and there is at least one (or dlc said the model has no
kernels).

--gates also checks every kernel, from `ptxas -v`, against the occupancy
budget dlc's strategy aims at: no spill stores or loads and no stack frame
(registers suffice), and two blocks of the kernel fit on one SM at once
(registers x threads x 2 <= 65536 and shared memory x 2 <= 228 KB; the
threads per block are the PTX's .maxntid). One line per image:
"sm_90: gates ok, N kernels, at most R registers, S bytes shared" or the
kernels that fail, each with its numbers. --report writes every kernel's
figures as JSON.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HEADER = re.compile(r"^// dlc: PTX for (sm_\d+a?), (\d+) kernels\n", re.M)
KERNEL = re.compile(r"^// dlc: kernel (\S+) shared (\d+)$", re.M)
ENTRY = re.compile(r"\.entry (\w+)\((.*?)\)\s*(\.maxntid (\d+), (\d+), (\d+))?",
                   re.S)

REGISTERS_PER_SM = 65536
SHARED_PER_SM = 228 * 1024
BLOCKS_PER_SM = 2


def split_images(text):
    """[(arch, kernels, ptx)] from --emit=ptx output."""
    parts = HEADER.split(text)
    return [(parts[i], int(parts[i + 1]), parts[i + 2])
            for i in range(1, len(parts) - 2, 3)]


def run_ptxas(ptxas, arch, ptx, verbose):
    with tempfile.TemporaryDirectory(prefix="dlc_ptx_") as tmp:
        path = os.path.join(tmp, f"{arch}.ptx")
        with open(path, "w") as f:
            f.write(ptx)
        cmd = [ptxas, f"-arch={arch}", path, "-o", os.devnull]
        if verbose:
            cmd.insert(1, "-v")
        return subprocess.run(cmd, capture_output=True, text=True)


def assemble(ptxas, arch, ptx):
    """None if ptxas accepts `ptx` for `arch`, else its first error line."""
    p = run_ptxas(ptxas, arch, ptx, verbose=False)
    return None if p.returncode == 0 else first_error(p)


def first_error(p):
    lines = (p.stderr or p.stdout).strip().splitlines()
    errors = [l for l in lines if "error" in l.lower()]
    return (errors or lines or [f"exit {p.returncode}"])[0]


def kernel_figures(ptxas_output):
    """{kernel: {registers, spill_stores, spill_loads, stack}} from ptxas -v."""
    figures, current = {}, None
    for line in ptxas_output.splitlines():
        m = re.search(r"Compiling entry function '(\w+)'", line)
        if m:
            current = figures.setdefault(m.group(1), {
                "registers": 0, "spill_stores": 0, "spill_loads": 0, "stack": 0})
            continue
        if current is None:
            continue
        m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, "
                      r"(\d+) bytes spill loads", line)
        if m:
            current["stack"] = int(m.group(1))
            current["spill_stores"] = int(m.group(2))
            current["spill_loads"] = int(m.group(3))
        m = re.search(r"Used (\d+) registers", line)
        if m:
            current["registers"] = int(m.group(1))
    return figures


def gate(arch, ptx, shared, output):
    """(ok, line, per-kernel records) for one image."""
    threads = {}
    for m in ENTRY.finditer(ptx):
        if m.group(3):
            threads[m.group(1)] = (int(m.group(4)) * int(m.group(5)) *
                                   int(m.group(6)))
    figures = kernel_figures(output)
    records, failures = [], []
    for name, f in sorted(figures.items()):
        t = threads.get(name, 1024)
        s = shared.get(name, 0)
        record = dict(f, kernel=name, arch=arch, threads=t, shared=s)
        records.append(record)
        why = []
        if f["spill_stores"] or f["spill_loads"]:
            why.append(f"spills {f['spill_stores']}/{f['spill_loads']} bytes")
        if f["stack"]:
            why.append(f"stack frame {f['stack']} bytes")
        if f["registers"] * t * BLOCKS_PER_SM > REGISTERS_PER_SM:
            why.append(f"{f['registers']} registers x {t} threads")
        if s * BLOCKS_PER_SM > SHARED_PER_SM:
            why.append(f"{s} bytes shared")
        if why:
            failures.append(f"{name} ({', '.join(why)})")
    if failures:
        return False, f"{arch}: gates failed: " + "; ".join(failures), records
    regs = max((r["registers"] for r in records), default=0)
    smem = max((r["shared"] for r in records), default=0)
    return True, (f"{arch}: gates ok, {len(records)} kernels, at most {regs} "
                  f"registers, {smem} bytes shared"), records


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ptxas", default="/usr/local/cuda/bin/ptxas")
    ap.add_argument("--gates", action="store_true")
    ap.add_argument("--report")
    ap.add_argument("file")
    args = ap.parse_args()
    text = sys.stdin.read() if args.file == "-" else open(args.file).read()
    shared = {m.group(1): int(m.group(2)) for m in KERNEL.finditer(text)}
    images = split_images(text)
    if not images:
        if text.startswith("// dlc: no kernels"):
            print("no kernels")
            return 0
        print("error: no PTX images found")
        return 1
    ok, report = True, []
    for arch, kernels, ptx in images:
        p = run_ptxas(args.ptxas, arch, ptx, args.gates)
        if p.returncode != 0:
            print(f"{arch}: {first_error(p)}")
            ok = False
            continue
        print(f"{arch}: ok, {kernels} kernels")
        if args.gates:
            passed, line, records = gate(arch, ptx, shared, p.stdout + p.stderr)
            print(line)
            ok &= passed
            report += records
    if args.report:
        with open(args.report, "w") as f:
            json.dump(report, f, indent=1)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
