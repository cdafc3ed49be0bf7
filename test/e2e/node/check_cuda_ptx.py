#!/usr/bin/python3
"""Compile the ONNX node tests for CUDA and assemble every PTX with ptxas.

For every node test that passes on the CPU (every test not listed in
--xfail), runs

    DLC compile TEST/model.onnx --target cuda --emit=ptx --data TEST/test_data_set_0

and assembles each architecture's PTX with `ptxas -arch=sm_XX` (the
architectures the compiler embeds: sm_80 and sm_90 by default; an image that
differs from an older architecture's only in its .target line is assembled
once, for the older one). A test
fails when dlc cannot compile it for CUDA or when ptxas rejects its PTX.
Tests listed in --cuda-xfail (`name  # reason`) are expected to fail; a
listed test that passes is reported as XPASS and fails the run.

The last line is "P compiled and assembled, F failed"; exit 0 iff F == 0.
"""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run_node_tests import read_list  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "scripts"))
from ptxas_check import assemble, split_images  # noqa: E402


def check(dlc, ptxas, test_dir, timeout):
    model = os.path.join(test_dir, "model.onnx")
    cmd = [dlc, "compile", model, "--target", "cuda", "--emit=ptx"]
    data = os.path.join(test_dir, "test_data_set_0")
    if os.path.isdir(data):
        cmd += ["--data", data]
    try:
        p = subprocess.run(cmd, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "FAIL", f"dlc timed out after {timeout} s"
    if p.returncode != 0:
        err = p.stderr.decode(errors="replace").strip().splitlines()
        return "FAIL", f"dlc exit {p.returncode}: {err[0] if err else ''}"
    text = p.stdout.decode()
    images = split_images(text)
    if not images:
        if text.startswith("// dlc: no kernels"):
            return "PASS", "no kernels"
        return "FAIL", "no PTX printed"
    # An image whose text differs from an already assembled one only in its
    # .target line is not assembled again for the newer architecture: sm_90
    # accepts every sm_80 instruction, so the older target is the stricter
    # check (the fp32 node kernels are identical for sm_80 and sm_90).
    # The real models assemble every image (e2e/models/cuda-ptx.test).
    assembled = []
    for arch, _, ptx in sorted(images, key=lambda i: arch_number(i[0])):
        body = TARGET.sub("", ptx)
        if body in assembled:
            continue
        err = assemble(ptxas, arch, ptx)
        if err:
            return "FAIL", f"ptxas -arch={arch}: {err}"
        assembled.append(body)
    return "PASS", ",".join(a for a, _, _ in images)


TARGET = re.compile(r"^\.target [^\n]*$", re.M)


def arch_number(arch):
    """sm_80 -> 80, sm_90a -> 90 (the stricter, older targets first)."""
    m = re.match(r"sm_(\d+)", arch)
    return int(m.group(1)) if m else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dlc", required=True)
    ap.add_argument("--data", required=True, help="directory made by generate.sh")
    ap.add_argument("--xfail", required=True,
                    help="the CPU expected-failure list: those tests are skipped")
    ap.add_argument("--cuda-xfail", help="tests expected to fail for CUDA")
    ap.add_argument("--ptxas", default="/usr/local/cuda/bin/ptxas")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--filter", help="only tests matching this regex")
    args = ap.parse_args()

    cpu_xfail = read_list(args.xfail)
    cuda_xfail = read_list(args.cuda_xfail) if args.cuda_xfail else {}
    node_dir = os.path.join(args.data, "node")
    tests = sorted(t for t in os.listdir(node_dir) if t not in cpu_xfail)
    if args.filter:
        tests = [t for t in tests if re.search(args.filter, t)]
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(
            lambda t: check(args.dlc, args.ptxas, os.path.join(node_dir, t),
                            args.timeout), tests))
    passed = failed = xfailed = 0
    for test, (status, reason) in zip(tests, results):
        listed = test in cuda_xfail
        if status == "PASS" and listed:
            print(f"XPASS {test}: remove it from the CUDA xfail list")
            failed += 1
        elif status == "PASS":
            passed += 1
        elif listed:
            xfailed += 1
        else:
            print(f"FAIL {test}: {reason}")
            failed += 1
    print(f"{len(tests)} CPU-passing node tests; {xfailed} expected CUDA failures")
    print(f"{passed} compiled and assembled, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
