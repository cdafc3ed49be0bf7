"""An independent FLOP count of an ONNX model, from its graph and ONNX's
shape inference, for checking `dlc analyze`.

Contractions count 2 FLOPs per multiply-add (Conv, ConvTranspose, Gemm,
MatMul, the LSTM/GRU/RNN gate products), a bias none (it is the
accumulation's initial value, as in torchvision's MAC counts); other ops
count the scalar
floating-point operations their ONNX definitions need per element (the
table below: an Add is 1, a Sigmoid 1 / (1 + exp(-x)) is 4, a Softmax is
max, subtract, exp, sum and divide: 5); shape, index and data-movement ops
count 0. This is the convention docs/analyze.md states for dlc's count,
applied here to ONNX nodes instead of dlc's fused kernels.

usage: count_flops.py MODEL.onnx [--dim NAME=SIZE ...] [--json]
prints "flops F macs M" (or JSON with per-op totals).
"""
import argparse
import json
import sys

import numpy as np
import onnx
import onnx.numpy_helper
from onnx import shape_inference

# FLOPs per output element of elementwise ops.
PER_ELEMENT = {
    "Add": 1, "Sub": 1, "Mul": 1, "Div": 1, "Max": 1, "Min": 1, "Pow": 1,
    "Relu": 1, "Neg": 1, "Abs": 1, "Sqrt": 1, "Exp": 1, "Log": 1,
    "Tanh": 1, "Erf": 1, "Reciprocal": 1, "Floor": 1, "Ceil": 1,
    "Sin": 1, "Cos": 1,
    "Sigmoid": 4,        # 1 / (1 + exp(-x))
    "Clip": 2,           # max, min
    "HardSigmoid": 4,    # alpha * x + beta, clamped
    "HardSwish": 5,      # x * hardsigmoid(x)
    "LeakyRelu": 2,      # x * alpha, select
}
ZERO = {
    "Reshape", "Transpose", "Concat", "Slice", "Flatten", "Shape", "Constant",
    "Unsqueeze", "Squeeze", "Cast", "Expand", "Where", "Equal", "Gather",
    "Identity", "ConstantOfShape", "Range", "Split", "Not", "Less", "Greater",
    "And", "Or", "GatherElements", "Dropout", "Pad", "Tile",
}


def shape_of(shapes, name):
    s = shapes.get(name)
    if s is None:
        raise SystemExit(f"count_flops: no inferred shape for '{name}'")
    return s


def attr(node, name, default):
    for a in node.attribute:
        if a.name == name:
            return onnx.helper.get_attribute_value(a)
    return default


def input_or_empty(node, i):
    return len(node.input) > i and node.input[i]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("model")
    p.add_argument("--dim", action="append", default=[])
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    dims = dict(d.split("=") for d in args.dim)

    model = onnx.load(args.model)
    graph = model.graph
    for vi in graph.input:
        for d in vi.type.tensor_type.shape.dim:
            if d.dim_param:
                d.dim_value = int(dims.get(d.dim_param, 1))
    model = shape_inference.infer_shapes(model, strict_mode=True)
    graph = model.graph
    shapes = {}
    for vi in list(graph.input) + list(graph.value_info) + list(graph.output):
        t = vi.type.tensor_type
        if t.HasField("shape"):
            shapes[vi.name] = [d.dim_value for d in t.shape.dim]
    for init in graph.initializer:
        shapes[init.name] = list(init.dims)

    producers = {out: n for n in graph.node for out in n.output}
    initializers = {i.name: i for i in graph.initializer}

    def constant_value(name, depth=0):
        """The value of `name` if it is a constant (through Expand,
        Identity, Cast, Reshape, Unsqueeze, Squeeze), else None."""
        if name in initializers:
            return onnx.numpy_helper.to_array(initializers[name])
        n = producers.get(name)
        if n is None or depth > 8:
            return None
        if n.op_type == "Constant":
            return onnx.numpy_helper.to_array(attr(n, "value", None))
        if n.op_type == "ConstantOfShape":
            v = attr(n, "value", None)
            return np.zeros(1) if v is None else onnx.numpy_helper.to_array(v)
        if n.op_type in ("Expand", "Identity", "Cast", "Reshape", "Unsqueeze",
                         "Squeeze"):
            return constant_value(n.input[0], depth + 1)
        return None

    def is_constant(name):
        return constant_value(name) is not None

    def is_zero(name):
        v = constant_value(name)
        return v is not None and not np.any(v)

    flops = 0
    macs = 0
    per_op = {}
    unknown = set()
    for node in graph.node:
        op = node.op_type
        f = m = 0
        if op in ("Conv", "ConvTranspose"):
            x = shape_of(shapes, node.input[0])
            w = shape_of(shapes, node.input[1])
            y = shape_of(shapes, node.output[0])
            group = attr(node, "group", 1)
            if op == "Conv":
                # per output element: Cin/group * prod(kernel)
                m = int(np.prod(y)) * w[1] * int(np.prod(w[2:]))
            else:
                # per input element: Cout/group * prod(kernel)
                m = int(np.prod(x)) * w[1] * int(np.prod(w[2:]))
            f = 2 * m
        elif op == "Gemm":
            a = shape_of(shapes, node.input[0])
            y = shape_of(shapes, node.output[0])
            k = a[0] if attr(node, "transA", 0) else a[1]
            m = int(np.prod(y)) * k
            f = 2 * m
            if attr(node, "alpha", 1.0) != 1.0:
                f += int(np.prod(y))
            if len(node.input) > 2 and attr(node, "beta", 1.0) != 1.0:
                f += int(np.prod(y))
        elif op == "MatMul":
            a = shape_of(shapes, node.input[0])
            y = shape_of(shapes, node.output[0])
            m = int(np.prod(y)) * a[-1]
            f = 2 * m
        elif op in ("LSTM", "GRU", "RNN"):
            x = shape_of(shapes, node.input[0])
            w = shape_of(shapes, node.input[1])
            seq, batch = x[0], x[1]
            if attr(node, "layout", 0):
                batch, seq = x[0], x[1]
            dirs, gates_h, inputs = w
            hidden = attr(node, "hidden_size", None)
            gates = gates_h // hidden
            # A zero initial state (absent, or a constant of zeros) needs no
            # recurrent product on the first step.
            zero_state = not input_or_empty(node, 5) or is_zero(node.input[5])
            recurrent_steps = seq - 1 if zero_state else seq
            m = dirs * batch * gates_h * (seq * inputs + recurrent_steps * hidden)
            f = 2 * m
            # Per step, cell and gate: the input and recurrent parts' sum,
            # and the bias (Wb + Rb: one addition when B is a constant,
            # summed once ahead; two otherwise).
            cells = dirs * seq * batch * hidden
            bias = 0
            if input_or_empty(node, 3):
                bias = 1 if is_constant(node.input[3]) else 2
            f += cells * gates * (1 + bias)
            f -= dirs * batch * gates_h if zero_state else 0
            if op == "LSTM":
                # i, f, o sigmoids (4 each), g tanh, c = f*c + i*g (3),
                # h = o * tanh(c) (2)
                f += cells * (12 + 1 + 3 + 2)
            elif op == "GRU":
                # z, r sigmoids (4 each); h~ = tanh(... + r * (h R + Rb))
                # (2 and the tanh); h = (1 - z) h~ + z h (4)
                f += cells * (8 + 2 + 1 + 4)
            else:
                f += cells  # tanh
        elif op in PER_ELEMENT:
            y = shape_of(shapes, node.output[0])
            f = PER_ELEMENT[op] * int(np.prod(y))
        elif op in ("ReduceMean", "ReduceSum", "ReduceMax", "ReduceMin",
                    "GlobalAveragePool", "GlobalMaxPool"):
            x = shape_of(shapes, node.input[0])
            y = shape_of(shapes, node.output[0])
            f = int(np.prod(x))
            if op in ("ReduceMean", "GlobalAveragePool"):
                f += int(np.prod(y))
        elif op in ("MaxPool", "AveragePool"):
            y = shape_of(shapes, node.output[0])
            k = attr(node, "kernel_shape", [])
            f = int(np.prod(y)) * int(np.prod(k))
            if op == "AveragePool":
                f += int(np.prod(y))
        elif op == "Softmax":
            y = shape_of(shapes, node.output[0])
            f = 5 * int(np.prod(y))
        elif op == "LayerNormalization":
            x = shape_of(shapes, node.input[0])
            axis = attr(node, "axis", -1)
            axis = axis if axis >= 0 else axis + len(x)
            rows = int(np.prod(x[:axis]))
            # mean (sum, divide), x - mean, square, sum, variance divide,
            # + epsilon, sqrt, divide by it, scale, bias
            f = int(np.prod(x)) * 6 + rows * 4
        elif op == "BatchNormalization":
            y = shape_of(shapes, node.output[0])
            f = 2 * int(np.prod(y))
        elif op in ZERO:
            f = 0
        else:
            unknown.add(op)
            continue
        flops += f
        macs += m
        per_op[op] = per_op.get(op, 0) + f
    if unknown:
        raise SystemExit("count_flops: no formula for " +
                         ", ".join(sorted(unknown)))
    if args.json:
        print(json.dumps({"flops": flops, "macs": macs, "per_op": per_op}))
    else:
        print(f"flops {flops} macs {macs}")


if __name__ == "__main__":
    main()
