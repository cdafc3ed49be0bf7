#!/usr/bin/python3
"""Print the ONNX backend node tests whose models use only the given op types.

usage: select_tests.py --data OUTDIR --ops MatMul,Gemm,... [--histogram]

Scans OUTDIR/node/test_*/model.onnx (the main graph and every subgraph, e.g.
If/Loop bodies) for (domain, op_type).  Only default-domain ops count as
matching.  Tests whose graph inputs or outputs are not plain tensors
(sequences, optionals, maps) are excluded.  Prints sorted test names, one per
line; --histogram prints to stderr, for each op type, how many selected tests
use it.
"""
import argparse
import collections
import os
import sys

import onnx


def graph_ops(graph):
    """Yield (domain, op_type) of every node in graph and its subgraphs."""
    for node in graph.node:
        yield node.domain or "ai.onnx", node.op_type
        for attr in node.attribute:
            if attr.type == onnx.AttributeProto.GRAPH:
                yield from graph_ops(attr.g)
            elif attr.type == onnx.AttributeProto.GRAPHS:
                for g in attr.graphs:
                    yield from graph_ops(g)


def all_tensors(values):
    return all(v.type.HasField("tensor_type") for v in values)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", required=True, help="generate.sh OUTDIR")
    ap.add_argument("--ops", required=True, help="comma-separated op types")
    ap.add_argument("--histogram", action="store_true",
                    help="print per-op test counts of the selection to stderr")
    args = ap.parse_args()

    allowed = {("ai.onnx", op.strip()) for op in args.ops.split(",") if op.strip()}
    node_dir = os.path.join(args.data, "node")
    selected = []
    hist = collections.Counter()
    for name in sorted(os.listdir(node_dir)):
        path = os.path.join(node_dir, name, "model.onnx")
        if not os.path.isfile(path):
            continue
        model = onnx.load(path)
        g = model.graph
        ops = set(graph_ops(g))
        if ops <= allowed and all_tensors(g.input) and all_tensors(g.output):
            selected.append(name)
            hist.update(op for _, op in ops)

    print("\n".join(selected))
    if args.histogram:
        print(f"{len(selected)} tests", file=sys.stderr)
        for op, n in sorted(hist.items(), key=lambda kv: (-kv[1], kv[0])):
            print(f"  {op:20s} {n}", file=sys.stderr)


if __name__ == "__main__":
    main()
