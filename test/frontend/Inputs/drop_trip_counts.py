"""Writes an ONNX text model as a binary .onnx file, with the trip count of
every Loop whose trip count is the value 'no_trip_count' left out (ONNX 1.12's
text syntax cannot leave out a first input).

usage: drop_trip_counts.py IN.onnxtxt OUT.onnx
"""
import sys

import onnx
import onnx.parser

with open(sys.argv[1]) as f:
    model = onnx.parser.parse_model(f.read())
for node in model.graph.node:
    if node.op_type == "Loop" and node.input[0] == "no_trip_count":
        node.input[0] = ""
kept = [n for n in model.graph.node if list(n.output) != ["no_trip_count"]]
del model.graph.node[:]
model.graph.node.extend(kept)
onnx.save(model, sys.argv[2])
