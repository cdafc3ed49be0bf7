#!/usr/bin/python3
"""Attribute mutations of the ONNX node tests: dlc honours each value or refuses it.

  mutate_attributes.py --dlc DLC --data ONNX_DATA [--ops Conv,MaxPool,...] [-j 2]
                       [--per-value-tries 3] [--work DIR] [--report FILE]
                       [--expected-differences FILE]

For every single-node test ONNX_DATA/node/TEST whose op is selected, and every
attribute of the op's schema (at the test's opset), each value of that attribute
that some other node test of the op uses (or the schema default, the other value
of a 0/1 flag, the values of a string enumeration listed in ENUMS) replaces the
test's own value, one attribute at a time. The mutated model runs on the test's
inputs (test_data_set_0) through ONNX Runtime, the reference; mutations that ONNX
Runtime refuses are invalid and skipped (the next test of the op is tried, up to
--per-value-tries). Then `dlc run` runs it, and the outcome is one of

  match     dlc's outputs equal ONNX Runtime's (rtol 1e-3, atol 1e-4)
  refused   dlc exits 2 with a message that names the attribute
  error     dlc exits 2 for another reason (named in the report)
  WRONG     dlc runs and its outputs differ from ONNX Runtime's: a silent
            miscompile of that attribute value
  CRASH     dlc dies by a signal, exits with another status, or times out

  disagree  WRONG, but listed in --expected-differences: ONNX Runtime departs
            from ONNX's own reference there and dlc follows the reference, or
            the spec allows both answers (each line of the file:
            "OP ATTRIBUTE=VALUE  # why", VALUE as printed here; a listed
            mutation that does not come out WRONG is stale and counts as
            wrong)

The last line is "M mutations: A match, B refused, C error, D disagree,
W wrong, K crash"; the exit status is 0 iff W == K == 0. --report writes one
JSON object per mutation.

ONNX Runtime runs through ../ort/ort_run.js --jobs with onnxruntime-node from
$DLC_ORT_DIR (default ~/.cache/dlc/ort, installed by ../ort/ensure-ort.sh).
"""
import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import defs, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
ORT_DIR = os.path.join(os.path.dirname(HERE), "ort")
sys.path.insert(0, ORT_DIR)
from compare_with_ort import read_ort_outputs, write_ort_inputs  # noqa: E402

# Values of string attributes that ONNX defines but no node test of the op
# may use.
ENUMS = {
    "auto_pad": ["NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID"],
    "coordinate_transformation_mode": [
        "half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric",
        "tf_crop_and_resize"],
    "nearest_mode": ["round_prefer_floor", "round_prefer_ceil", "floor", "ceil"],
    "reduction": ["none", "add", "mul", "max", "min"],
    "direction": ["forward", "reverse", "bidirectional"],
}


def single_node_tests(data, ops):
    tests = []
    root = os.path.join(data, "node")
    for name in sorted(os.listdir(root)):
        path = os.path.join(root, name, "model.onnx")
        if not os.path.exists(path) or not os.path.isdir(
                os.path.join(root, name, "test_data_set_0")):
            continue
        model = onnx.load(path)
        if len(model.graph.node) != 1:
            continue
        node = model.graph.node[0]
        if node.domain not in ("", "ai.onnx") or (ops and node.op_type not in ops):
            continue
        if any(a.type in (onnx.AttributeProto.GRAPH, onnx.AttributeProto.GRAPHS)
               for a in node.attribute):
            continue
        tests.append((name, os.path.join(root, name), model))
    return tests


def opset_of(model):
    for o in model.opset_import:
        if o.domain in ("", "ai.onnx"):
            return o.version
    return 1


def value_key(attr):
    a = onnx.AttributeProto()
    a.CopyFrom(attr)
    a.name = ""
    a.doc_string = ""
    return a.SerializeToString()


def candidate_values(tests):
    """(op, attribute name) -> {serialized value: AttributeProto}."""
    pool = {}

    def add(op, attr):
        if attr.type in (onnx.AttributeProto.GRAPH, onnx.AttributeProto.GRAPHS,
                         onnx.AttributeProto.SPARSE_TENSOR,
                         onnx.AttributeProto.UNDEFINED):
            return
        pool.setdefault((op, attr.name), {})[value_key(attr)] = attr

    for _, _, model in tests:
        node = model.graph.node[0]
        for attr in node.attribute:
            add(node.op_type, attr)
        schema = defs.get_schema(node.op_type, opset_of(model))
        for name, info in schema.attributes.items():
            dflt = info.default_value
            if dflt.type != onnx.AttributeProto.UNDEFINED:
                a = onnx.AttributeProto()
                a.CopyFrom(dflt)
                a.name = name
                add(node.op_type, a)
                if dflt.type == onnx.AttributeProto.INT and dflt.i in (0, 1):
                    add(node.op_type, onnx.helper.make_attribute(name, 1 - dflt.i))
            if name in ENUMS and info.type == onnx.AttributeProto.STRING:
                for v in ENUMS[name]:
                    add(node.op_type, onnx.helper.make_attribute(name, v))
    return pool


def mutations(tests, pool, tries):
    """(op, attribute, value key) -> list of (test name, test dir, mutated model)."""
    out = {}
    for name, path, model in tests:
        node = model.graph.node[0]
        schema = defs.get_schema(node.op_type, opset_of(model))
        own = {a.name: value_key(a) for a in node.attribute}
        for attr_name in schema.attributes:
            for key, value in pool.get((node.op_type, attr_name), {}).items():
                if own.get(attr_name) == key:
                    continue
                slot = out.setdefault((node.op_type, attr_name, key), [])
                if len(slot) >= tries:
                    continue
                m = onnx.ModelProto()
                m.CopyFrom(model)
                n = m.graph.node[0]
                kept = [a for a in n.attribute if a.name != attr_name]
                del n.attribute[:]
                n.attribute.extend(kept)
                a = n.attribute.add()
                a.CopyFrom(value)
                a.name = attr_name
                # Output shapes may change with the attribute: leave them to
                # both sides' inference.
                # ONNX 1.12's shape inference crashes on some mutations:
                # the outputs' shapes are left to ONNX Runtime.
                for o in m.graph.output:
                    o.type.tensor_type.ClearField("shape")
                slot.append((name, path, m))
    return out


def load_inputs(model, data_dir):
    inputs = []
    names = [i.name for i in model.graph.input
             if i.name not in {t.name for t in model.graph.initializer}]
    for k, name in enumerate(names):
        t = onnx.load_tensor(os.path.join(data_dir, f"input_{k}.pb"))
        inputs.append((name, numpy_helper.to_array(t)))
    return inputs


def format_value(attr):
    if attr.type == onnx.AttributeProto.TENSOR:
        return "tensor"
    v = onnx.helper.get_attribute_value(attr)
    return repr(v.decode() if isinstance(v, bytes) else
                [x.decode() if isinstance(x, bytes) else x for x in v]
                if isinstance(v, list) else v)


def run_dlc(dlc, model_path, data_dir, out_dir, timeout):
    try:
        r = subprocess.run([dlc, "run", model_path, "--data", data_dir, "--out", out_dir],
                           capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "timeout"
    return r.returncode, r.stderr.strip()


def compare(out_dir, ref, rtol, atol):
    for k, (_, want) in enumerate(ref):
        path = os.path.join(out_dir, f"output_{k}.pb")
        if not os.path.exists(path):
            return f"output {k} missing"
        got = numpy_helper.to_array(onnx.load_tensor(path))
        if got.shape != want.shape or got.dtype != want.dtype:
            return f"output {k}: dlc {got.dtype}{list(got.shape)} vs ort {want.dtype}{list(want.shape)}"
        if want.dtype.kind == "f":
            # atol scales with the output's magnitude: ONNX Runtime's
            # rounding leaves ~1e-4 where exact results are 0 next to
            # values in the hundreds (DFT).
            finite = np.abs(want[np.isfinite(want)]).astype(np.float64)
            scale = max(1.0, finite.max()) if finite.size else 1.0
            bad = ~np.isclose(got.astype(np.float64), want.astype(np.float64),
                              rtol=rtol, atol=atol * scale, equal_nan=True)
        else:
            bad = got != want
        if bad.any():
            return f"output {k}: {int(bad.sum())} of {bad.size} elements differ"
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dlc", required=True)
    ap.add_argument("--data", required=True)
    ap.add_argument("--ops", default="")
    ap.add_argument("--per-value-tries", type=int, default=3)
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=120)
    ap.add_argument("--rtol", type=float, default=1e-3)
    ap.add_argument("--atol", type=float, default=1e-4)
    ap.add_argument("--ort-dir", default=os.environ.get(
        "DLC_ORT_DIR", os.path.expanduser("~/.cache/dlc/ort")))
    ap.add_argument("--work")
    ap.add_argument("--report")
    ap.add_argument("--expected-differences")
    args = ap.parse_args()
    listed = set()
    if args.expected_differences:
        with open(args.expected_differences) as f:
            for line in f:
                line = line.split("#", 1)[0].strip()
                if line:
                    listed.add(line)

    ops = set(filter(None, args.ops.split(",")))
    tests = single_node_tests(args.data, ops)
    pool = candidate_values(single_node_tests(args.data, ops))
    muts = mutations(tests, pool, args.per_value_tries)
    work = args.work or tempfile.mkdtemp(prefix="dlc-mutate-")
    os.makedirs(work, exist_ok=True)

    # Every candidate of every mutation goes to ONNX Runtime in one process.
    jobs, cases = [], []
    for i, ((op, attr, key), cands) in enumerate(sorted(muts.items())):
        for j, (test, path, m) in enumerate(cands):
            d = os.path.join(work, f"{i}_{j}")
            shutil.rmtree(d, ignore_errors=True)
            os.makedirs(d)
            onnx.save(m, os.path.join(d, "model.onnx"))
            data = os.path.join(path, "test_data_set_0")
            try:
                write_ort_inputs(os.path.join(d, "ort_in"), load_inputs(m, data))
            except Exception as e:  # noqa: BLE001 (inputs numpy cannot hold)
                continue
            jobs.append({"model": os.path.join(d, "model.onnx"),
                         "in": os.path.join(d, "ort_in"), "out": os.path.join(d, "ort_out")})
            cases.append((i, op, attr, m.graph.node[0], test, d, data))
    env = dict(os.environ, NODE_PATH=os.path.join(args.ort_dir, "node_modules"))
    # A model that crashes ONNX Runtime ends its process: it counts as
    # refused, and the jobs after it run in a new process.
    start = 0
    while start < len(jobs):
        with open(os.path.join(work, "jobs.jsonl"), "w") as f:
            f.write("".join(json.dumps(j) + "\n" for j in jobs[start:]))
        r = subprocess.run(["node", os.path.join(ORT_DIR, "ort_run.js"), "--jobs",
                            os.path.join(work, "jobs.jsonl")], env=env)
        if r.returncode == 0:
            break
        while start < len(jobs) and os.path.isdir(jobs[start]["out"]):
            start += 1
        if start < len(jobs):
            os.makedirs(jobs[start]["out"])
            with open(os.path.join(jobs[start]["out"], "error.txt"), "w") as f:
                f.write(f"ONNX Runtime exited with {r.returncode}\n")
            start += 1

    # The first candidate of each mutation that ONNX Runtime runs.
    chosen = {}
    for case in cases:
        i, d = case[0], case[5]
        if i not in chosen and not os.path.exists(os.path.join(d, "ort_out", "error.txt")):
            chosen[i] = case

    def check(case):
        i, op, attr, node, test, d, data = case
        value = next(a for a in node.attribute if a.name == attr)
        rec = {"op": op, "attribute": attr, "value": format_value(value), "test": test}
        # dlc gets the outputs' shapes that ONNX Runtime computed.
        ref = read_ort_outputs(os.path.join(d, "ort_out"))
        m = onnx.load(os.path.join(d, "model.onnx"))
        for o, (_, r) in zip(m.graph.output, ref):
            shape = o.type.tensor_type.shape
            shape.SetInParent()  # rank 0 too
            for size in r.shape:
                shape.dim.add().dim_value = size
        onnx.save(m, os.path.join(d, "dlc.onnx"))
        rc, err = run_dlc(args.dlc, os.path.join(d, "dlc.onnx"), data,
                          os.path.join(d, "dlc_out"), args.timeout)
        if rc == 0:
            problem = compare(os.path.join(d, "dlc_out"), ref, args.rtol, args.atol)
            rec["outcome"] = "WRONG" if problem else "match"
            if problem:
                rec["detail"] = problem
        elif rc == 2:
            rec["outcome"] = "refused" if f"'{attr}'" in err or attr in err else "error"
            rec["detail"] = err.splitlines()[-1] if err else ""
        else:
            rec["outcome"] = "CRASH"
            rec["detail"] = f"exit {rc}: {err[-300:]}"
        return rec

    with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        records = list(ex.map(check, [chosen[i] for i in sorted(chosen)]))
    counts = {k: 0 for k in ("match", "refused", "error", "disagree", "WRONG", "CRASH")}
    seen = set()
    for r in records:
        key = f"{r['op']} {r['attribute']}={r['value']}"
        if key in listed:
            seen.add(key)
            if r["outcome"] == "WRONG":
                r["outcome"] = "disagree"
            else:
                r["detail"] = f"listed in --expected-differences but {r['outcome']}"
                r["outcome"] = "WRONG"
    for key in sorted(listed - seen):
        print(f"note: {key} (--expected-differences) was not tried")
    for r in records:
        counts[r["outcome"]] += 1
        if r["outcome"] in ("WRONG", "CRASH", "error"):
            print(f"{r['outcome']}: {r['op']} {r['attribute']}={r['value']} "
                  f"({r['test']}): {r.get('detail', '')}")
    if args.report:
        with open(args.report, "w") as f:
            f.write("".join(json.dumps(r) + "\n" for r in records))
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{len(records)} mutations: {counts['match']} match, {counts['refused']} refused, "
          f"{counts['error']} error, {counts['disagree']} disagree, {counts['WRONG']} wrong, "
          f"{counts['CRASH']} crash")
    return 0 if counts["WRONG"] == counts["CRASH"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
