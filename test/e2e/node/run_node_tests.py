#!/usr/bin/python3
"""Run the ONNX backend node tests through `dlc run` and compare the outputs.

For every selected test OUTDIR/node/TEST and every data set K in it, runs

    DLC run OUTDIR/node/TEST/model.onnx --data OUTDIR/node/TEST/test_data_set_K --out TMP

and compares TMP/output_J.pb with the expected test_data_set_K/output_J.pb:
shapes and dtypes must match exactly; floating-point values within rtol/atol
(default 1e-3/1e-5, see TOLERANCES) with NaNs in the same places; everything
else (integers, bools, strings) exactly.

Statuses: PASS; FAIL (unlisted failure); XFAIL (failure listed in --xfail);
XPASS (listed in --xfail but passes: remove it from the list); TIMEOUT (an
unlisted test ran past --timeout; a listed one that times out is XFAIL).
The last line printed is "P passed, F failed" with F = FAIL + XPASS + TIMEOUT;
the exit status is 0 iff F == 0.

--dynamic-batch runs each test with a dynamic batch: dimension 0 of the first
graph input (of rank >= 1) becomes the symbolic 'N', and so does dimension 0
of every other input of that size when it is above 1 (a leading 1 is more
often a broadcast or a weight, e.g. Conv's W); the outputs' declared shapes
are made symbolic, so that
dlc compiles one library for any batch size and runs it at the test's size
(see docs/dynamic-batch.md). It has its own expected-failure list.

In the default mode a symbolic input dimension that a data set gives size
0 is compiled at that size (--dim NAME=0): left symbolic, dlc run would make
it the dynamic batch, which counts samples from 1.

--symbolic runs each test with every dimension of every graph input
symbolic (except dimensions of size 0): dimension k of input i becomes
'in<i>_<k>', compiled with `--dim in<i>_<k>=1..SIZE` (bounded by the test's
own size), so that dlc compiles one library for any sizes in those ranges
and runs it at the test's. It has its own expected-failure list.

--constant-inputs runs each data set with every graph input made an
initializer holding that data set's value: all of the graph is known at
compile time, so dlc evaluates it while compiling (constant evaluation with
its CPU code, frontend/ConstantFolding.h), and the model only returns the
results. It checks compile-time evaluation on every op and dtype that the
node tests cover.

Xfail file format: one `test_name  # reason` per line; blank lines and lines
starting with '#' are ignored.  `--write-xfail FILE` writes the current
failures in that format (keeping the reasons of entries already in --xfail),
e.g. to bootstrap the list (entries of --xfail for tests not run this time
are kept, so it can update a list in place):

    run_node_tests.py --dlc build/dlc --data DATA --list initial_ops.txt \\
        --write-xfail xfail.txt
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import numpy as np
import onnx
from onnx import numpy_helper

DEFAULT_RTOL = 1e-3
DEFAULT_ATOL = 1e-5

# Per-test tolerance overrides: test_name -> (rtol, atol).  Every entry needs a
# comment saying why the default is not achievable for that test.
TOLERANCES = {
}


# ----------------------------------------------------------------- values

def load_value(path, type_proto):
    """Load a serialized test value: an ndarray, a list (sequence) or None
    (empty optional).  Maps do not occur in the node tests."""
    kind = type_proto.WhichOneof("value")
    with open(path, "rb") as f:
        data = f.read()
    if kind == "sequence_type":
        proto = onnx.SequenceProto()
        proto.ParseFromString(data)
        return numpy_helper.to_list(proto)
    if kind == "optional_type":
        proto = onnx.OptionalProto()
        proto.ParseFromString(data)
        return numpy_helper.to_optional(proto)
    proto = onnx.TensorProto()
    proto.ParseFromString(data)
    if type_proto.tensor_type.elem_type == onnx.TensorProto.BFLOAT16:
        return bfloat16_values(proto)
    return numpy_helper.to_array(proto)


def bfloat16_values(proto):
    """The float32 values of a bfloat16 tensor: ONNX's test data stores its
    bits as UINT16 (dlc writes BFLOAT16)."""
    if proto.data_type == onnx.TensorProto.BFLOAT16:
        bits = np.frombuffer(proto.raw_data, np.uint16) if proto.raw_data \
            else np.array(proto.int32_data, np.uint16)
    else:
        bits = numpy_helper.to_array(proto).astype(np.uint16)
    return (bits.astype(np.uint32) << 16).view(np.float32).reshape(tuple(proto.dims))


def compare(actual, expected, rtol, atol):
    """Return None if actual matches expected, else a one-line description."""
    if isinstance(expected, list) and isinstance(actual, list) \
            and len(actual) == len(expected):
        for i, (a, e) in enumerate(zip(actual, expected)):
            msg = compare(a, e, rtol, atol)
            if msg:
                return f"[{i}] {msg}"
        return None
    if expected is None and actual is None:
        return None
    if not (isinstance(actual, np.ndarray) and isinstance(expected, np.ndarray)):
        return f"got {summarize(actual)}, expected {summarize(expected)}"
    if actual.dtype != expected.dtype:
        return f"dtype {actual.dtype}, expected {expected.dtype}"
    if actual.shape != expected.shape:
        return f"shape {actual.shape}, expected {expected.shape}"
    if np.issubdtype(expected.dtype, np.inexact):
        # equal_nan: NaN matches NaN only, so NaN positions must agree.
        ok = np.isclose(actual, expected, rtol=rtol, atol=atol, equal_nan=True)
    else:
        ok = actual == expected
    if np.all(ok):
        return None
    bad = np.argwhere(~np.asarray(ok))
    idx = tuple(bad[0])
    return (f"{len(bad)}/{expected.size} values differ, first at {list(idx)}: "
            f"got {actual[idx]!r}, expected {expected[idx]!r}")


def summarize(v):
    if isinstance(v, np.ndarray):
        return f"tensor {v.dtype}{list(v.shape)}"
    if isinstance(v, list):
        return f"sequence of {len(v)}"
    return type(v).__name__ if v is not None else "None (empty optional)"


# ----------------------------------------------------------------- running

def run_dlc(cmd, timeout):
    """Run cmd in its own process group; return (returncode, first stderr line).

    On timeout the whole group is killed (dlc may spawn a C compiler) and
    subprocess.TimeoutExpired is raised."""
    p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, start_new_session=True)
    try:
        _, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        raise
    lines = [l.strip() for l in err.decode(errors="replace").splitlines() if l.strip()]
    return p.returncode, (lines[0] if lines else "(no stderr)")


def save_with_symbolic_outputs(model, out_path):
    """Makes every output dimension symbolic (dlc computes them), drops the
    inferred value_info, and saves `model` to out_path."""
    graph = model.graph
    for j, vi in enumerate(graph.output):
        if vi.type.HasField("tensor_type"):
            for k, d in enumerate(vi.type.tensor_type.shape.dim):
                d.dim_param = f"out{j}_{k}"
    del graph.value_info[:]
    onnx.save(model, out_path)


def make_dynamic(model_path, out_path):
    """--dynamic-batch: writes the model with a symbolic batch 'N' to out_path.
    Returns False when no input can take one (the test then runs static)."""
    model = onnx.load(model_path)
    graph = model.graph
    initializers = {t.name for t in graph.initializer}
    batch, changed = None, False
    for vi in graph.input:
        if vi.name in initializers or not vi.type.HasField("tensor_type"):
            continue
        dims = vi.type.tensor_type.shape.dim
        if not dims or not dims[0].HasField("dim_value"):
            continue
        if batch is None:
            batch = dims[0].dim_value
        elif dims[0].dim_value != batch or batch == 1:
            continue
        dims[0].dim_param = "N"
        changed = True
    save_with_symbolic_outputs(model, out_path)
    return changed


def make_symbolic(model_path, out_path):
    """--symbolic: writes the model with every input dimension symbolic to
    out_path; returns the --dim ranges (bounded by the test's sizes)."""
    model = onnx.load(model_path)
    graph = model.graph
    initializers = {t.name for t in graph.initializer}
    ranges = []
    inputs = [vi for vi in graph.input if vi.name not in initializers]
    for i, vi in enumerate(inputs):
        if not vi.type.HasField("tensor_type"):
            continue
        for k, d in enumerate(vi.type.tensor_type.shape.dim):
            if not d.HasField("dim_value") or d.dim_value < 1:
                continue
            size = d.dim_value
            d.dim_param = f"in{i}_{k}"
            ranges.append(f"in{i}_{k}=1..{size}")
    save_with_symbolic_outputs(model, out_path)
    return ranges


def empty_symbolic_dims(model_path, data_dir):
    """--dim NAME=0 for each symbolic input dimension that the data set gives
    size 0: without --dim, dlc run makes a symbolic dimension the dynamic
    batch, a count of samples of at least 1 (test_sequence_model8 splits an
    empty [n] input)."""
    graph = onnx.load(model_path).graph
    initializers = {t.name for t in graph.initializer}
    inputs = [vi for vi in graph.input if vi.name not in initializers]
    dims = []
    for i, vi in enumerate(inputs):
        path = os.path.join(data_dir, f"input_{i}.pb")
        if not vi.type.HasField("tensor_type") or not os.path.exists(path):
            continue
        proto = onnx.TensorProto()
        with open(path, "rb") as f:
            proto.ParseFromString(f.read())
        for d, size in zip(vi.type.tensor_type.shape.dim, proto.dims):
            if d.dim_param and size == 0 and f"{d.dim_param}=0" not in dims:
                dims.append(f"{d.dim_param}=0")
    return dims


def make_constant(model_path, data_dir, out_path, empty_dir):
    """--constant-inputs: writes the model with every graph input an
    initializer holding data_dir's input_K.pb; empty_dir is its (empty) data."""
    model = onnx.load(model_path)
    graph = model.graph
    initializers = {t.name for t in graph.initializer}
    inputs = [vi for vi in graph.input if vi.name not in initializers]
    for k, vi in enumerate(inputs):
        tensor = onnx.TensorProto()
        with open(os.path.join(data_dir, f"input_{k}.pb"), "rb") as f:
            tensor.ParseFromString(f.read())
        tensor.name = vi.name
        if vi.type.tensor_type.elem_type == onnx.TensorProto.BFLOAT16 and \
                tensor.data_type == onnx.TensorProto.UINT16:
            # The test data's bfloat16 bits, stored as UINT16.
            bits = numpy_helper.to_array(tensor).astype(np.uint16)
            tensor.ClearField("int32_data")
            tensor.data_type = onnx.TensorProto.BFLOAT16
            tensor.raw_data = bits.tobytes()
        graph.initializer.append(tensor)
    if model.ir_version >= 4:  # before IR 4, initializers are graph inputs too
        kept = [vi for vi in graph.input if vi.name in initializers]
        del graph.input[:]
        graph.input.extend(kept)
    onnx.save(model, out_path)
    os.makedirs(empty_dir, exist_ok=True)
    return empty_dir


def run_test(dlc, test_dir, timeout, target=None, dynamic=False, threads=None,
             constant=False, symbolic=False, extra=()):
    """Run one test; return (status, reason), status in PASS/FAIL/TIMEOUT."""
    name = os.path.basename(test_dir)
    model_path = os.path.join(test_dir, "model.onnx")
    outputs = onnx.load(model_path).graph.output
    rtol, atol = TOLERANCES.get(name, (DEFAULT_RTOL, DEFAULT_ATOL))
    data_sets = sorted((d for d in os.listdir(test_dir) if d.startswith("test_data_set_")),
                       key=lambda d: int(d.rsplit("_", 1)[1]))
    if not data_sets:
        return "FAIL", "no test_data_set_* directories"
    deadline = time.monotonic() + timeout
    with tempfile.TemporaryDirectory(prefix=f"dlc_{name}_") as tmp:
        if dynamic:
            model_path = os.path.join(tmp, "model.onnx")
            make_dynamic(os.path.join(test_dir, "model.onnx"), model_path)
        ranges = []
        if symbolic:
            model_path = os.path.join(tmp, "model.onnx")
            ranges = make_symbolic(os.path.join(test_dir, "model.onnx"),
                                   model_path)
        for ds in data_sets:
            data_dir = os.path.join(test_dir, ds)
            out_dir = os.path.join(tmp, ds)
            os.mkdir(out_dir)
            run_model, run_data = model_path, data_dir
            if constant:
                run_model = os.path.join(tmp, f"model_{ds}.onnx")
                run_data = make_constant(model_path, data_dir, run_model,
                                         os.path.join(tmp, "no_inputs"))
            cmd = [dlc, "run", run_model, "--data", run_data, "--out", out_dir]
            if ranges:
                cmd += ["--dim", ",".join(ranges)]
            elif not (dynamic or constant):
                empty = empty_symbolic_dims(run_model, run_data)
                if empty:
                    cmd += ["--dim", ",".join(empty)]
            if target:
                cmd += ["--target", target]
            if threads:
                cmd += ["--threads", str(threads)]
            cmd += list(extra)
            try:
                rc, err = run_dlc(cmd, max(deadline - time.monotonic(), 0.1))
            except subprocess.TimeoutExpired:
                return "TIMEOUT", f"timed out after {timeout:g} s"
            if rc < 0:
                return "FAIL", f"dlc killed by {signal.Signals(-rc).name}: {err}"
            if rc != 0:
                return "FAIL", f"dlc exit {rc}: {err.replace(tmp + os.sep, '')}"
            where = f" ({ds})" if len(data_sets) > 1 else ""
            for j, out in enumerate(outputs):
                fname = f"output_{j}.pb"
                got_path = os.path.join(out_dir, fname)
                if not os.path.exists(got_path):
                    return "FAIL", f"dlc wrote no {fname}{where}"
                try:
                    got = load_value(got_path, out.type)
                except Exception as e:  # malformed protobuf from dlc
                    return "FAIL", f"cannot read {fname}{where}: {e}"
                want = load_value(os.path.join(data_dir, fname), out.type)
                tol = rtol
                if out.type.tensor_type.elem_type == onnx.TensorProto.BFLOAT16:
                    # ONNX 1.12's expected values truncate to bfloat16; dlc
                    # rounds to nearest even (as ONNX Runtime and PyTorch
                    # do): one bfloat16 ulp apart.
                    tol = max(rtol, 2.0 ** -7)
                msg = compare(got, want, tol, atol)
                if msg:
                    return "FAIL", f"{fname} ({out.name}){where}: {msg}"
    return "PASS", ""


# ----------------------------------------------------------------- lists

def read_list(path):
    """Read `name  # comment` lines into {name: comment}."""
    entries = {}
    with open(path) as f:
        for line in f:
            name, _, comment = line.partition("#")
            if name.strip():
                entries[name.strip()] = comment.strip()
    return entries


def main():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dlc", required=True, help="path to the dlc executable")
    ap.add_argument("--data", required=True, help="directory made by generate.sh")
    ap.add_argument("--suite", default="node", choices=["node", "simple"],
                    help="which of ONNX's backend test suites (default: node)")
    sel = ap.add_mutually_exclusive_group()
    sel.add_argument("--list", help="file of test names to run (default: --all)")
    sel.add_argument("--all", action="store_true", help="run every node test")
    ap.add_argument("--xfail", help="expected-failure list")
    ap.add_argument("--skip", help="a list of tests not to run (e.g. the CPU "
                    "expected failures, when checking another target)")
    ap.add_argument("--target", help="passed to `dlc run --target` (default: cpu)")
    ap.add_argument("--threads", type=int,
                    help="passed to `dlc run --threads` (default: 1)")
    ap.add_argument("--filter", help="only run tests whose name matches this regex")
    ap.add_argument("--dynamic-batch", action="store_true",
                    help="run each test with a symbolic batch dimension (see above)")
    ap.add_argument("--symbolic", action="store_true",
                    help="make every input dimension symbolic (see above)")
    ap.add_argument("--constant-inputs", action="store_true",
                    help="make every graph input a constant (see above)")
    ap.add_argument("--dlc-args", default="",
                    help="more options for dlc run, space-separated (e.g. '--batch-chunk 3')")
    ap.add_argument("-j", "--jobs", type=int, default=2, help="parallel tests (default 2)")
    ap.add_argument("--timeout", type=float, default=120, help="seconds per test (default 120)")
    ap.add_argument("--report", help="write per-test status/reason as JSON here")
    ap.add_argument("--write-xfail", metavar="FILE",
                    help="write the current failures as an xfail list")
    args = ap.parse_args()

    dlc = os.path.abspath(args.dlc) if os.sep in args.dlc else args.dlc
    if not shutil.which(dlc):
        sys.exit(f"error: {args.dlc} is not an executable")
    node_dir = os.path.join(args.data, args.suite)
    available = sorted(d for d in os.listdir(node_dir)
                       if os.path.isfile(os.path.join(node_dir, d, "model.onnx")))
    if args.list:
        tests = sorted(read_list(args.list))
        unknown = [t for t in tests if t not in available]
        if unknown:
            sys.exit(f"error: {args.list}: unknown tests: {' '.join(unknown)}")
    else:
        tests = available
    if args.filter:
        tests = [t for t in tests if re.search(args.filter, t)]
    if args.skip:
        skip = read_list(args.skip)
        tests = [t for t in tests if t not in skip]
    xfail = read_list(args.xfail) if args.xfail else {}
    for t in sorted(set(xfail) - set(available)):
        print(f"warning: {args.xfail}: no such test {t}", file=sys.stderr)

    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(args.jobs, 1)) as pool:
        futures = {pool.submit(run_test, dlc, os.path.join(node_dir, t), args.timeout,
                               args.target, args.dynamic_batch, args.threads,
                               args.constant_inputs, args.symbolic,
                               args.dlc_args.split()): t
                   for t in tests}
        for fut in concurrent.futures.as_completed(futures):
            name = futures[fut]
            try:
                status, reason = fut.result()
            except Exception as e:  # harness bug or unreadable test data
                status, reason = "FAIL", f"harness error: {type(e).__name__}: {e}"
            if name in xfail:
                if status == "PASS":
                    status, reason = "XPASS", "passes but is in the xfail list: remove it"
                else:
                    status = "XFAIL"
            results[name] = (status, reason)
            if status != "PASS":
                print(f"{status:7s} {name}: {reason}", flush=True)

    count = {s: 0 for s in ("PASS", "FAIL", "XFAIL", "XPASS", "TIMEOUT")}
    for status, _ in results.values():
        count[status] += 1
    failed = count["FAIL"] + count["XPASS"] + count["TIMEOUT"]

    if args.report:
        with open(args.report, "w") as f:
            json.dump({"counts": count,
                       "tests": {t: {"status": s, "reason": r}
                                 for t, (s, r) in sorted(results.items())}},
                      f, indent=1)
            f.write("\n")
    if args.write_xfail:
        # Failures of this run, plus listed tests that were not run this time.
        entries = {t: r for t, r in xfail.items() if t not in results and t in available}
        for t, (s, r) in results.items():
            if s in ("FAIL", "XFAIL", "TIMEOUT"):
                entries[t] = xfail.get(t) or r
        with open(args.write_xfail, "w") as f:
            f.write("# ONNX node tests expected to fail: test_name  # reason\n")
            for t in sorted(entries):
                f.write(f"{t}  # {entries[t]}\n")
        print(f"wrote {len(entries)} entries to {args.write_xfail}", file=sys.stderr)

    print(f"{count['XFAIL']} xfailed, {count['XPASS']} xpassed, {count['TIMEOUT']} timed out")
    print(f"{count['PASS']} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
