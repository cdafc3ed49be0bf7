#!/usr/bin/python3
"""dlc against ONNX Runtime and OpenBLAS, measured side by side in one run.

  /usr/bin/python3 benchmarks/run.py [--models NAME ... | --broad] [--batches 1 8]
      [--mcpu CPU] [--ref-isa native|avx2]
      [--threads 1 2] [--matmul 256 512 1024 2048] [--no-models] [--no-micro]
      [--no-symbolic | --symbolic-only]
      [--iterations N] [--rounds R] [--round-iterations N] [--json OUT.json]

Everything is measured in the same run on the same machine and inputs, and
reported as ratios (dlc / reference), because these machines are noisy:

* peak: this machine's fp32 FMA peak on one thread (micro/fma_peak.c).
* matmul: C = A x B, fp32, square sizes and transformer shapes, dlc (a one-node
  ONNX MatMul model through `dlc bench`) against OpenBLAS `cblas_sgemm`
  (micro/sgemm_bench.c), as GFLOP/s and as a share of the FMA peak.
* cross-core: the round trip of a cache line between two threads and the
  rate of reading data the other thread just wrote (micro/cross_core.c),
  before and after the runs: on a virtual machine they follow where the
  host places the vCPUs, which moves the two-thread batch-1 figures.
* conv: single Conv nodes with ResNet shapes, dlc against ONNX Runtime.
* models: the real models of scripts/models/export_models.py at each batch
  size (exported as static-batch models), dlc against onnxruntime-node with
  the same thread counts (intra-op threads) and inputs, plus dlc's compile
  time; the geomean and the worst ratio per thread count. Each model is
  compiled once into a library (`dlc compile -o`) that micro/run_library.c
  links, as an application would; the library and ORT then run
  alternately, --rounds times --round-iterations runs each (after a
  warm-up of at least 200 ms), and each latency is the median of its
  rounds' medians, so that a change in the machine during the run falls
  on both. --broad runs the longer list (17 models); --mcpu x86-64-v3 compiles dlc's code for AVX2 on an
  AVX-512 machine; --ref-isa avx2 makes ORT and OpenBLAS pick their AVX2
  kernels there too (micro/cpuid_avx2.c hides AVX-512 from their `cpuid`;
  it needs Linux's CPUID faulting, and the run stops if the mask fails).
* symbolic: builds with symbolic dimensions (ResNet-50's batch, BERT's batch
  and sequence, compiled with --dim ranges) against the static builds of the
  same models, both run at the export size, alternately over a few rounds;
  and the dynamic batch (the LSTM at batch 8) run in chunks, one sample per
  call, and as the static build of that batch (--symbolic-only runs just
  these).

Prints a table per section and, with --json, writes every measurement.
Latency (matmul, conv) is the median of --iterations runs after a warm-up. Needs: a built
dlc (build/bin/dlc), cc, Debian's libopenblas-dev, python3-onnx, python3-torch
(for the models) and onnxruntime-node (test/e2e/ort/ensure-ort.sh).
"""
import argparse
import json
import math
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
import onnx
from onnx import TensorProto, helper

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "test", "e2e", "ort"))
import compare_with_ort as cw  # noqa: E402  (input generation shared with the tests)

MODELS = ["resnet18", "resnet50", "mobilenet_v2", "efficientnet_b0", "bert", "lstm"]
# --broad: the list of issue 23 (CNN families beyond the four above, a GPT
# decoder, a GRU and an MLP).
BROAD = MODELS + ["mobilenet_v3_large", "regnet_y_400mf", "squeezenet1_1",
                  "shufflenet_v2_x1_0", "densenet121", "googlenet", "mnasnet1_0",
                  "convnext_tiny", "gpt", "gru", "mlp"]
TRANSFORMER_MATMULS = [(128, 768, 768), (128, 3072, 768), (128, 768, 3072)]
CONVS = [  # name, N, C, H, W, F, k, stride, pad
    ("conv3x3_64", 1, 64, 56, 56, 64, 3, 1, 1),
    ("conv1x1_256_64", 1, 256, 56, 56, 64, 1, 1, 0),
    ("conv3x3_128_s2", 1, 128, 56, 56, 128, 3, 2, 1),
]


def sh(cmd, env=None, timeout=3600):
    proc = subprocess.run(cmd, env=env, timeout=timeout, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({proc.returncode}):\n{proc.stdout}")
    return proc.stdout


def json_lines(text):
    return [json.loads(line) for line in text.splitlines() if line.startswith("{")]


def machine():
    info = {"system": platform.platform(), "cpus": os.cpu_count()}
    try:
        for line in sh(["lscpu"]).splitlines():
            key, _, value = line.partition(":")
            if key.strip() in ("Model name", "Thread(s) per core", "Core(s) per socket",
                               "L2 cache", "L3 cache"):
                info[key.strip()] = value.strip()
        flags = open("/proc/cpuinfo").read()
        info["avx512f"] = " avx512f" in flags
    except (OSError, RuntimeError):
        pass
    return info


class Bench:
    def __init__(self, args, work):
        self.args, self.work = args, work
        self.ort_env = dict(os.environ)
        self.ort_env["NODE_PATH"] = os.path.join(args.ort_dir, "node_modules")
        self.ort_js = os.path.join(ROOT, "test", "e2e", "ort", "ort_run.js")
        self.libomp = args.libomp
        self.node_flags = []
        self.ref_env = dict(os.environ)
        if args.ref_isa == "avx2":
            self.mask_avx512()

    def mask_avx512(self):
        """Builds micro/cpuid_avx2.c and preloads it into ORT's and
        OpenBLAS's processes; checks with micro/cpuid_probe.c that a process
        under it sees AVX2 and no AVX-512F."""
        lib = os.path.join(self.work, "libcpuid_avx2.so")
        probe = os.path.join(self.work, "cpuid_probe")
        sh(["cc", "-O2", "-shared", "-fPIC", os.path.join(HERE, "micro", "cpuid_avx2.c"),
            "-o", lib])
        sh(["cc", "-O2", os.path.join(HERE, "micro", "cpuid_probe.c"), "-o", probe])
        for env in (self.ort_env, self.ref_env):
            env["LD_PRELOAD"] = lib
        seen = json_lines(sh([probe], env=self.ref_env))[0]
        if seen != {"avx2": 1, "avx512f": 0}:
            raise RuntimeError(f"--ref-isa avx2: a masked process still sees {seen}")
        self.node_flags = ["--disable-wasm-trap-handler"]

    def build_micro(self):
        peak = os.path.join(self.work, "fma_peak")
        sh(["cc", "-O2", "-march=native", os.path.join(HERE, "micro", "fma_peak.c"),
            "-o", peak])
        sgemm = os.path.join(self.work, "sgemm_bench")
        sh(["cc", "-O2", os.path.join(HERE, "micro", "sgemm_bench.c"), "-lopenblas",
            "-o", sgemm])
        self.peak_exe, self.sgemm_exe = peak, sgemm

    def peak(self):
        return json_lines(sh([self.peak_exe]))[0]

    def cross_core(self):
        """Cache-line round trip between two threads and the rate of reading
        data the other thread wrote (micro/cross_core.c): on a virtual
        machine they follow the host's placement of the vCPUs, which moves
        the two-thread figures."""
        exe = os.path.join(self.work, "cross_core")
        if not os.path.exists(exe):
            sh(["cc", "-O3", "-march=native", "-pthread",
                os.path.join(HERE, "micro", "cross_core.c"),
                "-o", exe])
        r = json_lines(sh([exe]))[0]
        r.pop("check", None)
        return r

    def inputs_for(self, model_path, tag):
        """Writes the same random inputs for dlc (.pb) and ORT (meta.json)."""
        model = onnx.load(model_path, load_external_data=False)
        inputs = cw.random_inputs(model, np.random.default_rng(0), int_high=4)
        dlc_dir = os.path.join(self.work, f"{tag}.dlc")
        ort_dir = os.path.join(self.work, f"{tag}.ort")
        if not os.path.exists(dlc_dir):
            cw.write_dlc_inputs(dlc_dir, inputs)
            cw.write_ort_inputs(ort_dir, inputs)
        return dlc_dir, ort_dir

    def dlc(self, model_path, data_dir, threads, extra=(), iterations=None):
        mcpu = ["--mcpu", self.args.mcpu] if self.args.mcpu else []
        out = sh([self.args.dlc, "bench", model_path, "--data", data_dir,
                  "--iterations", str(iterations or self.args.iterations),
                  "--threads", ",".join(str(t) for t in threads), *mcpu, *extra])
        return {r["threads"]: r for r in json_lines(out)}

    def library(self, model_path, tag):
        """Compiles the model into a library (`dlc compile -o`) and links
        micro/run_library.c against it: the code `dlc bench` runs, as an
        application links it. Returns (runner, compile seconds, workspace
        bytes, state bytes)."""
        lib = os.path.join(self.work, f"{tag}.lib")
        mcpu = ["--mcpu", self.args.mcpu] if self.args.mcpu else []
        start = time.monotonic()
        out = sh([self.args.dlc, "compile", model_path, "-o", lib, "--name", "net",
                  *mcpu])
        compile_s = time.monotonic() - start
        m = re.search(r"workspace (\d+) bytes", out)
        state = re.search(r"state (\d+) bytes", out)
        runner = os.path.join(lib, "run")
        # The OpenMP runtime dlc bench and dlc_add_model use (LLVM 22's;
        # Debian's default libomp.so is an older LLVM's).
        omp = os.path.dirname(self.libomp)
        sh(["cc", "-O2", "-I", lib, os.path.join(HERE, "micro", "run_library.c"),
            os.path.join(lib, "libnet.a"), f"-L{omp}", "-lomp", f"-Wl,-rpath,{omp}",
            "-lm", "-o", runner])
        return (runner, compile_s, int(m.group(1)) if m else None,
                int(state.group(1)) if state else 0)

    def run_library(self, runner, in_dir, inputs, threads, iterations):
        files = [os.path.join(in_dir, f"input_{k}.bin") for k in range(inputs)]
        return json_lines(sh([runner, str(iterations), str(threads), "--json",
                              *files]))[0]

    def ort(self, model_path, in_dir, threads, iterations=None):
        out = sh(["node", *self.node_flags, self.ort_js, model_path, in_dir, "--bench",
                  str(iterations or self.args.iterations), "--threads", str(threads)],
                 env=self.ort_env)
        return json_lines(out)[0]

    def sgemm(self, m, n, k, threads):
        return json_lines(sh([self.sgemm_exe, str(m), str(n), str(k), str(threads),
                              str(self.args.iterations)], env=self.ref_env))[0]


def matmul_model(path, m, n, k):
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["a", "b"], ["c"], name="matmul")], "matmul",
        [helper.make_tensor_value_info("a", TensorProto.FLOAT, [m, k]),
         helper.make_tensor_value_info("b", TensorProto.FLOAT, [k, n])],
        [helper.make_tensor_value_info("c", TensorProto.FLOAT, [m, n])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.save(model, path)


def conv_model(path, n, c, h, w, f, k, stride, pad):
    rng = np.random.default_rng(0)
    weight = helper.make_tensor("w", TensorProto.FLOAT, [f, c, k, k],
                                rng.uniform(-0.1, 0.1, f * c * k * k).astype(np.float32))
    bias = helper.make_tensor("b", TensorProto.FLOAT, [f],
                              rng.uniform(-0.1, 0.1, f).astype(np.float32))
    oh = (h + 2 * pad - k) // stride + 1
    ow = (w + 2 * pad - k) // stride + 1
    node = helper.make_node("Conv", ["x", "w", "b"], ["y"], name="conv", kernel_shape=[k, k],
                            strides=[stride, stride], pads=[pad] * 4)
    graph = helper.make_graph(
        [node], "conv", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [n, c, h, w])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [n, f, oh, ow])],
        initializer=[weight, bias])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.save(model, path)


def geomean(values):
    values = [v for v in values if v and v > 0]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def fmt(v, spec=".2f"):
    return "-" if v is None else format(v, spec)


def run_micro(b, args, results):
    b.build_micro()
    peak = b.peak()
    results["peak"] = peak
    print(f"\nfp32 FMA peak, 1 thread ({peak['isa']}): {peak['peak_gflops']:.1f} GFLOP/s")

    print("\nmatmul (fp32, row-major)   dlc GFLOP/s  OpenBLAS GFLOP/s  dlc/OpenBLAS  dlc/peak")
    shapes = [(s, s, s) for s in args.matmul] + TRANSFORMER_MATMULS
    rows = []
    for (m, n, k) in shapes:
        path = os.path.join(b.work, f"matmul_{m}x{n}x{k}.onnx")
        matmul_model(path, m, n, k)
        data, _ = b.inputs_for(path, f"matmul_{m}x{n}x{k}")
        dlc = b.dlc(path, data, args.threads)
        for t in args.threads:
            ref = b.sgemm(m, n, k, t)
            flops = 2.0 * m * n * k
            dlc_gf = flops / (dlc[t]["median_ms"] * 1e-3) / 1e9
            row = {"m": m, "n": n, "k": k, "threads": t, "dlc_ms": dlc[t]["median_ms"],
                   "openblas_ms": ref["median_ms"], "dlc_gflops": dlc_gf,
                   "openblas_gflops": ref["gflops"], "openblas_core": ref.get("core"),
                   "ratio": dlc_gf / ref["gflops"],
                   "of_peak": dlc_gf / (peak["peak_gflops"] * t)}
            rows.append(row)
            print(f"  {m}x{n}x{k} t={t}".ljust(27) + f"{dlc_gf:11.1f}  {ref['gflops']:16.1f}"
                  f"  {row['ratio']:12.2f}  {row['of_peak']:8.2f}")
    results["matmul"] = rows

    print("\nconv (fp32, NCHW)          dlc ms   ORT ms   dlc/ORT")
    rows = []
    for (name, n, c, h, w, f, k, s, p) in CONVS:
        path = os.path.join(b.work, f"{name}.onnx")
        conv_model(path, n, c, h, w, f, k, s, p)
        data, ort_in = b.inputs_for(path, name)
        dlc = b.dlc(path, data, args.threads)
        for t in args.threads:
            ort = b.ort(path, ort_in, t)
            row = {"conv": name, "threads": t, "dlc_ms": dlc[t]["median_ms"],
                   "ort_ms": ort["median_ms"], "ratio": dlc[t]["median_ms"] / ort["median_ms"]}
            rows.append(row)
            print(f"  {name} t={t}".ljust(27) + f"{row['dlc_ms']:7.3f}  {row['ort_ms']:7.3f}"
                  f"  {row['ratio']:8.2f}")
    results["conv"] = rows


def run_models(b, args, results):
    models_dir = args.models_dir
    print("\nmodel          batch threads   dlc ms    ORT ms  dlc/ORT  compile s")
    rows = []
    for name in args.models:
        for batch in args.batches:
            sh([sys.executable, os.path.join(ROOT, "scripts", "models", "export_models.py"),
                models_dir, "--only", name, "--batch", str(batch)])
            suffix = "" if batch == 1 else f"_b{batch}"
            path = os.path.join(models_dir, f"{name}{suffix}.onnx")
            data, ort_in = b.inputs_for(path, f"{name}{suffix}")
            n_inputs = len(json.load(open(os.path.join(ort_in, "meta.json")))["tensors"])
            try:
                runner, compile_s, workspace, state = b.library(path, f"{name}{suffix}")
            except (RuntimeError, subprocess.TimeoutExpired) as e:
                print(f"  {name} b={batch}: dlc failed: {str(e).splitlines()[0]}")
                rows.append({"model": name, "batch": batch, "error": str(e)[:500]})
                continue
            # dlc's library and ONNX Runtime alternately, round after round,
            # so that a change in the machine (a neighbour, the vCPUs'
            # placement) falls on both; each latency is the median of its
            # rounds' medians.
            dlc_rounds = {t: [] for t in args.threads}
            ort_rounds = {t: [] for t in args.threads}
            for _ in range(args.rounds):
                for t in args.threads:
                    dlc_rounds[t].append(b.run_library(
                        runner, ort_in, n_inputs, t, args.round_iterations)["median_ms"])
                    ort_rounds[t].append(
                        b.ort(path, ort_in, t, args.round_iterations)["median_ms"])
            for t in args.threads:
                dlc_ms = statistics.median(dlc_rounds[t])
                ort_ms = statistics.median(ort_rounds[t])
                row = {"model": name, "batch": batch, "threads": t,
                       "dlc_ms": dlc_ms, "ort_ms": ort_ms, "ratio": dlc_ms / ort_ms,
                       "dlc_round_ms": dlc_rounds[t], "ort_round_ms": ort_rounds[t],
                       "compile_s": compile_s, "workspace_bytes": workspace,
                       "state_bytes": state}
                rows.append(row)
                print(f"  {name:13s}{batch:5d}{t:8d}  {row['dlc_ms']:8.2f}  {row['ort_ms']:8.2f}"
                      f"  {row['ratio']:7.2f}  {row['compile_s']:9.1f}", flush=True)
    results["models"] = rows
    summary = {}
    for t in args.threads:
        at = [r for r in rows if r.get("threads") == t]
        ratios = [r["ratio"] for r in at]
        summary[f"geomean_dlc_over_ort_t{t}"] = geomean(ratios)
        summary[f"max_dlc_over_ort_t{t}"] = max(ratios) if ratios else None
        if at:
            worst = max(at, key=lambda r: r["ratio"])
            summary[f"worst_t{t}"] = f"{worst['model']} batch {worst['batch']}"
    failed = sorted({f"{r['model']} batch {r['batch']}" for r in rows if "error" in r})
    if failed:
        summary["failed"] = failed
    for t in args.threads:
        print(f"threads {t}: geomean dlc/ORT {fmt(summary[f'geomean_dlc_over_ort_t{t}'])}, "
              f"worst {fmt(summary[f'max_dlc_over_ort_t{t}'])} "
              f"({summary.get(f'worst_t{t}', '-')})")
    if len(args.threads) >= 2:
        t1, t2 = args.threads[0], args.threads[1]
        speedups = {}
        for r in rows:
            if r.get("threads") == t1:
                other = next((o for o in rows if o.get("model") == r["model"]
                              and o.get("batch") == r["batch"] and o.get("threads") == t2), None)
                if other:
                    speedups[f"{r['model']}_b{r['batch']}"] = r["dlc_ms"] / other["dlc_ms"]
        summary[f"dlc_speedup_t{t2}_over_t{t1}"] = speedups
    results["summary"] = summary
    print("\nsummary: " + json.dumps(summary, indent=1))


# Symbolic-dimension builds against static builds of the same model, both
# run at the export size: (model, export flag, file suffix, --dim ranges,
# iterations as a multiple of --iterations: BERT runs in about a
# millisecond, and a few dozen runs of it are at the mercy of one burst of
# noise).
SYMBOLIC = [
    ("resnet50", "--dynamic-batch", "_dyn", "N=1..8", 1),
    ("bert", "--symbolic", "_sym", "batch=1..8,seq=1..128", 20),
]
# Static and symbolic builds are measured alternately this many times; each
# latency is the median of its rounds' medians.
SYMBOLIC_ROUNDS = 3


def run_symbolic(b, args, results):
    models_dir = args.models_dir
    print("\nsymbolic vs static (export size)  threads  static ms  symbolic ms  symbolic/static")
    rows = []
    for name, flag, suffix, dims, scale in SYMBOLIC:
        export = [sys.executable, os.path.join(ROOT, "scripts", "models", "export_models.py"),
                  models_dir, "--only", name]
        sh(export)
        sh(export + [flag])
        static_path = os.path.join(models_dir, f"{name}.onnx")
        sym_path = os.path.join(models_dir, f"{name}{suffix}.onnx")
        # The static model's inputs: the export size, which the symbolic
        # build runs at too.
        data, _ = b.inputs_for(static_path, name)
        iterations = args.iterations * scale
        static_rounds, sym_rounds = [], []
        for _ in range(SYMBOLIC_ROUNDS):
            static_rounds.append(b.dlc(static_path, data, args.threads, iterations=iterations))
            sym_rounds.append(b.dlc(sym_path, data, args.threads, ["--dim", dims],
                                    iterations=iterations))
        for t in args.threads:
            static_ms = float(np.median([r[t]["median_ms"] for r in static_rounds]))
            sym_ms = float(np.median([r[t]["median_ms"] for r in sym_rounds]))
            row = {"model": name, "dims": dims, "threads": t, "iterations": iterations,
                   "rounds": SYMBOLIC_ROUNDS, "static_ms": static_ms, "symbolic_ms": sym_ms,
                   "ratio": sym_ms / static_ms,
                   "static_round_ms": [r[t]["median_ms"] for r in static_rounds],
                   "symbolic_round_ms": [r[t]["median_ms"] for r in sym_rounds]}
            rows.append(row)
            print(f"  {name} --dim {dims}".ljust(34) + f"{t:7d}  {row['static_ms']:9.2f}"
                  f"  {row['symbolic_ms']:11.2f}  {row['ratio']:15.2f}", flush=True)
    results["symbolic"] = rows


# The dynamic batch in chunks against one sample per call and against the
# static build of the same batch (whole, one call): (model, batch,
# iterations as a multiple of --iterations).
DYNAMIC_BATCH = [("lstm", 8, 20)]


def run_dynamic_batch(b, args, results):
    models_dir = args.models_dir
    print("\ndynamic batch            threads  static ms  one/call ms  chunked ms  chunked/static"
          "  chunked/one")
    rows = []
    for name, batch, scale in DYNAMIC_BATCH:
        export = [sys.executable, os.path.join(ROOT, "scripts", "models", "export_models.py"),
                  models_dir, "--only", name]
        sh(export + ["--batch", str(batch)])
        sh(export + ["--dynamic-batch"])
        static_path = os.path.join(models_dir, f"{name}_b{batch}.onnx")
        dyn_path = os.path.join(models_dir, f"{name}_dyn.onnx")
        data, _ = b.inputs_for(static_path, f"{name}_b{batch}")
        iterations = args.iterations * scale
        rounds = {"static": [], "one": [], "chunked": []}
        for _ in range(SYMBOLIC_ROUNDS):
            rounds["static"].append(b.dlc(static_path, data, args.threads,
                                          ["--batch-split", "1"], iterations=iterations))
            rounds["one"].append(b.dlc(dyn_path, data, args.threads, ["--batch-chunk", "1"],
                                       iterations=iterations))
            rounds["chunked"].append(b.dlc(dyn_path, data, args.threads, iterations=iterations))
        for t in args.threads:
            ms = {k: float(np.median([r[t]["median_ms"] for r in v])) for k, v in rounds.items()}
            row = {"model": name, "batch": batch, "threads": t, "iterations": iterations,
                   "rounds": SYMBOLIC_ROUNDS, "static_ms": ms["static"],
                   "one_per_call_ms": ms["one"], "chunked_ms": ms["chunked"],
                   "chunked_over_static": ms["chunked"] / ms["static"],
                   "chunked_over_one": ms["chunked"] / ms["one"]}
            rows.append(row)
            print(f"  {name} batch {batch}".ljust(25) + f"{t:7d}  {ms['static']:9.3f}"
                  f"  {ms['one']:11.3f}  {ms['chunked']:10.3f}"
                  f"  {row['chunked_over_static']:14.2f}  {row['chunked_over_one']:11.2f}",
                  flush=True)
    results["dynamic_batch"] = rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dlc", default=os.path.join(ROOT, "build", "bin", "dlc"))
    ap.add_argument("--models", nargs="+", default=MODELS, choices=BROAD)
    ap.add_argument("--broad", action="store_true",
                    help=f"the broader model list ({len(BROAD)} models) instead of --models")
    ap.add_argument("--mcpu", help="dlc's target CPU (e.g. x86-64-v3: AVX2 code on an "
                                   "AVX-512 machine); ORT picks its own kernels "
                                   "unless --ref-isa says otherwise")
    ap.add_argument("--ref-isa", choices=["native", "avx2"], default="native",
                    help="avx2: ONNX Runtime and OpenBLAS see a CPU without AVX-512 "
                         "(micro/cpuid_avx2.c), to compare with --mcpu x86-64-v3")
    ap.add_argument("--batches", nargs="+", type=int, default=[1, 8])
    ap.add_argument("--threads", nargs="+", type=int, default=[1, 2])
    ap.add_argument("--matmul", nargs="+", type=int, default=[256, 512, 1024, 2048])
    ap.add_argument("--iterations", type=int, default=10)
    ap.add_argument("--libomp", default="/usr/lib/llvm-22/lib/libomp.so.5",
                    help="the OpenMP runtime the model libraries link (dlc's)")
    ap.add_argument("--rounds", type=int, default=4,
                    help="models: dlc and ORT measured alternately this many times")
    ap.add_argument("--round-iterations", type=int, default=5,
                    help="models: timed runs per round (after 200 ms of warm-up runs)")
    ap.add_argument("--no-models", action="store_true")
    ap.add_argument("--no-micro", action="store_true")
    ap.add_argument("--no-symbolic", action="store_true",
                    help="skip the symbolic-vs-static section")
    ap.add_argument("--symbolic-only", action="store_true",
                    help="run only the symbolic-vs-static section")
    ap.add_argument("--models-dir", default=os.path.join(ROOT, "build", "models"))
    ap.add_argument("--ort-dir", default=os.environ.get(
        "DLC_ORT_DIR", os.path.join(os.path.expanduser("~"), ".cache", "dlc", "ort")))
    ap.add_argument("--json", help="write all measurements here")
    args = ap.parse_args()
    if args.broad:
        args.models = BROAD
    results = {"machine": machine(), "iterations": args.iterations, "mcpu": args.mcpu,
               "ref_isa": args.ref_isa}
    print("machine: " + json.dumps(results["machine"]))
    with tempfile.TemporaryDirectory(prefix="dlc-bench-") as work:
        b = Bench(args, work)
        results["cross_core"] = {"before": b.cross_core()}
        print("cross-core hand-over before: " + json.dumps(results["cross_core"]["before"]))
        if not args.no_micro and not args.symbolic_only:
            run_micro(b, args, results)
        if not args.no_models and not args.symbolic_only:
            run_models(b, args, results)
        if not args.no_symbolic:
            run_symbolic(b, args, results)
            run_dynamic_batch(b, args, results)
        results["cross_core"]["after"] = b.cross_core()
        print("cross-core hand-over after: " + json.dumps(results["cross_core"]["after"]))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
