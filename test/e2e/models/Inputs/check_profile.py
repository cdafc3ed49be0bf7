"""Checks `dlc bench --profile` of a model: the kernels' times add up to
the run's within --rtol, and the FLOPs the profile attributes to its
kernels are the model's whole count (`dlc analyze`: every counted node
found in a profiled kernel). Prints both comparisons; exits 1 when one
fails.

usage: check_profile.py --dlc DLC MODEL.onnx [--threads T] [--rtol R]
"""
import argparse
import json
import subprocess
import sys


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--dlc", required=True)
    p.add_argument("model")
    p.add_argument("--threads", default="1")
    p.add_argument("--rtol", type=float, default=0.10)
    args = p.parse_args()
    out = subprocess.run([args.dlc, "bench", args.model, "--profile",
                          "--iterations", "10", "--threads", args.threads],
                         check=True, capture_output=True, text=True).stdout
    profile = next(json.loads(line)["profile"] for line in out.splitlines()
                   if line.startswith('{"profile"'))
    analysis = json.loads(subprocess.run(
        [args.dlc, "analyze", args.model, "--target", "cpu", "--json", "-"],
        check=True, capture_output=True, text=True).stdout)["summary"]
    ratio = profile["kernels_ms"] / profile["run_ms"]
    ok_time = abs(ratio - 1) <= args.rtol
    flops = sum(k["flops"] for k in profile["kernels"])
    ok_flops = abs(flops / analysis["flops"] - 1) <= 1e-6
    print(f"kernels add up to {100 * ratio:.1f}% of the run: "
          f"{'ok' if ok_time else 'FAIL'}")
    print(f"profiled FLOPs {flops:.0f} of {analysis['flops']:.0f}: "
          f"{'ok' if ok_flops else 'FAIL'}")
    sys.exit(0 if ok_time and ok_flops else 1)


if __name__ == "__main__":
    main()
