#!/usr/bin/python3
"""Compare `dlc run` against ONNX Runtime (CPU) on random inputs.

  compare_with_ort.py --dlc PATH_TO_DLC --model M.onnx|M.onnxtxt [--rtol 1e-3] [--atol 1e-4]
                      [--seed 0] [--ort-dir DIR] [--work DIR]

Inputs are the graph inputs that are not initializers; each needs a static shape. Random
values: floats uniform in [0, 1) for rank-4 (image-like) inputs, else in [-1, 1); integers
uniform in [0, --int-high); bools fair coin flips.

dlc gets DATA/input_K.pb (onnx TensorProto) through `DLC run M.onnx --data DATA --out OUT`
and writes OUT/output_K.pb in graph-output order. ONNX Runtime runs through ort_run.js
(next to this script) with onnxruntime-node from DIR/node_modules, installed there by
ensure-ort.sh if missing (DIR: --ort-dir, else $DLC_ORT_DIR, else ~/.cache/dlc/ort).

With --batches B1,B2,... (models with a dynamic batch: one symbolic input dimension) the
model is compiled once into a shared library (`dlc compile --shared`), and that one library
runs at each batch size through scripts/gpu/runner.c (built here with --cc), each against
ONNX Runtime on inputs of that batch size.

With --dims NAME=MIN..MAX,... --sizes NAME=V,NAME=V;NAME=V,... (models with symbolic
dimensions) `dlc run --dim RANGES` compiles the model once and runs one data set per size
assignment on it (several --data/--out pairs), each against ONNX Runtime on the same inputs.
With --runs N, one `dlc run` runs one instance on N data sets (seeds SEED..SEED+N-1), each
against ONNX Runtime: what a call keeps for the next (the model's state) must not leak.

Float outputs match when |dlc - ort| <= atol + rtol * |ort| everywhere (NaNs must be at the
same places, infinities equal); other dtypes must be equal.
Exit status: 0 all outputs match; 1 a mismatch or an error; 2 dlc cannot compile the model.
"""
import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import onnx
import onnx.parser
from onnx import numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
DLC_SRC = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))


def np_dtype(elem_type):
    if hasattr(onnx.helper, "tensor_dtype_to_np_dtype"):  # onnx >= 1.13
        return np.dtype(onnx.helper.tensor_dtype_to_np_dtype(elem_type))
    return np.dtype(onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[elem_type])


def ort_dtype_name(dtype):
    return "bool" if dtype == np.bool_ else dtype.name  # numpy names, as ort_run.js uses


def random_inputs(model, rng, int_high, batch=None, sizes=None):
    """Random inputs; symbolic dimensions get their value in `sizes` (by
    name), else `batch` (None: they are an error)."""
    initializers = {t.name for t in model.graph.initializer}
    inputs = []
    for vi in model.graph.input:
        if vi.name in initializers:
            continue
        tt = vi.type.tensor_type
        dims = [d.dim_value if d.HasField("dim_value")
                else (sizes or {}).get(d.dim_param, batch) for d in tt.shape.dim]
        if not tt.HasField("shape") or None in dims:
            raise SystemExit(f"input {vi.name!r} has no static shape")
        dtype = np_dtype(tt.elem_type)
        if dtype.kind == "f":
            lo = 0.0 if len(dims) == 4 else -1.0
            value = rng.uniform(lo, 1.0, size=dims).astype(dtype)
        elif dtype.kind in "iu":
            value = rng.integers(0, int_high, size=dims).astype(dtype)
        elif dtype == np.bool_:
            value = rng.integers(0, 2, size=dims).astype(np.bool_)
        else:
            raise SystemExit(f"input {vi.name!r}: unsupported dtype {dtype}")
        inputs.append((vi.name, value))
    return inputs


def write_dlc_inputs(data_dir, inputs):
    os.makedirs(data_dir)
    for k, (name, value) in enumerate(inputs):
        tensor = numpy_helper.from_array(value, name=name)
        with open(os.path.join(data_dir, f"input_{k}.pb"), "wb") as f:
            f.write(tensor.SerializeToString())


def write_ort_inputs(in_dir, inputs):
    os.makedirs(in_dir)
    tensors = []
    for k, (name, value) in enumerate(inputs):
        file = f"input_{k}.bin"
        value.astype(value.dtype.newbyteorder("<")).tofile(os.path.join(in_dir, file))
        tensors.append({"name": name, "dtype": ort_dtype_name(value.dtype),
                        "shape": list(value.shape), "file": file})
    with open(os.path.join(in_dir, "meta.json"), "w") as f:
        json.dump({"tensors": tensors}, f, indent=1)


def read_ort_outputs(out_dir):
    with open(os.path.join(out_dir, "meta.json")) as f:
        meta = json.load(f)
    outputs = []
    for t in meta["tensors"]:
        dtype = np.dtype(t["dtype"]).newbyteorder("<")
        value = np.fromfile(os.path.join(out_dir, t["file"]), dtype=dtype)
        outputs.append((t["name"], value.reshape(t["shape"]).astype(dtype.newbyteorder("="))))
    return outputs


def read_dlc_outputs(out_dir, count):
    outputs = []
    for k in range(count):
        tensor = onnx.load_tensor(os.path.join(out_dir, f"output_{k}.pb"))
        outputs.append((tensor.name, numpy_helper.to_array(tensor)))
    return outputs


def compare(name, got, ref, rtol, atol):
    """Prints one line for output `name`; returns whether it matches."""
    if got.shape != ref.shape or got.dtype != ref.dtype:
        print(f"  {name}: MISMATCH dlc {got.dtype}{list(got.shape)} vs "
              f"ort {ref.dtype}{list(ref.shape)}")
        return False
    if got.size == 0:
        print(f"  {name}: ok (empty)")
        return True
    g, r = got.astype(np.float64), ref.astype(np.float64)
    if ref.dtype.kind == "f":
        bad = ~np.isclose(g, r, rtol=rtol, atol=atol, equal_nan=True)
    else:
        bad = got != ref
    same = (g == r) | (np.isnan(g) & np.isnan(r))
    with np.errstate(divide="ignore", invalid="ignore"):
        diff = np.where(same, 0.0, np.abs(g - r))
        diff[np.isnan(diff)] = np.inf  # NaN against a number
        rel = np.where(same, 0.0, diff / np.abs(r))
    ok = not bad.any()
    line = (f"  {name}: {'ok' if ok else 'MISMATCH'} {ref.dtype}{list(ref.shape)} "
            f"max_abs_diff={diff.max():.3g} max_rel_diff={rel.max():.3g}")
    if bad.any():
        first = np.unravel_index(np.argmax(bad), bad.shape)
        line += (f" bad={int(bad.sum())}/{bad.size} first at {list(map(int, first))}: "
                 f"dlc={got[first]} ort={ref[first]}")
    print(line)
    return ok


def run_library(args, model, work, env):
    """--batches: one compiled library, run at each batch size; returns the exit status."""
    lib_dir = os.path.join(work, "lib")
    rc, log = run([args.dlc, "compile", args.model, "--shared", "--name", "model", "-o", lib_dir]
                  + args.dlc_args.split(), timeout=args.timeout)
    if rc != 0:
        print(f"dlc cannot compile the model (exit {rc}):\n{log}")
        return 2 if rc == 2 else 1
    print(log.strip())
    runner = os.path.join(work, "runner")
    rc, log = run(shlex.split(args.cc) + ["-O1", "-o", runner, os.path.join(DLC_SRC, "scripts", "gpu", "runner.c"),
                   "-I", lib_dir, "-ldl"], timeout=args.timeout)
    if rc != 0:
        print(f"cannot build the runner:\n{log}")
        return 1
    output_names = [o.name for o in model.graph.output]
    ok = True
    for batch in args.batches:
        inputs = random_inputs(model, np.random.default_rng(args.seed + batch), args.int_high, batch)
        b = os.path.join(work, f"batch{batch}")
        ort_in, ort_out, dlc_out = (os.path.join(b, d) for d in ("ort_in", "ort_out", "dlc_out"))
        write_ort_inputs(ort_in, inputs)
        os.makedirs(dlc_out)
        rc, log = run(["node", os.path.join(HERE, "ort_run.js"), args.model, ort_in, ort_out],
                      env=env, timeout=args.timeout)
        if rc != 0:
            print(f"onnxruntime failed (exit {rc}):\n{log}")
            return 1
        manifest = os.path.join(b, "manifest")
        with open(manifest, "w") as f:
            f.write(f"model model {os.path.join(lib_dir, 'libmodel.so')}\nbatch {batch}\n")
            for k in range(len(inputs)):
                f.write(f"input {os.path.join(ort_in, f'input_{k}.bin')}\n")
            for k in range(len(output_names)):
                f.write(f"output {os.path.join(dlc_out, f'output_{k}.bin')}\n")
            f.write("run 0 1\n")
        rc, log = run([runner, manifest], timeout=args.timeout)
        if rc != 0 or not log.startswith("model ok"):
            print(f"batch {batch}: the library failed (exit {rc}): {log.strip()}")
            return 1
        ref = read_ort_outputs(ort_out)
        print(f"batch {batch}: {args.model}: {len(inputs)} input(s), one library, "
              f"rtol {args.rtol:g}, atol {args.atol:g}")
        for k, (name, r) in enumerate(ref):
            g = np.fromfile(os.path.join(dlc_out, f"output_{k}.bin"),
                            dtype=r.dtype.newbyteorder("<"))
            if g.size != r.size:
                print(f"  {name}: MISMATCH dlc {g.size} values vs ort {list(r.shape)}")
                ok = False
                continue
            ok &= compare(name, g.reshape(r.shape).astype(r.dtype), r, args.rtol, args.atol)
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


def compare_detections(names, got, ref, rtol, atol):
    """--detections BOXES,SCORES,LABELS: a detector's outputs, compared as
    sets of detections. Each ONNX Runtime detection must match a dlc
    detection of its label whose score and box are close (rtol/atol); the
    order may differ only among scores that are close, and a detection may
    be missing only at the score cutoff (ties across the last kept score).
    Returns whether they match; prints one line."""
    nb, ns, nl = names
    rb, rs, rl = ref[nb], ref[ns], ref[nl]
    gb, gs, gl = got[nb], got[ns], got[nl]
    if rb.ndim != 2 or gb.ndim != 2 or len(rs) != len(rb) or len(gs) != len(gb):
        print(f"  detections: MISMATCH shapes dlc {list(gb.shape)} vs ort {list(rb.shape)}")
        return False
    close = lambda a, b: np.isclose(a, b, rtol=rtol, atol=atol)
    used = np.zeros(len(gs), bool)
    reordered = unmatched = 0
    cutoff = min(rs.min() if len(rs) else np.inf, gs.min() if len(gs) else np.inf)
    worst = 0.0
    for i in range(len(rs)):
        cand = [j for j in np.nonzero(~used & (gl == rl[i]) & close(gs, rs[i]))[0]
                if np.all(close(gb[j], rb[i]))]
        if not cand:
            if close(rs[i], cutoff):
                unmatched += 1
                continue
            print(f"  detections: MISMATCH ort detection {i} (label {rl[i]}, score "
                  f"{rs[i]:.6g}, box {np.round(rb[i], 3).tolist()}) has no close dlc "
                  f"detection")
            return False
        j = min(cand, key=lambda j: abs(j - i))
        used[j] = True
        reordered += j != i
        worst = max(worst, float(np.abs(gb[j].astype(np.float64) - rb[i]).max()))
    extra = [j for j in np.nonzero(~used)[0] if not close(gs[j], cutoff)]
    if extra:
        j = extra[0]
        print(f"  detections: MISMATCH dlc detection {j} (label {gl[j]}, score "
              f"{gs[j]:.6g}) is not in ort's")
        return False
    print(f"  detections: ok {len(rs) - unmatched} of {len(rs)} matched "
          f"({reordered} in another order among close scores, {unmatched} "
          f"at the score cutoff) max_box_diff={worst:.3g}")
    return True


def compare_all(args, output_names, got, ref):
    """Compares every output (a detector's as a set, --detections)."""
    ok = True
    det = args.detections.split(",") if args.detections else []
    for name, (_, g), (_, r) in zip(output_names, got, ref):
        if name not in det:
            ok &= compare(name, g, r, args.rtol, args.atol)
    if det:
        gm = {n: g for n, (_, g) in zip(output_names, got)}
        rm = {n: r for n, (_, r) in zip(output_names, ref)}
        ok &= compare_detections(det, gm, rm, args.rtol, args.atol)
    return ok


def run_sizes(args, model, work, env):
    """--dims/--sizes: one `dlc run` over a data set per size assignment;
    --runs N: over N data sets (seeds seed..seed+N-1) at the model's shapes."""
    output_names = [o.name for o in model.graph.output]
    cmd = [args.dlc, "run", args.model, "--threads", str(args.threads),
           "--target", args.target] + args.dlc_args.split()
    if args.dims:
        cmd += ["--dim", args.dims]
    assignments = (args.sizes.split(";") if args.sizes else
                   [None] * args.runs)
    sets = []
    for k, assignment in enumerate(assignments):
        sizes = {}
        for item in assignment.split(",") if assignment else []:
            name, value = item.split("=")
            sizes[name] = int(value)
        inputs = random_inputs(model, np.random.default_rng(args.seed + k),
                               args.int_high, sizes=sizes)
        if not assignment:
            assignment = f"run {k + 1} of {args.runs}"
        d = os.path.join(work, f"set{k}")
        write_dlc_inputs(os.path.join(d, "data"), inputs)
        write_ort_inputs(os.path.join(d, "ort_in"), inputs)
        rc, log = run(["node", os.path.join(HERE, "ort_run.js"), args.model,
                       os.path.join(d, "ort_in"), os.path.join(d, "ort_out")],
                      env=env, timeout=args.timeout)
        if rc != 0:
            print(f"onnxruntime failed (exit {rc}):\n{log}")
            return 1
        cmd += ["--data", os.path.join(d, "data"), "--out", os.path.join(d, "dlc_out")]
        sets.append((assignment, d, len(inputs)))
    rc, log = run(cmd, timeout=args.timeout)
    if rc != 0:
        what = "cannot compile the model" if rc == 2 else "failed"
        print(f"dlc {what} (exit {rc}):\n{log}")
        return 2 if rc == 2 else 1
    ok = True
    for assignment, d, count in sets:
        ref = read_ort_outputs(os.path.join(d, "ort_out"))
        got = read_dlc_outputs(os.path.join(d, "dlc_out"), len(output_names))
        how = f"--dim {args.dims}" if args.dims else "one instance"
        print(f"{assignment}: {args.model}: {count} input(s), one compile "
              f"({how}), rtol {args.rtol:g}, atol {args.atol:g}")
        ok &= compare_all(args, output_names, got, ref)
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


def run(cmd, env=None, timeout=600):
    proc = subprocess.run(cmd, env=env, timeout=timeout,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return proc.returncode, proc.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dlc", required=True, help="path to the dlc executable")
    ap.add_argument("--model", required=True, help="the .onnx model")
    ap.add_argument("--rtol", type=float, default=1e-3)
    ap.add_argument("--atol", type=float, default=1e-4)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=1,
                    help="threads for dlc's parallel loops (dlc run --threads)")
    ap.add_argument("--int-high", type=int, default=4,
                    help="integer inputs are drawn from [0, INT_HIGH)")
    ap.add_argument("--ort-dir", default=os.environ.get(
        "DLC_ORT_DIR", os.path.expanduser("~/.cache/dlc/ort")),
        help="directory holding node_modules/onnxruntime-node")
    ap.add_argument("--work", help="keep inputs and outputs here (a new or empty directory)")
    ap.add_argument("--timeout", type=float, default=600, help="seconds per tool run")
    ap.add_argument("--dlc-args", default="",
                    help="more options for dlc compile and dlc run, space-separated "
                         "(e.g. '--batch-chunk 2')")
    ap.add_argument("--target", default="cpu", help="dlc run --target (cpu, cuda-emulator)")
    ap.add_argument("--batches", type=lambda v: [int(x) for x in v.split(",")],
                    help="dynamic batch: one library, run at these batch sizes")
    ap.add_argument("--cc", default=os.environ.get("DLC_TEST_CC", "cc"),
                    help="C compiler (with its options) for the runner (--batches); "
                         "default $DLC_TEST_CC or cc")
    ap.add_argument("--dims", help="symbolic dimension ranges for dlc (NAME=MIN..MAX,...)")
    ap.add_argument("--detections", metavar="BOXES,SCORES,LABELS",
                    help="a detector's outputs, compared as sets of detections "
                         "(order free among close scores)")
    ap.add_argument("--sizes", help="with --dims: size assignments to run, "
                    "';'-separated (NAME=V,NAME=V;...)")
    ap.add_argument("--runs", type=int, default=1,
                    help="run one instance on this many data sets (seeds "
                         "seed, seed+1, ...) in one `dlc run`, each against "
                         "ONNX Runtime")
    args = ap.parse_args()

    if args.model.endswith(".onnxtxt"):  # ONNX's text format (onnx.parser)
        with open(args.model) as f:
            model = onnx.parser.parse_model(f.read())
    else:
        model = onnx.load(args.model)
    several = args.sizes or args.runs > 1
    inputs = [] if args.batches or several else random_inputs(
        model, np.random.default_rng(args.seed), args.int_high)
    output_names = [o.name for o in model.graph.output]

    if args.work:
        work = args.work
        os.makedirs(work, exist_ok=True)
    else:
        work = tempfile.mkdtemp(prefix="dlc-vs-ort-")
    try:
        if args.model.endswith(".onnxtxt"):  # ONNX Runtime reads binary models
            args.model = os.path.join(work, "model.onnx")
            onnx.save(model, args.model)
        rc, log = run([os.path.join(HERE, "ensure-ort.sh"), args.ort_dir], timeout=args.timeout)
        if rc != 0:
            print(f"cannot set up onnxruntime-node in {args.ort_dir}:\n{log}")
            return 1
        env = dict(os.environ, NODE_PATH=os.path.join(args.ort_dir, "node_modules"))
        if args.batches:
            return run_library(args, model, work, env)
        if several:
            return run_sizes(args, model, work, env)
        data, dlc_out = os.path.join(work, "data"), os.path.join(work, "dlc_out")
        ort_in, ort_out = os.path.join(work, "ort_in"), os.path.join(work, "ort_out")
        write_dlc_inputs(data, inputs)
        write_ort_inputs(ort_in, inputs)
        rc, log = run(["node", os.path.join(HERE, "ort_run.js"), args.model, ort_in, ort_out],
                      env=env, timeout=args.timeout)
        if rc != 0:
            print(f"onnxruntime failed (exit {rc}):\n{log}")
            return 1

        rc, log = run([args.dlc, "run", args.model, "--data", data, "--out", dlc_out,
                       "--threads", str(args.threads), "--target", args.target]
                      + args.dlc_args.split(), timeout=args.timeout)
        if rc != 0:
            what = "cannot compile the model" if rc == 2 else "failed"
            print(f"dlc {what} (exit {rc}):\n{log}")
            return 2 if rc == 2 else 1

        ref = read_ort_outputs(ort_out)
        got = read_dlc_outputs(dlc_out, len(output_names))
        if len(ref) != len(output_names):
            print(f"onnxruntime gave {len(ref)} outputs, the model has {len(output_names)}")
            return 1
        print(f"{args.model}: {len(inputs)} input(s), seed {args.seed}, "
              f"rtol {args.rtol:g}, atol {args.atol:g}")
        ok = compare_all(args, output_names, got, ref)
        print("PASS" if ok else "FAIL")
        return 0 if ok else 1
    except (OSError, ValueError, subprocess.TimeoutExpired) as e:
        print(f"error: {e}")
        return 1
    finally:
        if not args.work:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
