"""Runs dlc on the hostile corpus that make_corpus.py wrote into DIR.

usage: run_corpus.py --dlc DLC DIR [--timeout 120]

Each case must end with its expected exit status (never a signal, never
past the timeout) and an error output that matches its message. Prints one
line per case that does not, then "N cases: H handled, B bad"; the exit
status is 0 iff B == 0.
"""
import argparse
import json
import os
import re
import subprocess
import sys

ap = argparse.ArgumentParser()
ap.add_argument("--dlc", required=True)
ap.add_argument("--timeout", type=int, default=120)
ap.add_argument("dir")
args = ap.parse_args()
args.dlc = os.path.abspath(args.dlc)
with open(os.path.join(args.dir, "cases.json")) as f:
    cases = json.load(f)
bad = 0
for c in cases:
    try:
        r = subprocess.run([args.dlc] + c["args"], cwd=args.dir, capture_output=True,
                           text=True, errors="replace", timeout=args.timeout)
        rc, err = r.returncode, r.stderr
    except subprocess.TimeoutExpired:
        rc, err = None, ""
    if rc is None:
        problem = f"no answer in {args.timeout} s (a hang)"
    elif rc < 0:
        problem = f"killed by signal {-rc}"
    elif rc != c["exit"]:
        problem = f"exit {rc}, expected {c['exit']}"
    elif not re.search(c["message"], err):
        problem = f"message does not match /{c['message']}/"
    else:
        problem = None
    if problem:
        bad += 1
        last = err.strip().splitlines()[-1] if err.strip() else "(no output)"
        print(f"BAD {c['name']}: {problem}: {last}")
    elif os.environ.get("VERBOSE"):
        print(f"ok  {c['name']}: {err.strip().splitlines()[0] if err.strip() else ''}")
print(f"{len(cases)} cases: {len(cases) - bad} handled, {bad} bad")
sys.exit(1 if bad else 0)
