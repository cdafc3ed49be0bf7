"""dlc analyze --measure's per-kernel calibration on a real model: the
profiled kernels' time is attributed to analysis kernels (at most 5% left
over) and the kernels' sum is the measured run within 10%. Prints how many
analysis kernels got a measured time (fewer where one compiled kernel
computes several, or a loop's body runs inside one) and the median
predicted/measured."""
import argparse
import json
import subprocess
import sys

p = argparse.ArgumentParser()
p.add_argument("--dlc", required=True)
p.add_argument("model")
p.add_argument("--threads", default="1")
a = p.parse_args()
out = subprocess.run([a.dlc, "analyze", a.model, "--target", "cpu", "--threads", a.threads,
                      "--measure", "--measure-peaks", "--json", "-"],
                     check=True, capture_output=True, text=True).stdout
report = json.loads(out)
c = report["calibration"]
# The kernels' times are means over the timed runs: their sum is compared
# with the same runs' mean (the batch's figure is their median).
run_ms = c["measured_run_mean_ms"]
kernels = report["summary"]["kernel_count"]
left = c["unattributed_ms"] / c["measured_kernels_ms"]
print(f"calibration: {c['kernels_compared']} of {kernels} kernels compared, "
      f"median predicted/measured {c['median_predicted_over_measured']:.2f}, "
      f"{c['kernels_within_2x']} within 2x, {100 * left:.1f}% unattributed, "
      f"kernels {c['measured_kernels_ms']:.3f} ms of the runs' mean {run_ms:.3f} ms")
ok = left <= 0.05 and abs(c["measured_kernels_ms"] / run_ms - 1) <= 0.1
print("calibration: " + ("ok" if ok else "FAILED"))
sys.exit(0 if ok else 1)
