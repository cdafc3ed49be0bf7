"""Writes one-node models that put every default-domain op (every version up
to opset 17, from ONNX's own schemas) on inputs of ranks 0 to 4, and each of
its int attributes at values around and far outside those ranks
(axes, sizes, flags). Most are invalid: dlc must refuse them with a message,
never crash; such values once crashed ONNX 1.12's shape inference and dlc's
importers. With --lists, also int-list attributes of other lengths (pads,
strides, perm, kernel_shape that do not match the rank), float attributes
at NaN, infinity, 0 and -1 and string attributes at values no schema
defines. With --opset N, every model imports opset N. Usage:
schema_sweep.py [--lists] [--opset N] OUT_DIR; prints the number of
models."""
import os
import sys

import warnings

import numpy as np
with warnings.catch_warnings():  # Debian's onnx uses numpy's removed aliases
    warnings.simplefilter("ignore")
    np.float, np.int, np.bool, np.object = float, int, bool, object
import onnx.defs as defs
from onnx import TensorProto, helper

args = sys.argv[1:]
lists = "--lists" in args
# --opset N: every model imports opset N instead of its op version's own
# (opsets past ONNX 1.12's 17 skip its checker: dlc's own checks only).
opset = int(args[args.index("--opset") + 1]) if "--opset" in args else None
out = args[-1]
os.makedirs(out, exist_ok=True)
# The first type of each constraint that dlc's inputs can be.
preferred = [("tensor(float)", TensorProto.FLOAT), ("tensor(int64)", TensorProto.INT64),
             ("tensor(int32)", TensorProto.INT32), ("tensor(bool)", TensorProto.BOOL),
             ("tensor(uint8)", TensorProto.UINT8), ("tensor(int8)", TensorProto.INT8)]
SHAPES = {0: [], 1: [3], 2: [2, 3], 3: [2, 3, 4], 4: [2, 3, 4, 5]}
INT = defs.OpSchema.AttrType.INT
INTS = defs.OpSchema.AttrType.INTS
FLOAT = defs.OpSchema.AttrType.FLOAT
STRING = defs.OpSchema.AttrType.STRING
count = 0
for schema in defs.get_all_schemas_with_history():
    if schema.domain not in ("", "ai.onnx") or schema.since_version > 17:
        continue
    allowed = {c.type_param_str: c.allowed_type_strs for c in schema.type_constraints}
    elems = []
    for formal in schema.inputs:
        types = allowed.get(formal.typeStr, [formal.typeStr])
        elem = next((e for name, e in preferred if name in types), None)
        if elem is None:
            break
        elems.append(elem)
    if len(elems) != len(schema.inputs):
        continue
    kinds = (INT, INTS, FLOAT, STRING) if lists else (INT, INTS)
    ints = [(n, a.type) for n, a in sorted(schema.attributes.items()) if a.type in kinds]
    # (rank of the first input, rank of the others): all alike; with --lists
    # also the first input at rank 4 and the others lower, and the reverse.
    profiles = [(r, r) for r in SHAPES]
    if lists and len(elems) > 1:
        profiles += [(4, r) for r in range(4)] + [(r, 4) for r in range(4)]
    for rank, other in profiles:
        shape = SHAPES[rank]
        # No attribute, then each attribute alone at each value (ranks
        # alike only).
        variants = [(None, None)]
        for name, kind in ints if rank == other else []:
            if kind == FLOAT:
                values = [float("nan"), float("inf"), 0.0, -1.0]
            elif kind == STRING:
                values = ["bogus", ""]
            else:
                values = [-33554435, -rank - 1, -1, 0, rank, 33554435]
                if kind == INTS:
                    values = [[v] for v in values]
                    if lists:
                        values += [[], [1] * (rank + 1), [2] * (2 * rank + 1),
                                   [-1] * rank, [0] * (2 * rank)]
            variants += [(name, v) for v in values]
        for name, value in variants:
            names = [f"in{i}" for i in range(len(elems))]
            inputs = [helper.make_tensor_value_info(n, e, shape if i == 0 else SHAPES[other])
                      for i, (n, e) in enumerate(zip(names, elems))]
            outputs = [f"out{i}" for i in range(len(schema.outputs))]
            node = helper.make_node(schema.name, names, outputs, name="n",
                                    **({name: value} if name else {}))
            graph = helper.make_graph(
                [node], "g", inputs,
                [helper.make_tensor_value_info(o, TensorProto.FLOAT,
                                               [f"d{k}" for k in range(rank)])
                 for o in outputs[:1]])
            model = helper.make_model(
                graph, opset_imports=[helper.make_opsetid("", opset or schema.since_version)])
            model.ir_version = 8
            tag = f"{name}{value}".replace(" ", "") if name else "none"
            ranks = f"r{rank}" if rank == other else f"r{rank}-{other}"
            path = os.path.join(out, f"{schema.name}-{schema.since_version}-{ranks}-{tag}.onnx")
            with open(path, "wb") as f:
                f.write(model.SerializeToString())
            count += 1
    # --lists: each input after the first that is int64 or float becomes a
    # constant (an initializer), at values that are sizes, indices or
    # scales out of any range (the data input at rank 4 and at rank 0).
    if not lists:
        continue
    for i, elem in enumerate(elems):
        if i == 0 or elem not in (TensorProto.INT64, TensorProto.FLOAT):
            continue
        if elem == TensorProto.INT64:
            big, small = 2**63 - 1, -2**63
            constants = [("s0", [], [0]), ("sneg", [], [-1]), ("smin", [], [small]),
                         ("smax", [], [big]), ("empty", [0], []),
                         ("zeros", [4], [0] * 4), ("negs", [4], [-1] * 4),
                         ("huge", [4], [2**40] * 4), ("mins", [4], [small] * 4),
                         ("long", [9], [1] * 9)]
        else:
            nan, inf = float("nan"), float("inf")
            constants = [("snan", [], [nan]), ("sinf", [], [inf]), ("sneg", [], [-1.0]),
                         ("empty", [0], []), ("nans", [4], [nan] * 4),
                         ("zeros", [4], [0.0] * 4), ("negs", [4], [-1.0] * 4),
                         ("infs", [4], [inf] * 4)]
        for rank in (0, 4):
            for tag, dims, vals in constants:
                names = [f"in{k}" for k in range(len(elems))]
                inputs = [helper.make_tensor_value_info(n, e, SHAPES[rank])
                          for k, (n, e) in enumerate(zip(names, elems)) if k != i]
                init = helper.make_tensor(names[i], elem, dims, vals)
                outputs = [f"out{k}" for k in range(len(schema.outputs))]
                node = helper.make_node(schema.name, names, outputs, name="n")
                graph = helper.make_graph(
                    [node], "g", inputs,
                    [helper.make_tensor_value_info(o, TensorProto.FLOAT,
                                                   [f"d{k}" for k in range(rank)])
                     for o in outputs[:1]], initializer=[init])
                model = helper.make_model(
                    graph, opset_imports=[helper.make_opsetid("", opset or schema.since_version)])
                model.ir_version = 8
                path = os.path.join(
                    out, f"{schema.name}-{schema.since_version}-r{rank}-in{i}-{tag}.onnx")
                with open(path, "wb") as f:
                    f.write(model.SerializeToString())
                count += 1
print(f"{count} models")
