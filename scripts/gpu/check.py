#!/usr/bin/env python3
"""Device side of scripts/gpu-check.sh: runs the prepared bundle on a GPU.

    check.py BUNDLE_DIR REPORT_DIR [--budget SECONDS] [--only-node REGEX]
             [--skip STEP ...]

Needs python3 with numpy, a C compiler and an NVIDIA driver; PyTorch for the
speed comparison (skipped, and said so, without it). Steps:

 1. builds runner.c;
 2. node suite: runs every prepared node test's CUDA library on the GPU
    (host inputs and outputs, i.e. the runtime's transfer path) and compares
    with the expected outputs (rtol 1e-3, atol 1e-5 as on the CPU; integers
    and booleans exactly); the bar is 99% of the CPU-passing tests;
 3. real models: compares the GPU outputs with dlc's CPU outputs on the same
    inputs (rtol 1e-3, atol 1e-4), reporting the largest differences, with
    the static kernel checks made when the bundle was prepared; models with
    symbolic dimensions run at the input shapes the manifest gives; the
    --gpu-precision tf32 and fp16 builds (NAME_tf32, NAME_fp16, tensor
    cores; NAME_PRECISION_sm90a with --gpu-arch sm_90a, wgmma, on Hopper,
    bf16 among them) within rtol = atol = 5e-2;
 4. speed, with device-resident inputs, against PyTorch eager fp32 (TF32
    off in cuBLAS and cuDNN) on the same GPU, as ratios of throughput
    (dlc / PyTorch): MatMul 4096^3 (bar 0.6, against cuBLAS), ResNet-50
    batch 32 (bar 0.8), MobileNetV2 batch 32 (reported), the BERT-style
    encoder batch 8 sequence 128 (bar 1.0); the tf32 and fp16 builds of the
    MatMul and ResNet-50 against PyTorch with TF32 allowed or in fp16 (bars
    0.6 for the MatMul, 0.8 for ResNet-50 in fp16);
 5. kernels, where Nsight Compute (`ncu`) is there: one run of each timed
    model under it (clocks and caches left alone), each kernel's time,
    registers, grid and block, and its compute and memory throughput as
    shares of the peak, so that the slow kernels are known between GPU
    sessions (reported; within a time budget, skipped models say so).
The report's "bars" says which hold.

Writes REPORT_DIR/gpu-report.json and gpu-report.md. Exit 0 when it ran
(whatever the results), 2 when there is no GPU.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

NODE_RTOL, NODE_ATOL = 1e-3, 1e-5
MODEL_RTOL, MODEL_ATOL = 1e-3, 1e-4


def log(msg):
    print(msg, flush=True)


def build_runner(bundle):
    exe = os.path.join(bundle, "runner")
    for cc in (os.environ.get("CC"), "cc", "gcc", "clang"):
        if cc and shutil.which(cc):
            subprocess.run([cc, "-O2", "-I", bundle, os.path.join(bundle, "runner.c"),
                            "-ldl", "-o", exe], check=True)
            return exe
    sys.exit("check: no C compiler (cc, gcc, clang) to build the runner")


def run_manifest(runner, lines, work, name, timeout, device_io=False, graphs=True,
                 extra=()):
    """Runs the runner on `lines`; returns {model: (status, fields)}."""
    path = os.path.join(work, f"{name}.manifest")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    cmd = ([runner, path] + (["--device-io"] if device_io else [])
           + ([] if graphs else ["--no-graphs"]) + list(extra))
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        out, note = p.stdout, (f"runner exit {p.returncode}: {p.stderr.strip()[:200]}"
                               if p.returncode else "")
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        note = f"runner timed out after {timeout} s"
    results = {}
    for line in out.splitlines():
        parts = line.split(" ", 2)
        if len(parts) >= 2:
            results[parts[0]] = (parts[1], parts[2] if len(parts) > 2 else "")
    return results, note


# The tolerance test of test/e2e/node/run_node_tests.py's compare(), kept here
# because this script runs on the GPU machine, which has numpy but not onnx
# (that module imports it).
def compare(got, want, rtol, atol):
    if np.issubdtype(want.dtype, np.inexact):
        ok = np.isclose(got, want, rtol=rtol, atol=atol, equal_nan=True)
    else:
        ok = got == want
    if np.all(ok):
        return None
    bad = np.argwhere(~np.asarray(ok))
    idx = tuple(bad[0])
    return f"{len(bad)}/{want.size} differ, first at {list(idx)}: {got[idx]!r} vs {want[idx]!r}"


def bf16_values(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32)


def differences(got, want):
    g, w = got.astype(np.float64), want.astype(np.float64)
    d = np.abs(g - w)
    rel = d / np.maximum(np.abs(w), 1e-30)
    return float(d.max(initial=0)), float(rel[np.abs(w) > 1e-6].max(initial=0))


def model_lines(name, entry, base, work, warmup=0, iterations=1):
    lines = [f"model {name} {os.path.join(base, entry['lib'])}"]
    lines += [f"input {os.path.join(base, i)}" for i in entry["inputs"]]
    n_out = len(entry["outputs"]) or entry.get("num_outputs", 1)
    lines += [f"output {os.path.join(work, f'{name}.out{j}')}" for j in range(n_out)]
    if entry.get("batch"):
        lines.append(f"batch {entry['batch']}")
    for i, shape in enumerate(entry.get("shapes", [])):
        lines.append(f"shape {i} {','.join(str(d) for d in shape)}")
    lines.append(f"run {warmup} {iterations}")
    return lines


def node_suite(runner, bundle, manifest, work, report):
    tests = sorted(t for t in manifest["node"] if re.search(ONLY_NODE[0], t))
    results, notes = {}, []
    chunk = 100  # a hung kernel loses one chunk, not the run
    for start in range(0, len(tests), chunk):
        lines = []
        for t in tests[start:start + chunk]:
            lines += model_lines(t, manifest["node"][t], os.path.join(bundle, "node", t), work)
        r, note = run_manifest(runner, lines, work, f"node{start}", timeout=120)
        results.update(r)
        if note:
            notes.append(note)
    passed, failures = 0, {}
    for t in tests:
        status, detail = results.get(t, ("missing", "no result (runner crashed or timed out)"))
        if status != "ok":
            failures[t] = f"{status}: {detail}"
            continue
        msg = None
        for j, exp in enumerate(manifest["node"][t]["outputs"]):
            want = np.load(os.path.join(bundle, "node", t, exp))
            raw = np.fromfile(os.path.join(work, f"{t}.out{j}"), dtype=want.dtype)
            if raw.size != want.size:
                msg = f"output {j}: {raw.size} values, expected {want.size}"
                break
            got, rtol = raw.reshape(want.shape), NODE_RTOL
            if j in manifest["node"][t].get("bf16_outputs", []):
                # bfloat16 bits: compared as values, one bfloat16 ulp apart
                # (ONNX 1.12's expected values truncate, dlc rounds to
                # nearest even, as the CPU's node suite allows).
                got, want = (bf16_values(x) for x in (got, want))
                rtol = max(NODE_RTOL, 2.0 ** -7)
            msg = compare(got, want, rtol, NODE_ATOL)
            if msg:
                msg = f"output {j}: {msg}"
                break
        if msg:
            failures[t] = msg
        else:
            passed += 1
    total = len(tests)
    report["node"] = {"cpu_passing": total, "gpu_passing": passed,
                      "share": passed / total if total else 0.0,
                      "compile_failures": manifest.get("node_compile_failures", {}),
                      "failures": failures, "notes": notes}
    if ONLY_NODE[0]:
        report["node"]["only"] = ONLY_NODE[0]
    log(f"node suite on GPU: {passed}/{total} of the CPU-passing tests "
        f"({100.0 * passed / max(total, 1):.1f}%; bar 99%)")


def models(runner, bundle, manifest, work, report):
    report["models"] = {}
    for name, entry in sorted(manifest["models"].items()):
        if not entry["outputs"]:
            continue
        base = os.path.join(bundle, "models", name)
        r, note = run_manifest(runner, model_lines(name, entry, base, work, 2, 5), work,
                               name, timeout=300)
        status, detail = r.get(name, ("missing", note or "no result"))
        row = {"status": status}
        if entry.get("gates"):
            row["gates"] = entry["gates"]
        if status == "ok":
            # Median latency with host inputs and outputs (transfers included).
            row["ms_host_io"] = float(detail.split()[0])
            worst = None
            for j, ref in enumerate(entry["outputs"]):
                want = np.load(os.path.join(base, ref))
                # Outputs of symbolic models come at their bounds' size,
                # the run's elements first.
                got = np.fromfile(os.path.join(work, f"{name}.out{j}"),
                                  dtype=want.dtype, count=want.size).reshape(want.shape)
                abs_d, rel_d = differences(got, want)
                msg = compare(got, want, entry.get("rtol", MODEL_RTOL),
                              entry.get("atol", MODEL_ATOL))
                row[f"output{j}"] = {"max_abs": abs_d, "max_rel": rel_d,
                                     "match": msg is None, "detail": msg}
                worst = worst or msg
            row["match"] = worst is None
        else:
            row["detail"] = detail
        report["models"][name] = row
        log(f"model {name}: {json.dumps(row)}")


def torch_timing(fn, torch, warmup=3, iterations=10):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(iterations):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end))
    return float(np.median(times))


# torch.compile (inductor, default mode) per model: its compile takes tens of
# seconds, so only where this much of the budget is left.
COMPILE_BUDGET_S = 150


def torch_compiled(net, inputs, torch, dlc_ms):
    """{torch_compile_ms, throughput_ratio_dlc_over_torch_compile, ...} of
    net under torch.compile, or why it was not timed."""
    left = DEADLINE[0] - time.time()
    if left < COMPILE_BUDGET_S:
        return {"torch_compile": f"skipped: {left:.0f} s of the budget left"}
    try:
        t0 = time.time()
        compiled = torch.compile(net)
        with torch.no_grad():
            compiled(*inputs)
            compile_s = time.time() - t0
            ms = torch_timing(lambda: compiled(*inputs), torch)
        return {"torch_compile_ms": ms, "torch_compile_s": compile_s,
                "throughput_ratio_dlc_over_torch_compile": ms / dlc_ms}
    except Exception as e:  # noqa: BLE001 - report, keep going
        return {"torch_compile": f"failed: {repr(e)[:300]}"}


def resnet50_torch(torch):
    try:
        import torchvision
        return torchvision.models.resnet50(weights=None)
    except Exception:
        pass
    nn = torch.nn

    class Bottleneck(nn.Module):
        def __init__(self, cin, width, stride):
            super().__init__()
            cout = width * 4
            self.body = nn.Sequential(
                nn.Conv2d(cin, width, 1, bias=False), nn.BatchNorm2d(width), nn.ReLU(),
                nn.Conv2d(width, width, 3, stride, 1, bias=False), nn.BatchNorm2d(width), nn.ReLU(),
                nn.Conv2d(width, cout, 1, bias=False), nn.BatchNorm2d(cout))
            self.down = (nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False),
                                       nn.BatchNorm2d(cout))
                         if stride != 1 or cin != cout else nn.Identity())

        def forward(self, x):
            return torch.relu(self.body(x) + self.down(x))

    layers, cin = [], 64
    for width, blocks, stride in ((64, 3, 1), (128, 4, 2), (256, 6, 2), (512, 3, 2)):
        for b in range(blocks):
            layers.append(Bottleneck(cin, width, stride if b == 0 else 1))
            cin = width * 4
    return nn.Sequential(nn.Conv2d(3, 64, 7, 2, 3, bias=False), nn.BatchNorm2d(64), nn.ReLU(),
                         nn.MaxPool2d(3, 2, 1), *layers, nn.AdaptiveAvgPool2d(1),
                         nn.Flatten(), nn.Linear(2048, 1000))


# What each timed model is compared with: the PyTorch network and its
# inputs on the GPU (built lazily: torchvision may be missing), the number
# of samples per run, and the bar on dlc's throughput over PyTorch's.
def torch_reference(name, torch, bundle):
    if name == "resnet50_b32":
        return (lambda: resnet50_torch(torch),
                lambda: (torch.randn(32, 3, 224, 224, device="cuda"),), 32)
    if name == "mobilenet_v2_b32":
        def net():
            import torchvision
            return torchvision.models.mobilenet_v2(weights=None)
        return net, lambda: (torch.randn(32, 3, 224, 224, device="cuda"),), 32
    if name in ("bert", "bert_b8"):
        def net():
            sys.path.insert(0, bundle)
            import models_def
            torch.manual_seed(0)
            return models_def.BertEncoder()
        n = 8 if name == "bert_b8" else 1
        return net, lambda: (torch.randint(0, 1000, (n, 128), device="cuda"),
                             torch.ones(n, 128, dtype=torch.bool, device="cuda")), n
    return None


# Nsight Compute metrics per kernel (one replay pass or two for the
# throughput shares; launch__* cost none).
NCU_METRICS = ("gpu__time_duration.sum", "launch__registers_per_thread",
               "launch__grid_size", "launch__block_size",
               "launch__shared_mem_per_block_dynamic",
               "sm__throughput.avg.pct_of_peak_sustained_elapsed",
               "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
               "sm__warps_active.avg.pct_of_peak_sustained_active")
NCU_BUDGET_S = 180
# When the whole check must end (time.time()), set from --budget: the
# profile, the last and optional step, stops there.
DEADLINE = [float("inf")]
# The node tests to run (--only-node; all by default).
ONLY_NODE = [""]
# The report folder (peaks.json goes there).
REPORT_DIR = [""]


def parse_ncu_csv(text):
    """Per-launch rows {kernel, metric: value} from `ncu --csv` output."""
    import csv
    import io
    lines = [l for l in text.splitlines() if l.startswith('"')]
    rows = list(csv.reader(io.StringIO("\n".join(lines))))
    if not rows:
        return []
    head = rows[0]
    try:
        i_id = head.index("ID")
        i_k = next(head.index(n) for n in ("Kernel Name", "Function Name", "Demangled Name")
                   if n in head)
        i_m, i_u, i_v = head.index("Metric Name"), head.index("Metric Unit"), head.index("Metric Value")
    except (ValueError, StopIteration):
        return []
    # Nsight Compute 2025 prints "ns"; older ones "nsecond".
    scale = {"nsecond": 1e-3, "usecond": 1.0, "msecond": 1e3, "second": 1e6,
             "ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}
    launches = {}
    for r in rows[1:]:
        if len(r) <= max(i_id, i_k, i_m, i_u, i_v):
            continue
        entry = launches.setdefault(r[i_id], {"kernel": r[i_k]})
        value = r[i_v].replace(",", "")
        try:
            v = float(value)
        except ValueError:
            continue
        if r[i_m] == "gpu__time_duration.sum":
            if r[i_u] not in scale:
                continue  # an unknown unit: no time rather than a wrong one
            entry["us"] = v * scale[r[i_u]]
        else:
            entry[r[i_m]] = v
    return [launches[k] for k in sorted(launches, key=lambda x: int(x) if x.isdigit() else 0)]


def kernels(runner, bundle, manifest, work, report):
    import glob
    ncu = shutil.which("ncu") or next(
        iter(glob.glob("/usr/local/cuda/bin/ncu") + sorted(glob.glob("/opt/nvidia/nsight-compute/*/ncu"))
             + sorted(glob.glob("/usr/local/cuda*/nsight-compute*/ncu"))), None)
    if not ncu:
        report["kernels"] = {"note": "no ncu on this machine: no per-kernel profile"}
        log("kernels: no ncu")
        return
    report["kernels"] = {}
    t0 = time.time()
    for name in ("bert_b8", "resnet50_b32", "matmul4096", "mobilenet_v2_b32"):
        entry = manifest["models"].get(name)
        if not entry:
            continue
        left = min(NCU_BUDGET_S - (time.time() - t0), DEADLINE[0] - time.time())
        if left < 30:
            report["kernels"][name] = {"note": "skipped: the profile's time budget is spent"}
            continue
        base = os.path.join(bundle, "models", name)
        path = os.path.join(work, f"{name}_ncu.manifest")
        with open(path, "w") as f:
            f.write("\n".join(model_lines(name, entry, base, work, 0, 1)) + "\n")
        # Application replay: the model runs once per metric pass, so that
        # no pass saves and restores its workspace (gigabytes at batch 32).
        cmd = [ncu, "--clock-control", "none", "--cache-control", "none", "--csv",
               "--replay-mode", "application",
               "--metrics", ",".join(NCU_METRICS), runner, path, "--device-io"]
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=left)
            launches = parse_ncu_csv(p.stdout)
            note = "" if launches else f"ncu exit {p.returncode}: {(p.stderr or p.stdout)[-300:]}"
        except subprocess.TimeoutExpired:
            launches, note = [], f"ncu timed out after {left:.0f} s"
        total = sum(l.get("us", 0.0) for l in launches)
        # One row per kernel (launches of one kernel summed), slowest first.
        by_kernel = {}
        for l in launches:
            k = by_kernel.setdefault(l["kernel"], dict(l, us=0.0, launches=0))
            k["us"] += l.get("us", 0.0)
            k["launches"] += 1
        table = sorted(by_kernel.values(), key=lambda k: -k["us"])
        report["kernels"][name] = {"launches": len(launches), "kernel_us_total": total,
                                   "kernels": table, "note": note}
        log(f"kernels {name}: {len(launches)} launches, {total / 1e3:.2f} ms in kernels"
            + (f" ({note})" if note else ""))
        for k in table[:8]:
            log(f"  {k['us']:9.1f} us  x{k['launches']:<3} {k['kernel'][:60]} "
                f"regs {k.get('launch__registers_per_thread', '?')} "
                f"grid {k.get('launch__grid_size', '?')} block {k.get('launch__block_size', '?')} "
                f"sm {k.get('sm__throughput.avg.pct_of_peak_sustained_elapsed', '?')}% "
                f"mem {k.get('gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed', '?')}%")


BARS = {"matmul4096": 0.6, "resnet50_b32": 0.8, "bert": 1.5, "bert_b8": 1.0,
        # Tensor cores (issue 18), against PyTorch at the same precision;
        # the sm_90a builds (wgmma) and the portable ones (mma.sync) alike.
        "matmul4096_tf32": 0.6, "matmul4096_fp16": 0.6, "resnet50_b32_fp16": 0.8,
        "matmul4096_tf32_sm90a": 0.6, "matmul4096_fp16_sm90a": 0.6,
        "matmul4096_bf16_sm90a": 0.6, "resnet50_b32_fp16_sm90a": 0.8}


def peaks(runner, bundle, manifest, work, report):
    """The GPU's peaks (tools/gpu-peaks), as a peaks file for dlc analyze
    --peaks: FP32 and FP16 tensor-core rates, device bandwidth, the host
    link (page-locked and pageable) and its latency, launch latency."""
    exe = os.path.join(bundle, "peaks")
    for cc in (os.environ.get("CC"), "cc", "gcc", "clang"):
        if cc and shutil.which(cc):
            subprocess.run([cc, "-O2", "-I", bundle, os.path.join(bundle, "peaks_main.c"),
                            os.path.join(bundle, "gpu_peaks.c"), "-ldl", "-lpthread", "-o",
                            exe], check=True)
            break
    p = subprocess.run([exe, "--cpu-threads", str(os.cpu_count() or 1)],
                       capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        report["peaks"] = {"error": (p.stderr or p.stdout).strip()[:300]}
        log(f"peaks: {report['peaks']['error']}")
        return
    report["peaks"] = json.loads(p.stdout)
    with open(os.path.join(REPORT_DIR[0], "peaks.json"), "w") as f:
        f.write(p.stdout)
    g = report["peaks"]["cuda"]
    val = lambda k, s: g[k]["value"] / s if k in g else float("nan")  # noqa: E731
    log(f"peaks: {g['name']}: {val('flops', 1e12):.1f} TFLOP/s fp32, "
        f"{val('tensor_flops', 1e12):.1f} TFLOP/s fp16 tensor cores, "
        f"{val('bandwidth', 1e9):.0f} GB/s device copy, link "
        f"{val('link', 1e9):.1f} GB/s page-locked / {val('link_pageable', 1e9):.1f} "
        f"pageable, launch {val('launch', 1e-6):.1f} us")


def crossover(runner, bundle, manifest, work, report):
    """The CPU-vs-GPU crossover, measured: each timed model's CPU library
    (x86-64-v3, on all this machine's cores) and its GPU build with host
    tensors (copies in and out, as dlc analyze's GPU-with-transfers
    prediction), at the batches both have. scripts/gpu/crossover.py sets
    dlc analyze's predicted crossover (from peaks.json) beside it."""
    threads = os.cpu_count() or 1
    families = {}
    for name, entry in sorted(manifest["models"].items()):
        of = entry.get("cpu_of")
        if not of or of not in manifest["models"]:
            continue
        times = {}
        for label, lib_name, lib_entry, extra in (
                ("cpu_ms", name, entry, [f"threads {threads}"]),
                ("gpu_host_io_ms", of, manifest["models"][of], [])):
            lines = model_lines(lib_name, lib_entry, os.path.join(bundle, "models", lib_name),
                                work, 2, 5)
            lines[1:1] = extra
            r, note = run_manifest(runner, lines, work, f"{lib_name}_crossover", timeout=300)
            status, detail = r.get(lib_name, ("missing", note or "no result"))
            times[label] = float(detail.split()[0]) if status == "ok" else None
        fam = families.setdefault(entry["family"], {
            "model_file": entry["model_file"], "threads": threads, "batches": {}})
        if entry["batch_size"] == 1:
            fam["model_file"] = entry["model_file"]
        fam["batches"][str(entry["batch_size"])] = times
    for fam in families.values():
        # The GPU wins from a batch in (lo, hi]: hi the first measured batch
        # at which it is faster, lo the one before (0: from the first).
        lo, hi = 0, None
        for b in sorted(fam["batches"], key=int):
            t = fam["batches"][b]
            if t["cpu_ms"] is None or t["gpu_host_io_ms"] is None:
                continue
            if t["gpu_host_io_ms"] < t["cpu_ms"]:
                hi = int(b)
                break
            lo = int(b)
        fam["measured_crossover_after"] = lo
        fam["measured_crossover_at_most"] = hi
    report["crossover"] = families
    for name, fam in families.items():
        log(f"crossover {name}: {fam}")


def speed(runner, bundle, manifest, work, report):
    report["speed"] = {}
    try:
        import torch
        if not torch.cuda.is_available():
            raise RuntimeError("torch.cuda.is_available() is False")
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.backends.cudnn.allow_tf32 = False
    except Exception as e:  # noqa: BLE001
        torch = None
        report["speed"]["note"] = f"PyTorch with CUDA unavailable ({e}): no comparison"
    timed = ["matmul4096", "resnet50_b32", "mobilenet_v2_b32", "bert", "bert_b8"]
    # Variants (prepare.py --variant): the same model compiled by another
    # dlc build, timed against the same PyTorch reference.
    timed += sorted(n for n, e in manifest["models"].items() if e.get("variant_of") in timed)
    torch_ms_of = {}
    for name in timed:
        entry = manifest["models"].get(name)
        if not entry:
            continue
        of = entry.get("variant_of", name)
        # A tf32 build is timed against PyTorch with TF32 allowed, an fp16
        # build against PyTorch in fp16.
        precision = entry.get("precision", "fp32")
        if torch is not None:
            torch.backends.cuda.matmul.allow_tf32 = precision == "tf32"
            torch.backends.cudnn.allow_tf32 = precision == "tf32"
        base = os.path.join(bundle, "models", name)
        r, note = run_manifest(runner, model_lines(name, entry, base, work, 3, 10), work,
                               f"{name}_speed", timeout=300, device_io=True)
        status, detail = r.get(name, ("missing", note or "no result"))
        row = {"status": status}
        if status != "ok":
            row["detail"] = detail
            report["speed"][name] = row
            log(f"speed {name}: {row}")
            continue
        dlc_ms = float(detail.split()[0])
        row["dlc_ms"] = dlc_ms
        if len(detail.split()) > 2:  # create: loading the cubin or JIT-compiling the PTX
            row["create_ms"] = float(detail.split()[2])
        # The same runs launch by launch (dlc_options.cuda_graphs off): what
        # the CUDA graph saves.
        r, note = run_manifest(runner, model_lines(name, entry, base, work, 3, 10), work,
                               f"{name}_speed_nographs", timeout=300, device_io=True,
                               graphs=False)
        status, detail = r.get(name, ("missing", note or "no result"))
        if status == "ok":
            row["dlc_ms_without_graph"] = float(detail.split()[0])
            row["graph_speedup"] = row["dlc_ms_without_graph"] / dlc_ms
        else:
            row["without_graph"] = f"{status}: {detail}"[:300]
        # End to end with host tensors, the host preparing each batch's
        # inputs: one after the other (run), and overlapped with the GPU's
        # work (run_async, prepare the next inputs, wait).
        if name in ("resnet50_b32", "bert_b8"):
            for key, flag in (("host_prepare_then_run_ms", "--prepare"),
                              ("host_prepare_during_run_async_ms", "--async")):
                r, note = run_manifest(runner, model_lines(name, entry, base, work, 3, 10),
                                       work, f"{name}_{flag[2:]}", timeout=300,
                                       extra=[flag])
                status, detail = r.get(name, ("missing", note or "no result"))
                row[key] = (float(detail.split()[0]) if status == "ok"
                            else f"{status}: {detail}"[:300])
        torch_ms = torch_ms_of.get((of, precision))
        try:
            if torch_ms is not None:
                pass
            elif torch is not None and of == "matmul4096":
                flops = 2 * 4096 ** 3
                a = torch.from_numpy(np.fromfile(os.path.join(base, entry["inputs"][0]),
                                                 dtype=np.float32).reshape(4096, 4096)).cuda()
                b = torch.from_numpy(np.fromfile(os.path.join(base, entry["inputs"][1]),
                                                 dtype=np.float32).reshape(4096, 4096)).cuda()
                if precision == "fp16":  # cuBLAS fp16 (fp32 accumulation)
                    a, b = a.half(), b.half()
                elif precision == "bf16":  # cuBLAS bf16 (fp32 accumulation)
                    a, b = a.bfloat16(), b.bfloat16()
                torch_ms = torch_timing(lambda: a @ b, torch)
                ref = (a @ b).float().cpu().numpy()
                got = np.fromfile(os.path.join(work, f"{name}.out0"),
                                  dtype=np.float32).reshape(4096, 4096)
                row["max_abs_vs_torch"], row["max_rel_vs_torch"] = differences(got, ref)
                row["dlc_gflops"] = flops / dlc_ms / 1e6
                row["torch_gflops"] = flops / torch_ms / 1e6
            elif torch is not None:
                make_net, make_inputs, samples = torch_reference(of, torch, bundle)
                net = make_net().cuda().eval()
                inputs = make_inputs()
                if precision in ("fp16", "bf16"):
                    dtype = torch.half if precision == "fp16" else torch.bfloat16
                    net = net.to(dtype)
                    inputs = tuple(x.to(dtype) if x.is_floating_point() else x
                                   for x in inputs)
                with torch.no_grad():
                    torch_ms = torch_timing(lambda: net(*inputs), torch)
                row["dlc_samples_per_s"] = samples / dlc_ms * 1e3
                row["torch_samples_per_s"] = samples / torch_ms * 1e3
                row.update(torch_compiled(net, inputs, torch, dlc_ms))
        except Exception as e:  # noqa: BLE001 - report, keep going
            row["torch_error"] = repr(e)[:300]
        if torch_ms:
            torch_ms_of[(of, precision)] = torch_ms
            row["torch_ms"] = torch_ms
            row["throughput_ratio_dlc_over_torch"] = torch_ms / dlc_ms
            if name in BARS:  # the default build's and the tensor cores'
                row["bar"] = BARS[name]
                row["bar_holds"] = torch_ms / dlc_ms >= BARS[name]
        report["speed"][name] = row
        log(f"speed {name}: {json.dumps(row)}")


def bars(report):
    """Which of the CUDA target's bars hold in this run."""
    result = {}
    n = report.get("node")
    if n:
        result["node_suite_99_percent"] = n["share"] >= 0.99
    for name, row in report.get("speed", {}).items():
        if isinstance(row, dict) and "bar_holds" in row:
            result[f"{name}_at_least_{row['bar']}x_torch"] = row["bar_holds"]
    models = report.get("models", {})
    if models:
        result["models_match_cpu"] = all(r.get("match") for r in models.values())
        result["static_gates"] = all(r.get("gates", {}).get("ok", True)
                                     for r in models.values())
    report["bars"] = result


def write_markdown(report, path):
    lines = ["# dlc GPU check", "", f"Device: {report.get('device', '?')}", ""]
    pk = report.get("peaks")
    if pk:
        lines += ["## Peaks (measured here; `dlc analyze --peaks peaks.json`)", ""]
        if "error" in pk:
            lines.append(f"Not measured: {pk['error']}")
        else:
            lines += [f"- {k}: {v['value']:.4g}" for k, v in sorted(pk["cuda"].items())
                      if isinstance(v, dict)]
            lines.append(f"- note: {pk.get('note', '')}")
        lines.append("")
    n = report.get("node")
    if n:
        lines += ["## Node suite on the GPU", "",
                  f"{n['gpu_passing']} of {n['cpu_passing']} CPU-passing node tests pass on "
                  f"the GPU ({100 * n['share']:.1f}%; bar 99%).", ""]
        for t, why in sorted(n["failures"].items())[:60]:
            lines.append(f"- `{t}`: {why}")
        lines.append("")
    if report.get("models"):
        lines += ["## Real models, GPU vs dlc's CPU path", "",
                  "| model | status | max abs diff | max rel diff | match |", "|---|---|---|---|---|"]
        for name, row in sorted(report["models"].items()):
            o = row.get("output0", {})
            lines.append(f"| {name} | {row['status']} | {o.get('max_abs', '-')} | "
                         f"{o.get('max_rel', '-')} | {row.get('match', '-')} |")
        lines.append("")
    if report.get("bars"):
        lines += ["## Bars", ""]
        lines += [f"- {k}: {'holds' if v else 'does not hold'}"
                  for k, v in sorted(report["bars"].items())]
        lines.append("")
    for name, row in sorted(report.get("kernels", {}).items()):
        if not isinstance(row, dict) or "kernels" not in row:
            continue
        lines += [f"## Kernels of {name} (Nsight Compute, one run)", "",
                  f"{row['launches']} launches, {row['kernel_us_total'] / 1e3:.3f} ms in kernels.", "",
                  "| us | launches | kernel | regs | grid | block | sm % | mem % |",
                  "|---|---|---|---|---|---|---|---|"]
        for k in row["kernels"][:15]:
            lines.append(
                f"| {k['us']:.1f} | {k['launches']} | {k['kernel'][:50]} | "
                f"{k.get('launch__registers_per_thread', '-')} | {k.get('launch__grid_size', '-')} | "
                f"{k.get('launch__block_size', '-')} | "
                f"{k.get('sm__throughput.avg.pct_of_peak_sustained_elapsed', '-')} | "
                f"{k.get('gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed', '-')} |")
        lines.append("")
    if report.get("speed"):
        lines += ["## Speed against PyTorch (fp32, TF32 off)", "", "```",
                  json.dumps(report["speed"], indent=1), "```", ""]
    with open(path, "w") as f:
        f.write("\n".join(lines))


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("bundle")
    ap.add_argument("report_dir")
    ap.add_argument("--budget", type=float, default=450,
                    help="seconds the whole check may take: the kernel profile "
                         "is cut to fit (default 450)")
    ap.add_argument("--only-node", default="", metavar="REGEX",
                    help="run only the node tests matching REGEX (a rerun of failures)")
    ap.add_argument("--skip", action="append", default=[],
                    choices=["peaks", "node_suite", "models", "crossover", "speed",
                             "kernels"],
                    help="leave a step out (a short rerun)")
    args = ap.parse_args()
    DEADLINE[0] = time.time() + args.budget
    ONLY_NODE[0] = args.only_node
    os.makedirs(args.report_dir, exist_ok=True)
    report = {"started": time.strftime("%Y-%m-%d %H:%M:%S")}
    # DLC_GPU_CHECK_DEVICE names the device instead of nvidia-smi (tests run
    # this script against a stand-in driver, test/runtime/FakeCuda.c).
    device = os.environ.get("DLC_GPU_CHECK_DEVICE", "")
    smi = shutil.which("nvidia-smi")
    if smi and not device:
        p = subprocess.run([smi, "--query-gpu=name,driver_version,memory.total",
                            "--format=csv,noheader"], capture_output=True, text=True)
        device = p.stdout.strip()
    report["device"] = device or "none"
    if not device:
        report["result"] = "no CUDA device: nothing was checked"
        log("check: no CUDA device (nvidia-smi finds none): nothing was checked")
        with open(os.path.join(args.report_dir, "gpu-report.json"), "w") as f:
            json.dump(report, f, indent=1)
        return 2
    log(f"device: {device}")
    with open(os.path.join(args.bundle, "manifest.json")) as f:
        manifest = json.load(f)
    # Outputs go to a scratch folder, not the report's: the device tool
    # brings back only a few files from the report folder.
    work = tempfile.mkdtemp(prefix="dlc-gpu-check-")
    runner = build_runner(args.bundle)
    for name, entry in manifest["models"].items():
        gen = entry.get("generate")
        if gen:
            rng = np.random.default_rng(gen["seed"])
            for path, shape in zip(entry["inputs"], gen["shapes"]):
                rng.standard_normal(shape, dtype=np.float32).tofile(
                    os.path.join(args.bundle, "models", name, path))
    REPORT_DIR[0] = args.report_dir
    steps = [peaks, node_suite, models, crossover, speed, lambda *a: bars(report),
             kernels]
    for step in [s for s in steps if s.__name__ not in args.skip]:
        t0 = time.time()
        try:
            step(runner, args.bundle, manifest, work, report)
        except Exception as e:  # noqa: BLE001 - keep going, report it
            report.setdefault("errors", []).append(f"{step.__name__}: {e!r}")
            log(f"check: {step.__name__} failed: {e!r}")
        if step.__name__ != "<lambda>":
            report[f"{step.__name__}_seconds"] = round(time.time() - t0, 1)
        # Written after every step: a run cut short still reports what ran.
        with open(os.path.join(args.report_dir, "gpu-report.json"), "w") as f:
            json.dump(report, f, indent=1)
        write_markdown(report, os.path.join(args.report_dir, "gpu-report.md"))
    shutil.rmtree(work, ignore_errors=True)
    log(f"wrote {args.report_dir}/gpu-report.json and gpu-report.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
