#!/usr/bin/python3
"""Run dlc on the exported reference models and print a results table.

  /usr/bin/python3 scripts/models/check_models.py [--dlc build/bin/dlc]
      [--models build/models] [--only NAME ...] [--rtol 1e-3] [--atol 1e-4] [--timeout S]

For each model (exported first by export_models.py into --models if missing):
`dlc check`, then test/e2e/ort/compare_with_ort.py (dlc run vs ONNX Runtime on random
inputs; --timeout is its limit per tool run). Prints one row per model: status, max
abs/rel difference over all outputs, the wall and CPU time of `dlc run` (compile +
run; the CPU time is steadier on a busy machine), and the first error line when dlc
fails. Exit 0 when every model passes.
"""
import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
COMPARE = os.path.join(ROOT, "test", "e2e", "ort", "compare_with_ort.py")
sys.path.insert(0, HERE)

# Extra compare_with_ort.py arguments per model (the lit tests use the same).
COMPARE_ARGS = {
    "bert": ["--int-high", "1000"],  # token ids over the whole vocabulary
    "transformer": ["--int-high", "1000"],
}


def first_error(log):
    for line in log.splitlines():
        line = line.strip()
        if line and not line.startswith(("dlc cannot", "dlc failed")):
            return line
    return ""


def main():
    import export_models
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dlc", default=os.path.join(ROOT, "build", "bin", "dlc"))
    ap.add_argument("--models", default=os.path.join(ROOT, "build", "models"))
    ap.add_argument("--only", nargs="+", choices=sorted(export_models.MODELS), metavar="NAME")
    ap.add_argument("--rtol", default="1e-3")
    ap.add_argument("--atol", default="1e-4")
    ap.add_argument("--timeout", default="1200")
    args = ap.parse_args()
    names = args.only or list(export_models.MODELS)
    subprocess.run([sys.executable, os.path.join(HERE, "export_models.py"), args.models,
                    "--only", *names], check=True)

    rows = []
    with tempfile.TemporaryDirectory(prefix="dlc-models-") as tmp:
        # Times `dlc run` inside compare_with_ort.py.
        timing = os.path.join(tmp, "dlc_time")
        wrapper = os.path.join(tmp, "dlc")
        with open(wrapper, "w") as f:
            f.write("#!/bin/bash\ns=$(date +%s%N)\n"
                    f"{shlex.quote(os.path.abspath(args.dlc))} \"$@\"\nrc=$?\n"
                    f"w=$(( ($(date +%s%N) - s) / 1000000 )); times > {shlex.quote(timing)}.t\n"
                    f"echo $w $(tail -1 {shlex.quote(timing)}.t) > {shlex.quote(timing)}\n"
                    "exit $rc\n")
        os.chmod(wrapper, 0o755)
        for name in names:
            model = os.path.join(args.models, f"{name}.onnx")
            chk = subprocess.run([args.dlc, "check", model], stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT, text=True)
            row = {"name": name, "check": "ok" if chk.returncode == 0 else "unsupported",
                   "status": "", "abs": "", "rel": "", "run_s": "",
                   "error": ""}
            if chk.returncode != 0:
                row["error"] = first_error(chk.stdout)
            if os.path.exists(timing):
                os.unlink(timing)
            cmp = subprocess.run([sys.executable, COMPARE, "--dlc", wrapper, "--model", model,
                                  "--rtol", args.rtol, "--atol", args.atol,
                                  "--timeout", args.timeout, *COMPARE_ARGS.get(name, [])],
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            if os.path.exists(timing):
                wall_ms, user, sys_ = open(timing).read().split()
                cpu = sum(float(m) * 60 + float(s) for m, s in
                          (re.fullmatch(r"(\d+)m([\d.]+)s", t).groups() for t in (user, sys_)))
                row["run_s"] = f"{int(wall_ms) / 1000:.1f} ({cpu:.1f} cpu)"
            diffs = re.findall(r"max_abs_diff=(\S+) max_rel_diff=(\S+)", cmp.stdout)
            if diffs:
                row["abs"] = f"{max(float(a) for a, _ in diffs):.3g}"
                row["rel"] = f"{max(float(r) for _, r in diffs):.3g}"
            row["status"] = {0: "PASS", 2: "COMPILE-FAIL"}.get(cmp.returncode, "FAIL")
            if cmp.returncode != 0 and not row["error"]:
                lines = cmp.stdout.splitlines()
                bad = [l.strip() for l in lines if "MISMATCH" in l]
                row["error"] = bad[0] if bad else first_error(
                    "\n".join(l for l in lines if not l.startswith(model)))
            print(f"--- {name}\n{chk.stdout}{cmp.stdout}", flush=True)
            rows.append(row)

    print("| model | dlc check | status | max abs diff | max rel diff | dlc run: wall s (cpu s) | first error |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['name']} | {r['check']} | {r['status']} | {r['abs']} | {r['rel']} | "
              f"{r['run_s']} | {r['error'].replace('|', '/')} |")
    return 0 if all(r["status"] == "PASS" for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
