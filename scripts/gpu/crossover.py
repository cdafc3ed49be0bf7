#!/usr/bin/env python3
"""The predicted CPU-vs-GPU crossover against the measured one (issue 21).

    scripts/gpu/crossover.py REPORT_DIR [--dlc build/bin/dlc]
                             [--models-dir build/gpu-check/models]

Run here, after scripts/gpu-check.sh ran on a GPU machine and its report
came back: reads REPORT_DIR/gpu-report.json (the crossover step: each
model's CPU library on all the GPU machine's cores and its GPU build with
host tensors, per batch) and REPORT_DIR/peaks.json (that machine's CPU and
GPU peaks, measured there), runs `dlc analyze MODEL --peaks peaks.json
--threads N --mcpu x86-64-v3` for the batch's crossover, and says whether
it lies within one power of two of the measured one: the GPU measured to
win from a batch in (lo, hi] holds a prediction p with lo / 2 < p <= 2 hi
(with lo = 0 when it wins at the first measured batch; with no measured
win, p > lo / 2 or no predicted crossover). Writes
REPORT_DIR/crossover.json; exits 1 when a model's does not hold.
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def holds(predicted, lo, hi):
    if predicted is None:
        return hi is None
    if hi is None:
        return predicted > lo / 2
    return lo / 2 < predicted <= 2 * hi


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("report_dir")
    ap.add_argument("--dlc", default=os.path.join(ROOT, "build", "bin", "dlc"))
    ap.add_argument("--models-dir", default=os.path.join(ROOT, "build", "gpu-check", "models"))
    args = ap.parse_args()
    with open(os.path.join(args.report_dir, "gpu-report.json")) as f:
        report = json.load(f)
    peaks = os.path.join(args.report_dir, "peaks.json")
    families = report.get("crossover")
    if not families or not os.path.exists(peaks):
        sys.exit("crossover: the report has no crossover step or peaks.json")
    results, ok = {}, True
    for name, fam in sorted(families.items()):
        model = os.path.join(args.models_dir, fam["model_file"])
        p = subprocess.run([args.dlc, "analyze", model, "--peaks", peaks, "--threads",
                            str(fam["threads"]), "--mcpu", "x86-64-v3", "--json", "-"],
                           capture_output=True, text=True)
        if p.returncode != 0:
            results[name] = {"error": p.stderr.strip()[:300]}
            ok = False
            print(f"crossover {name}: dlc analyze failed: {results[name]['error']}")
            continue
        predicted = json.loads(p.stdout)["summary"]["crossover_batch"]
        lo, hi = fam["measured_crossover_after"], fam["measured_crossover_at_most"]
        good = holds(predicted, lo, hi)
        ok &= good
        results[name] = {"predicted": predicted, "measured_after": lo,
                         "measured_at_most": hi, "holds": good,
                         "batches": fam["batches"]}
        measured = (f"from a batch in ({lo}, {hi}]" if hi is not None
                    else f"at no measured batch (up to {lo})")
        print(f"crossover {name}: predicted {predicted}, measured the GPU wins {measured}: "
              + ("holds" if good else "does not hold"))
    with open(os.path.join(args.report_dir, "crossover.json"), "w") as f:
        json.dump(results, f, indent=1, sort_keys=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
