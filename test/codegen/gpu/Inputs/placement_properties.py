"""Property tests of dlc-gpu-select-placement on random programs.

usage: placement_properties.py DLC_OPT [SEED] [COUNT]

Writes COUNT random programs (linalg on tensors: MatMuls, elementwise ops
over earlier values, row and whole reductions with broadcasts back, of
random sizes) and runs the pass on each with `mode=auto remarks=1`, the
device figures random too, checking the placement's defining properties
from each kernel's remark (its predicted times alone and its device):

- with an infinitely fast link (no bandwidth cost, no latency) every
  kernel runs on the device where it alone is faster;
- with a link without bandwidth every kernel runs on the CPU (the graph's
  inputs and results are in host memory).

Prints "OK: N programs, K kernels" or exits 1 naming the program and the
kernel that breaks a property.
"""
import random
import re
import subprocess
import sys

dlc_opt = sys.argv[1]
seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
count = int(sys.argv[3]) if len(sys.argv) > 3 else 40
rng = random.Random(seed)

ID2 = "affine_map<(d0, d1) -> (d0, d1)>"
ROW = "affine_map<(d0, d1) -> (d0)>"
SCALAR = "affine_map<(d0, d1) -> ()>"
ROWB = "affine_map<(d0, d1) -> (d0, 0)>"


def program(index):
    rows = rng.choice([1, 4, 32, 256, 1024])
    cols = rng.choice([8, 64, 512])
    lines = []
    n = [0]

    def fresh():
        n[0] += 1
        return f"%v{n[0]}"

    def node(name):
        return f'loc("{name}")'

    t = f"tensor<{rows}x{cols}xf32>"
    values = ["%x"]
    lines.append("  %zero = arith.constant 0.0 : f32")
    kernels = 0
    for k in range(rng.randint(2, 8)):
        kind = rng.choice(["matmul", "add", "mul", "rowmax", "sum"])
        a = rng.choice(values)
        name = f"k{k}_{kind}"
        e, f, r = fresh(), fresh(), fresh()
        lines.append(f"  {e} = tensor.empty() : {t}")
        if kind == "matmul":
            lines.append(f"  {f} = linalg.fill ins(%zero : f32) outs({e} : {t}) -> {t} {node(name)}")
            lines.append(f"  {r} = linalg.matmul ins({a}, %w : {t}, tensor<{cols}x{cols}xf32>) "
                         f"outs({f} : {t}) -> {t} {node(name)}")
        elif kind in ("add", "mul"):
            b = rng.choice(values)
            op = "arith.addf" if kind == "add" else "arith.mulf"
            lines.append(f"  {r} = linalg.generic {{indexing_maps = [{ID2}, {ID2}, {ID2}], "
                         f"iterator_types = [\"parallel\", \"parallel\"]}} ins({a}, {b} : {t}, {t}) "
                         f"outs({e} : {t}) {{\n  ^bb0(%p: f32, %q: f32, %o: f32):\n"
                         f"    %s = {op} %p, %q : f32\n    linalg.yield %s : f32\n  }} -> {t} {node(name)}")
        else:
            red_t = f"tensor<{rows}xf32>" if kind == "rowmax" else "tensor<f32>"
            red_map = ROW if kind == "rowmax" else SCALAR
            b_map = ROW if kind == "rowmax" else SCALAR
            iters = '"parallel", "reduction"' if kind == "rowmax" else '"reduction", "reduction"'
            re_, rf, rr = fresh(), fresh(), fresh()
            op = "arith.maximumf" if kind == "rowmax" else "arith.addf"
            lines.append(f"  {re_} = tensor.empty() : {red_t}")
            lines.append(f"  {rf} = linalg.fill ins(%zero : f32) outs({re_} : {red_t}) -> {red_t} {node(name)}")
            lines.append(f"  {rr} = linalg.generic {{indexing_maps = [{ID2}, {red_map}], "
                         f"iterator_types = [{iters}]}} ins({a} : {t}) outs({rf} : {red_t}) {{\n"
                         f"  ^bb0(%p: f32, %o: f32):\n    %s = {op} %o, %p : f32\n"
                         f"    linalg.yield %s : f32\n  }} -> {red_t} {node(name)}")
            bname = f"k{k}_back"
            lines.append(f"  {r} = linalg.generic {{indexing_maps = [{ID2}, {b_map}, {ID2}], "
                         f"iterator_types = [\"parallel\", \"parallel\"]}} ins({a}, {rr} : {t}, {red_t}) "
                         f"outs({e} : {t}) {{\n  ^bb0(%p: f32, %q: f32, %o: f32):\n"
                         f"    %s = arith.subf %p, %q : f32\n    linalg.yield %s : f32\n  }} -> {t} {node(bname)}")
        values.append(r)
    last = values[-1]
    body = "\n".join(lines)
    return (f"func.func @p{index}(%x: {t}, %w: tensor<{cols}x{cols}xf32>) -> {t} {{\n"
            f"{body}\n  return {last} : {t}\n}}\n")


REMARK = re.compile(r"kernel '([^']*)': cpu (-?\d+) ns, gpu (-?\d+) ns, on the (cpu|gpu)")


def run(text, options):
    result = subprocess.run([dlc_opt, "-", f"--dlc-gpu-select-placement={options}", "-o", "/dev/null"],
                            input=text, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"dlc-opt failed ({options}):\n{result.stderr}\n{text}")
    return [(m.group(1), int(m.group(2)), int(m.group(3)), m.group(4))
            for m in REMARK.finditer(result.stderr)]


total = 0
for i in range(count):
    text = program(i)
    figures = (f"cpu-gflops={rng.choice([1, 10, 100])} cpu-gbps={rng.choice([5, 20])} "
               f"gpu-gflops={rng.choice([1000, 20000])} gpu-gbps={rng.choice([500, 3000])} "
               f"gpu-saturation={rng.choice([1000, 100000])} launch-us={rng.choice([2, 5])}")
    free = run(text, f"mode=auto remarks=1 {figures} link-gbps=inf link-latency-us=0")
    if not free:
        sys.exit(f"program {i}: no kernels reported\n{text}")
    for name, cpu, gpu, device in free:
        if cpu == gpu:
            continue
        best = "cpu" if cpu < gpu else "gpu"
        if device != best:
            sys.exit(f"program {i}: with a free link kernel '{name}' ({cpu} ns on the CPU, "
                     f"{gpu} ns on the GPU) runs on the {device}\n{text}")
    none = run(text, f"mode=auto remarks=1 {figures} link-gbps=0")
    for name, cpu, gpu, device in none:
        if device != "cpu":
            sys.exit(f"program {i}: with no link kernel '{name}' runs on the {device}\n{text}")
    total += len(free)
print(f"OK: {count} programs, {total} kernels")
