"""Compares `dlc analyze`'s FLOP count of a model with count_flops.py's
(an independent count from the ONNX graph) and, when given, its
multiply-adds with a published MAC count; prints one line per comparison
and exits 1 when one is off by more than --rtol.

usage: check_analyze_flops.py --dlc DLC MODEL.onnx [--published-macs N]
"""
import argparse
import json
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--dlc", required=True)
    p.add_argument("model")
    p.add_argument("--published-macs", type=float)
    p.add_argument("--rtol", type=float, default=0.01)
    args = p.parse_args()

    out = subprocess.run([args.dlc, "analyze", args.model, "--json", "-"],
                         check=True, capture_output=True, text=True).stdout
    summary = json.loads(out)["summary"]
    ref = json.loads(subprocess.check_output(
        [sys.executable, os.path.join(here, "count_flops.py"), args.model,
         "--json"], text=True))
    name = os.path.basename(args.model)
    failed = False
    if summary["unknown_kernels"]:
        print(f"{name}: {summary['unknown_kernels']} kernel(s) with unknown FLOPs")
        failed = True
    checks = [("flops", summary["flops"], ref["flops"])]
    if args.published_macs:
        checks.append(("macs", summary["macs"], args.published_macs))
    for what, got, want in checks:
        ratio = got / want
        ok = abs(ratio - 1) <= args.rtol
        failed |= not ok
        print(f"{name}: {what}: dlc {got:.0f} reference {want:.0f} "
              f"ratio {ratio:.4f} {'ok' if ok else 'FAIL'}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
