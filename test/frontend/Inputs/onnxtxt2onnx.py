"""Converts an ONNX text-syntax model to a binary .onnx file.

usage: onnxtxt2onnx.py IN.onnxtxt OUT.onnx [--names NAME,NAME,...]

ONNX 1.12's text syntax cannot name nodes; --names gives the graph's nodes
their names, in order. The model is written as parsed, without running the
ONNX checker, so that tests can feed dlc models that the checker would refuse.
"""
import argparse

import onnx
import onnx.parser

ap = argparse.ArgumentParser()
ap.add_argument("input")
ap.add_argument("output")
ap.add_argument("--names", default="")
args = ap.parse_args()

with open(args.input) as f:
    model = onnx.parser.parse_model(f.read())
names = [n for n in args.names.split(",") if n]
if len(names) > len(model.graph.node):
    raise SystemExit("more names than nodes")
for node, name in zip(model.graph.node, names):
    node.name = name
onnx.save(model, args.output)
