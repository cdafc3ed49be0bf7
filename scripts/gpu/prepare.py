#!/usr/bin/python3
"""Build the bundle that scripts/gpu-check.sh runs on a machine with a GPU.

    prepare.py --dlc build/bin/dlc --out build/gpu-check [--node-data DIR]
               [--xfail test/e2e/node/xfail_all.txt] [--models-dir DIR] [--quick]

The GPU machine has CUDA, PyTorch and numpy but no LLVM, MLIR or ONNX, so
everything dlc compiles is compiled here (`dlc compile --target cuda
--shared --name model`: PTX needs no GPU) together with what it is compared
against:

  node/     every ONNX backend node test that passes on the CPU (not in
            --xfail): its library, raw inputs and expected outputs (.npy)
  models/   ResNet-50 (batch 1 and 32), MobileNetV2 (batch 32), the
            BERT-style encoder (batch 1 and 8, sequence 128): library, raw
            inputs and the outputs of dlc's CPU path on the same inputs
            (.npy); a 4096^3 fp32 MatMul (library only: the device generates
            its inputs and compares with PyTorch). ResNet-50's weights follow
            a short periodic pattern (see pattern_weights) so that the bundle
            compresses to a few MB; the others use the export script's seeded
            random weights. The MatMul and ResNet-50 at batch 32 also built
            with --gpu-precision tf32 and fp16 (NAME_tf32, NAME_fp16: tensor
            cores), sharing the fp32 entries' inputs and references.
  runner.c  the C program that loads the libraries and runs them
  gpu_peaks.c, peaks_main.c  the program that measures the GPU's peaks
  check.py  the device-side driver; manifest.json lists everything, with
            each model's static kernel checks (scripts/ptxas_check.py
            --gates, run here: the device has no dlc)
  models_def.py  the export script, whose BERT-style encoder check.py
            times in PyTorch

and packs it as OUT/bundle.tar.xz (it must stay under the device tool's
64 MiB carry limit). --quick takes 40 node tests and no batch-32 or batch-8 models.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile

import numpy as np
import onnx
from onnx import helper, numpy_helper, TensorProto

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def compile_cuda(dlc, model, out_dir, data=None, extra=()):
    cmd = [dlc, "compile", model, "--target", "cuda", "--shared", "--name",
           "model", "-o", out_dir, *extra]
    if data:
        cmd += ["--data", data]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        return (p.stderr.strip().splitlines() or ["?"])[0]
    # Only the library travels.
    for f in os.listdir(out_dir):
        if f != "libmodel.so":
            os.remove(os.path.join(out_dir, f))
    return None


def write_raw(array, path):
    with open(path, "wb") as f:
        f.write(np.ascontiguousarray(array).tobytes())


def prepare_node_test(dlc, test_dir, out_dir):
    """Library, inputs (raw) and expected outputs (.npy) of one node test."""
    ds = os.path.join(test_dir, "test_data_set_0")
    os.makedirs(out_dir, exist_ok=True)
    err = compile_cuda(dlc, os.path.join(test_dir, "model.onnx"), out_dir, ds)
    if err:
        return None, err
    entry = {"lib": "libmodel.so", "inputs": [], "outputs": []}
    i = 0
    while os.path.exists(os.path.join(ds, f"input_{i}.pb")):
        t = onnx.TensorProto()
        t.ParseFromString(open(os.path.join(ds, f"input_{i}.pb"), "rb").read())
        write_raw(numpy_helper.to_array(t), os.path.join(out_dir, f"in_{i}.bin"))
        entry["inputs"].append(f"in_{i}.bin")
        i += 1
    graph = onnx.load(os.path.join(test_dir, "model.onnx")).graph
    j = 0
    while os.path.exists(os.path.join(ds, f"output_{j}.pb")):
        t = onnx.TensorProto()
        t.ParseFromString(open(os.path.join(ds, f"output_{j}.pb"), "rb").read())
        np.save(os.path.join(out_dir, f"expected_{j}.npy"), numpy_helper.to_array(t))
        entry["outputs"].append(f"expected_{j}.npy")
        # bfloat16 outputs (their bits, as uint16) are compared as values
        # one bfloat16 ulp apart, as the CPU's node suite does: ONNX 1.12's
        # expected values truncate, dlc rounds to nearest even.
        if j < len(graph.output) and \
                graph.output[j].type.tensor_type.elem_type == TensorProto.BFLOAT16:
            entry.setdefault("bf16_outputs", []).append(j)
        j += 1
    return entry, None


def pattern_weights(model, torch):
    """Deterministic, compressible weights: every parameter is a period-251
    ramp in [-1, 1], scaled to He initialization for convs and linears;
    BatchNorm is gamma 0.5, beta 0, mean 0, var 1 (damps residual growth)."""
    with torch.no_grad():
        for name, p in model.named_parameters():
            n = p.numel()
            ramp = (torch.arange(n, dtype=torch.float64) * 7919 % 251 - 125) / 125
            if p.dim() > 1:
                fan_in = p[0].numel()
                p.copy_((ramp * (2.0 / fan_in) ** 0.5 * 1.7).view_as(p).float())
            elif name.endswith("bias"):
                p.zero_()
            else:
                p.fill_(0.5)


def export_resnet50(path, batch):
    import torch
    import torchvision
    model = torchvision.models.resnet50(weights=None)
    pattern_weights(model, torch)
    model.eval()
    x = torch.zeros(batch, 3, 224, 224)
    torch.onnx.export(model, x, path, opset_version=17, do_constant_folding=True,
                      input_names=["input"], output_names=["logits"])


def matmul_model(path, n):
    a = helper.make_tensor_value_info("a", TensorProto.FLOAT, [n, n])
    b = helper.make_tensor_value_info("b", TensorProto.FLOAT, [n, n])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [n, n])
    graph = helper.make_graph([helper.make_node("MatMul", ["a", "b"], ["y"])],
                              "matmul", [a, b], [y])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), path)


def random_inputs(model_path, out_dir, seed=0, batch=1, sizes=None, int_high=100):
    """Raw input files and an ONNX data dir for `dlc run` (CPU reference);
    a symbolic dimension is given its size in `sizes`, else `batch` (a
    dynamic batch). Returns the file names, the data dir and the shapes."""
    rng = np.random.default_rng(seed)
    model = onnx.load(model_path, load_external_data=False)
    init = {i.name for i in model.graph.initializer}
    data_dir = os.path.join(out_dir, "data")
    os.makedirs(data_dir, exist_ok=True)
    names, shapes = [], []
    sizes = sizes or {}
    for i, vi in enumerate(v for v in model.graph.input if v.name not in init):
        tt = vi.type.tensor_type
        shape = [d.dim_value if d.HasField("dim_value") else sizes.get(d.dim_param, batch)
                 for d in tt.shape.dim]
        shapes.append(shape)
        dtype = onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[tt.elem_type]
        if dtype == np.float32:
            x = rng.standard_normal(shape).astype(np.float32)
        elif dtype == np.bool_:
            x = np.ones(shape, dtype=np.bool_)
        else:
            x = rng.integers(0, int_high, shape).astype(dtype)
        write_raw(x, os.path.join(out_dir, f"in_{i}.bin"))
        with open(os.path.join(data_dir, f"input_{i}.pb"), "wb") as f:
            f.write(numpy_helper.from_array(x, vi.name).SerializeToString())
        names.append(f"in_{i}.bin")
    return names, data_dir, shapes


def static_gates(dlc, model_path, extra=()):
    """scripts/ptxas_check.py --gates on the model's PTX: its summary lines
    and, per kernel, registers, spills and shared memory."""
    ptx = subprocess.run([dlc, "compile", model_path, "--target", "cuda",
                          "--emit=ptx", *extra], capture_output=True, text=True)
    ptxas = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
    if ptx.returncode != 0 or not os.path.exists(ptxas):
        return {"ok": False, "lines": [ptx.stderr.strip()[:300] or "no ptxas"]}
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "gates.json")
        p = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "ptxas_check.py"),
                            "--ptxas", ptxas, "--gates", "--report", report, "-"],
                           input=ptx.stdout, capture_output=True, text=True)
        kernels = json.load(open(report)) if os.path.exists(report) else []
    return {"ok": p.returncode == 0, "lines": p.stdout.strip().splitlines(),
            "kernels": len({k["kernel"] for k in kernels}),
            "max_registers": max((k["registers"] for k in kernels), default=0),
            "max_shared": max((k["shared"] for k in kernels), default=0)}


def cpu_reference(dlc, model_path, data_dir, out_dir, extra=()):
    ref_dir = os.path.join(out_dir, "cpu_out")
    subprocess.run([dlc, "run", model_path, "--data", data_dir, "--out", ref_dir, *extra],
                   check=True)
    outs = []
    j = 0
    while os.path.exists(os.path.join(ref_dir, f"output_{j}.pb")):
        t = onnx.TensorProto()
        t.ParseFromString(open(os.path.join(ref_dir, f"output_{j}.pb"), "rb").read())
        np.save(os.path.join(out_dir, f"cpu_{j}.npy"), numpy_helper.to_array(t))
        outs.append(f"cpu_{j}.npy")
        j += 1
    shutil.rmtree(ref_dir)
    shutil.rmtree(data_dir)
    return outs


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dlc", default=os.path.join(ROOT, "build", "bin", "dlc"))
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "gpu-check"))
    ap.add_argument("--node-data", default=os.path.join(ROOT, "build", "onnx-data"))
    ap.add_argument("--xfail", default=os.path.join(ROOT, "test", "e2e", "node", "xfail_all.txt"))
    ap.add_argument("--models-dir", default=os.path.join(ROOT, "build", "models"))
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--only-node", metavar="REGEX",
                    help="only the node tests matching REGEX (for tests)")
    ap.add_argument("--no-models", action="store_true",
                    help="no models, only node tests (for tests)")
    ap.add_argument("--variant", action="append", default=[], metavar="LABEL=DLC",
                    help="also compile the timed models with another dlc build "
                         "(a strategy under trial); check.py runs each as NAME@LABEL, "
                         "checked against the same CPU outputs (MatMul: timed only) "
                         "and timed against the same PyTorch reference")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    args = ap.parse_args()

    bundle = os.path.join(args.out, "bundle")
    shutil.rmtree(bundle, ignore_errors=True)
    os.makedirs(bundle)
    manifest = {"node": {}, "models": {}, "node_compile_failures": {}}

    # Node tests.
    sys.path.insert(0, os.path.join(ROOT, "test", "e2e", "node"))
    from run_node_tests import read_list
    xfail = read_list(args.xfail)
    node_dir = os.path.join(args.node_data, "node")
    tests = sorted(t for t in os.listdir(node_dir) if t not in xfail)
    if args.quick:
        tests = tests[::max(1, len(tests) // 40)]
    if args.only_node:
        tests = [t for t in tests if re.search(args.only_node, t)]
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = pool.map(lambda t: prepare_node_test(
            args.dlc, os.path.join(node_dir, t), os.path.join(bundle, "node", t)), tests)
        for t, (entry, err) in zip(tests, results):
            if entry:
                manifest["node"][t] = entry
            else:
                manifest["node_compile_failures"][t] = err
                shutil.rmtree(os.path.join(bundle, "node", t), ignore_errors=True)
    print(f"node tests: {len(manifest['node'])} compiled for CUDA, "
          f"{len(manifest['node_compile_failures'])} failed")

    # Models.
    if args.no_models:
        return finish(args, bundle, manifest)
    os.makedirs(args.models_dir, exist_ok=True)
    export = os.path.join(ROOT, "scripts", "models", "export_models.py")
    subprocess.run([sys.executable, export, args.models_dir, "--only", "bert"], check=True)
    if not args.quick:
        subprocess.run([sys.executable, export, args.models_dir, "--only",
                        "mobilenet_v2", "--batch", "32"], check=True)
        subprocess.run([sys.executable, export, args.models_dir, "--only", "bert",
                        "--batch", "8"], check=True)
    subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "models", "export_models.py"),
                    args.models_dir, "--only", "lstm", "bert", "--dynamic-batch"], check=True)
    models = {"bert": os.path.join(args.models_dir, "bert.onnx")}
    if not args.quick:
        models["mobilenet_v2_b32"] = os.path.join(args.models_dir, "mobilenet_v2_b32.onnx")
        models["bert_b8"] = os.path.join(args.models_dir, "bert_b8.onnx")
    # One library each, run at a batch size other than the one it was
    # compiled for (the runtime's per-sample path on the device).
    dynamic = {"lstm_dyn_b3": (os.path.join(args.models_dir, "lstm_dyn.onnx"), 3),
               "bert_dyn_b2": (os.path.join(args.models_dir, "bert_dyn.onnx"), 2)}
    for batch in ([1] if args.quick else [1, 32]):
        path = os.path.join(args.models_dir, f"resnet50_pattern_b{batch}.onnx")
        if not os.path.exists(path):
            export_resnet50(path, batch)
        models[f"resnet50_b{batch}"] = path
    runs = {name: (path, 1) for name, path in models.items()}
    runs.update(dynamic)
    for name, (path, batch) in runs.items():
        out = os.path.join(bundle, "models", name)
        os.makedirs(out)
        err = compile_cuda(args.dlc, path, out)
        if err:
            sys.exit(f"prepare: {name}: {err}")
        inputs, data_dir, _ = random_inputs(path, out, batch=batch)
        manifest["models"][name] = {"lib": "libmodel.so", "inputs": inputs,
                                    "outputs": cpu_reference(args.dlc, path, data_dir, out),
                                    "gates": static_gates(args.dlc, path)}
        if name in dynamic:
            manifest["models"][name]["batch"] = batch
        print(f"model {name}: compiled, CPU reference written")
    # Symbolic dimensions, data-dependent sizes and loops on the device: one
    # library each, run at sizes other than the bounds, the shapes given to
    # the runner; the host reads counts and loop conditions back.
    subprocess.run([sys.executable, export, args.models_dir, "--symbolic", "--only",
                    "bert", "scripted"], check=True)
    symbolic = {
        "bert_sym": ("bert_sym.onnx", "batch=1..4,seq=1..128", {"batch": 2, "seq": 17}, 100),
        "scripted_sym": ("scripted_sym.onnx", "batch=1..8", {"batch": 5}, 6),
    }
    for name, (file, dims, sizes, int_high) in symbolic.items():
        path = os.path.join(args.models_dir, file)
        out = os.path.join(bundle, "models", name)
        os.makedirs(out)
        err = compile_cuda(args.dlc, path, out, extra=["--dim", dims])
        if err:
            sys.exit(f"prepare: {name}: {err}")
        inputs, data_dir, shapes = random_inputs(path, out, sizes=sizes, int_high=int_high)
        manifest["models"][name] = {
            "lib": "libmodel.so", "inputs": inputs, "shapes": shapes,
            "outputs": cpu_reference(args.dlc, path, data_dir, out, ["--dim", dims])}
        print(f"model {name}: compiled ({dims}), CPU reference written")
    # The crossover check (check.py's crossover step, scripts/gpu/crossover.py
    # here afterwards): the timed models also as CPU libraries, for
    # x86-64-v3 (AVX2 and FMA: the GPU machine's CPU is not known here),
    # run there on all its cores beside the GPU builds of the same batch.
    for name in ("resnet50_b1", "resnet50_b32", "bert", "bert_b8"):
        if name not in manifest["models"]:
            continue
        out = os.path.join(bundle, "models", f"{name}_cpu")
        os.makedirs(out)
        p = subprocess.run([args.dlc, "compile", models[name], "--shared", "--name", "model",
                            "--mcpu", "x86-64-v3", "-o", out], capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit(f"prepare: {name}_cpu: {(p.stderr.strip().splitlines() or ['?'])[0]}")
        for f in os.listdir(out):
            if f != "libmodel.so":
                os.remove(os.path.join(out, f))
        src = manifest["models"][name]
        manifest["models"][f"{name}_cpu"] = {
            "lib": "libmodel.so", "cpu_of": name,
            "family": "resnet50" if name.startswith("resnet50") else "bert",
            "model_file": os.path.basename(models[name]),
            "batch_size": 32 if name == "resnet50_b32" else 8 if name == "bert_b8" else 1,
            "inputs": [f"../{name}/{i}" for i in src["inputs"]], "outputs": [],
            "num_outputs": len(src["outputs"])}
        print(f"model {name}_cpu: compiled for the CPU (x86-64-v3)")

    mm = os.path.join(args.models_dir, "matmul4096.onnx")
    matmul_model(mm, 4096)
    out = os.path.join(bundle, "models", "matmul4096")
    os.makedirs(out)
    err = compile_cuda(args.dlc, mm, out)
    if err:
        sys.exit(f"prepare: matmul4096: {err}")
    # 128 MiB of random inputs would not fit the carry limit: check.py
    # generates them (numpy, seed 0) and compares with PyTorch.
    manifest["models"]["matmul4096"] = {
        "lib": "libmodel.so", "inputs": ["in_0.bin", "in_1.bin"], "outputs": [],
        "generate": {"seed": 0, "shapes": [[4096, 4096], [4096, 4096]]}}

    # --gpu-precision tf32 and fp16 (tensor cores): the MatMul and ResNet-50
    # at batch 32, sharing the fp32 entries' inputs and CPU references
    # (checked within rtol = atol = 5e-2), timed against PyTorch with TF32
    # allowed, or in fp16 (.half()).
    # The same with --gpu-arch sm_90a (NAME_PRECISION_sm90a: Hopper's
    # warpgroup instructions, wgmma) for the MatMul in tf32, fp16 and bf16
    # (which only sm_90a builds take) and ResNet-50 in fp16; the runtime
    # loads them on sm_90 only.
    builds = [(name, precision, arch)
              for precision in ("tf32", "fp16")
              for name in ("matmul4096", "resnet50_b32")
              for arch in ("", "sm_90a")
              if not (arch and name == "resnet50_b32" and precision == "tf32")]
    builds.append(("matmul4096", "bf16", "sm_90a"))
    for name, precision, arch in builds:
        if name not in manifest["models"]:
            continue
        src = manifest["models"][name]
        path = mm if name == "matmul4096" else models[name]
        label = f"{name}_{precision}" + ("_sm90a" if arch else "")
        out = os.path.join(bundle, "models", label)
        os.makedirs(out)
        extra = ["--gpu-precision", precision]
        if arch:
            extra += ["--gpu-arch", arch]
        err = compile_cuda(args.dlc, path, out, extra=extra)
        if err:
            sys.exit(f"prepare: {label}: {err}")
        manifest["models"][label] = {
            "lib": "libmodel.so", "variant_of": name, "precision": precision,
            "rtol": 5e-2, "atol": 5e-2,
            "inputs": [f"../{name}/{i}" for i in src["inputs"]],
            "outputs": [f"../{name}/{o}" for o in src["outputs"]],
            "gates": static_gates(args.dlc, path, extra)}
        print(f"model {label}: compiled with {' '.join(extra)}")

    # Variants: the timed models compiled by other dlc builds, sharing the
    # inputs and references of the model they vary.
    for variant in args.variant:
        label, _, dlc = variant.partition("=")
        if not label or not os.path.exists(dlc):
            sys.exit(f"prepare: --variant {variant}: expected LABEL=PATH_TO_DLC")
        # Not MobileNetV2: its random weights do not compress (16 MB a
        # variant would leave the bundle over the carry limit).
        for name in ("matmul4096", "resnet50_b32", "bert_b8"):
            if name not in manifest["models"]:
                continue
            src = dict(manifest["models"][name])
            path = mm if name == "matmul4096" else models[name]
            out = os.path.join(bundle, "models", f"{name}@{label}")
            os.makedirs(out)
            err = compile_cuda(dlc, path, out)
            if err:
                sys.exit(f"prepare: {name}@{label}: {err}")
            entry = {"lib": "libmodel.so", "variant_of": name,
                     "inputs": [f"../{name}/{i}" for i in src["inputs"]],
                     "outputs": [f"../{name}/{o}" for o in src["outputs"]]}
            if src.get("gates"):
                entry["gates"] = static_gates(dlc, path)
            manifest["models"][f"{name}@{label}"] = entry
            print(f"model {name}@{label}: compiled by {dlc}")

    return finish(args, bundle, manifest)


def finish(args, bundle, manifest):
    for f in ("runner.c", "check.py"):
        shutil.copy(os.path.join(HERE, f), bundle)
    # The GPU's peaks, measured there (analysis/gpu-peaks, the program
    # tools/gpu-peaks/peaks_main.c).
    for f in ("analysis/gpu-peaks/gpu_peaks.c",
              "analysis/gpu-peaks/gpu_peaks.h",
              "tools/gpu-peaks/peaks_main.c"):
        shutil.copy(os.path.join(ROOT, f), bundle)
    shutil.copy(os.path.join(ROOT, "scripts", "models", "export_models.py"),
                os.path.join(bundle, "models_def.py"))
    shutil.copy(os.path.join(ROOT, "runtime", "include", "dlc", "dlc_runtime.h"), bundle)
    with open(os.path.join(bundle, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
    tar_path = os.path.join(args.out, "bundle.tar.xz")
    with tarfile.open(tar_path, "w:xz", preset=6) as tar:
        tar.add(bundle, arcname="bundle")
    size = os.path.getsize(tar_path)
    print(f"wrote {tar_path}: {size / 2**20:.1f} MiB")
    if size > 60 * 2**20:
        sys.exit("prepare: the bundle is over 60 MiB (the device carry limit is 64 MiB)")


if __name__ == "__main__":
    main()
