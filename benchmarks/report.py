#!/usr/bin/python3
"""Render a benchmarks/run.py JSON result as Markdown tables.

  /usr/bin/python3 benchmarks/report.py RESULTS.json > tables.md

docs/performance.md embeds this output for the recorded run.
"""
import json
import sys


def fmt(v, spec=".2f"):
    return "-" if v is None else format(v, spec)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: report.py RESULTS.json")
    with open(sys.argv[1]) as f:
        r = json.load(f)
    m = r["machine"]
    if r.get("mcpu"):
        print(f"dlc's code compiled with --mcpu {r['mcpu']}.\n")
    if r.get("ref_isa") == "avx2":
        print("ONNX Runtime and OpenBLAS on their AVX2 kernels (--ref-isa avx2: "
              "AVX-512 hidden from their cpuid).\n")
    print(f"Machine: {m.get('Model name', '?')}, {m.get('cpus')} CPUs "
          f"({m.get('Core(s) per socket', '?')} cores, {m.get('Thread(s) per core', '?')} "
          f"thread(s) per core), AVX-512: {'yes' if m.get('avx512f') else 'no'}; "
          f"{m.get('system')}. Median of {r['iterations']} runs after a warm-up.\n")
    if "cross_core" in r:
        cc = r["cross_core"]
        parts = [f"{when}: round trip {x['round_trip_ns']:.0f} ns, reading what the other "
                 f"core wrote {x['read_written_by_other_gbs']:.1f} GB/s "
                 f"(own {x['read_own_gbs']:.1f})"
                 for when, x in cc.items()]
        print("Cross-core hand-over (benchmarks/micro/cross_core.c), " + "; ".join(parts)
              + ".\n")
    if "peak" in r:
        print(f"fp32 FMA peak, one thread ({r['peak']['isa']}): "
              f"**{r['peak']['peak_gflops']:.1f} GFLOP/s** (benchmarks/micro/fma_peak.c).\n")
    if "matmul" in r:
        print("| matmul M x N x K | threads | dlc GFLOP/s | OpenBLAS GFLOP/s | dlc / OpenBLAS | dlc / peak |")
        print("|---|---:|---:|---:|---:|---:|")
        for x in r["matmul"]:
            print(f"| {x['m']} x {x['n']} x {x['k']} | {x['threads']} | {x['dlc_gflops']:.1f} | "
                  f"{x['openblas_gflops']:.1f} | {x['ratio']:.2f} | {x['of_peak']:.2f} |")
        print()
    if "conv" in r:
        print("| conv | threads | dlc ms | ORT ms | dlc / ORT |")
        print("|---|---:|---:|---:|---:|")
        for x in r["conv"]:
            print(f"| {x['conv']} | {x['threads']} | {x['dlc_ms']:.3f} | {x['ort_ms']:.3f} | "
                  f"{x['ratio']:.2f} |")
        print()
    if "models" in r:
        print("| model | batch | threads | dlc ms | ORT ms | dlc / ORT | dlc compile s |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for x in r["models"]:
            if "error" in x:
                print(f"| {x['model']} | {x['batch']} | - | failed | | | |")
                continue
            print(f"| {x['model']} | {x['batch']} | {x['threads']} | {x['dlc_ms']:.2f} | "
                  f"{x['ort_ms']:.2f} | {x['ratio']:.2f} | {x['compile_s']:.1f} |")
        print()
        s = r.get("summary", {})
        for key in sorted(k for k in s if k.startswith("geomean") or k.startswith("max")):
            print(f"- `{key}`: {fmt(s[key])}")
        for key in sorted(k for k in s if k.startswith("worst")):
            print(f"- `{key}`: {s[key]}")
        if s.get("failed"):
            print(f"- failed: {', '.join(s['failed'])}")
        for key in sorted(k for k in s if k.startswith("dlc_speedup")):
            print(f"- `{key}`: " + ", ".join(f"{name} {v:.2f}" for name, v in s[key].items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
