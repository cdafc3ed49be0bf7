#!/usr/bin/python3
"""How far `dlc analyze`'s CPU predictions are from measurement, per model.

  /usr/bin/python3 benchmarks/analyze_calibration.py [--models NAME ...]
      [--threads 1 2] [--batches 1] [--json OUT.json]

Measures this machine's peaks once (`dlc analyze --measure-peaks`), then
runs `dlc analyze MODEL --measure` for each model and thread count: the
prediction (roofline of dlc's fused kernels with those peaks) beside the
median of 20 timed runs of the compiled library. Prints predicted /
measured per model (within 0.5 .. 2 is the bar of issue 21) and, with
--json, writes every figure with the machine's. The models are exported by
scripts/models/export_models.py into build/models (cached).
"""
import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_MODELS = ["resnet50", "mobilenet_v2", "efficientnet_b0", "bert", "lstm"]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--dlc", default=os.path.join(root, "build/bin/dlc"))
    p.add_argument("--models", nargs="+", default=DEFAULT_MODELS)
    p.add_argument("--threads", nargs="+", type=int, default=[1, 2])
    p.add_argument("--json")
    args = p.parse_args()

    models_dir = os.path.join(root, "build/models")
    subprocess.run([sys.executable,
                    os.path.join(root, "scripts/models/export_models.py"),
                    models_dir, "--only"] + args.models, check=True,
                   stdout=subprocess.DEVNULL)
    with tempfile.TemporaryDirectory() as tmp:
        peaks_file = os.path.join(tmp, "peaks.json")
        subprocess.run([args.dlc, "analyze", "--measure-peaks", "--threads",
                        str(max(args.threads)), "--json", peaks_file],
                       check=True, stdout=subprocess.DEVNULL)
        peaks = json.load(open(peaks_file))
        rows = []
        for model in args.models:
            for threads in args.threads:
                out = subprocess.run(
                    [args.dlc, "analyze", os.path.join(models_dir, model + ".onnx"),
                     "--target", "cpu", "--peaks", peaks_file, "--threads",
                     str(threads), "--measure", "--json", "-"],
                    check=True, capture_output=True, text=True).stdout
                report = json.loads(out)
                b = report["batches"][0]
                rows.append({"model": model, "threads": threads,
                             "predicted_ms": b["cpu_ms"],
                             "measured_ms": b["cpu_measured_ms"],
                             "ratio": b["cpu_predicted_over_measured"],
                             "gflops": report["summary"]["flops"] / 1e9})
    cpu = peaks["cpu"]
    print(f"CPU: {cpu['name']} ({cpu['isa']}); FMA peak "
          + ", ".join(f"{t} thread(s) {v['flops']['value'] / 1e9:.0f} GFLOP/s"
                      for t, v in cpu["threads"].items()))
    print(f"{'model':18} {'threads':>7} {'GFLOP':>7} {'predicted ms':>13} "
          f"{'measured ms':>12} {'pred/meas':>9}")
    for r in rows:
        flag = "" if 0.5 <= r["ratio"] <= 2 else "  outside 2x"
        print(f"{r['model']:18} {r['threads']:>7} {r['gflops']:>7.3f} "
              f"{r['predicted_ms']:>13.3f} {r['measured_ms']:>12.3f} "
              f"{r['ratio']:>9.2f}{flag}")
    worst = max(rows, key=lambda r: max(r["ratio"], 1 / r["ratio"]))
    print(f"worst: {worst['model']} at {worst['threads']} thread(s), "
          f"predicted/measured {worst['ratio']:.2f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"machine": platform.node(), "peaks": peaks,
                       "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
