"""Small ONNX models of the extended op set, with numpy references.

usage: ext_ops.py build DIR
       ext_ops.py check DIR NAME [--perturb EPS]

build writes, for every model NAME below, DIR/NAME/model.onnx,
DIR/NAME/data/input_<i>.pb (seeded random inputs) and
DIR/NAME/expected_<i>.npy (numpy's outputs, computed in float64 and
rounded to the output type).

check compares DIR/NAME/out/output_<i>.pb (as written by `dlc run`) with
the expected outputs: same name, dtype and shape, and values within
rtol 1e-4, atol 1e-5 (exact for integer and bool outputs). It prints
"OK: NAME ..." or exits 1 with the reason. --perturb EPS adds EPS to the
first element of every float output before comparing (to show that the
comparison fails on a wrong result).
"""
import math
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

RTOL, ATOL = 1e-4, 1e-5
F = TensorProto.FLOAT


def erf(x):
    return np.vectorize(math.erf)(x)


def gelu():
    """Gelu as exported by PyTorch: 0.5 * x * (1 + Erf(x / sqrt(2)))."""
    rng = np.random.default_rng(1)
    x = rng.normal(0, 2, (4, 37)).astype(np.float32)
    nodes = [
        helper.make_node("Div", ["x", "sqrt2"], ["t"]),
        helper.make_node("Erf", ["t"], ["e"]),
        helper.make_node("Add", ["e", "one"], ["e1"]),
        helper.make_node("Mul", ["x", "e1"], ["m"]),
        helper.make_node("Mul", ["m", "half"], ["y"]),
    ]
    inits = [numpy_helper.from_array(np.array(v, np.float32), n)
             for n, v in (("sqrt2", math.sqrt(2)), ("one", 1.0), ("half", 0.5))]
    graph = helper.make_graph(
        nodes, "gelu", [helper.make_tensor_value_info("x", F, x.shape)],
        [helper.make_tensor_value_info("y", F, x.shape)], initializer=inits)
    xd = x.astype(np.float64)
    y = 0.5 * xd * (1 + erf(xd / math.sqrt(2)))
    return graph, 13, [x], [("y", y.astype(np.float32))]


def layer_norm():
    """LayerNormalization-17 over the last two axes, with all three outputs."""
    rng = np.random.default_rng(2)
    x = rng.normal(1, 3, (3, 5, 20)).astype(np.float32)
    scale = rng.uniform(0.5, 1.5, (5, 20)).astype(np.float32)
    bias = rng.uniform(-1, 1, (20,)).astype(np.float32)
    node = helper.make_node("LayerNormalization", ["x", "scale", "bias"],
                            ["y", "mean", "inv_std"], axis=-2, epsilon=1e-3)
    graph = helper.make_graph(
        [node], "layer_norm", [helper.make_tensor_value_info("x", F, x.shape)],
        [helper.make_tensor_value_info("y", F, x.shape),
         helper.make_tensor_value_info("mean", F, [3, 1, 1]),
         helper.make_tensor_value_info("inv_std", F, [3, 1, 1])],
        initializer=[numpy_helper.from_array(scale, "scale"),
                     numpy_helper.from_array(bias, "bias")])
    xd = x.astype(np.float64)
    mean = xd.mean(axis=(1, 2), keepdims=True)
    var = ((xd - mean) ** 2).mean(axis=(1, 2), keepdims=True)
    inv = 1 / np.sqrt(var + 1e-3)
    y = (xd - mean) * inv * scale + bias
    return graph, 17, [x], [("y", y.astype(np.float32)),
                            ("mean", mean.astype(np.float32)),
                            ("inv_std", inv.astype(np.float32))]


def variance():
    """ReduceMean -> Sub -> Pow 2 -> ReduceMean: the variance over the last
    axis (keepdims 0), and the centered input."""
    rng = np.random.default_rng(3)
    x = rng.normal(-2, 4, (6, 50)).astype(np.float32)
    nodes = [
        helper.make_node("ReduceMean", ["x"], ["mu"], axes=[-1]),
        helper.make_node("Sub", ["x", "mu"], ["d"]),
        helper.make_node("Pow", ["d", "two"], ["sq"]),
        helper.make_node("ReduceMean", ["sq"], ["var"], axes=[1], keepdims=0),
    ]
    graph = helper.make_graph(
        nodes, "variance", [helper.make_tensor_value_info("x", F, x.shape)],
        [helper.make_tensor_value_info("var", F, [6]),
         helper.make_tensor_value_info("d", F, x.shape)],
        initializer=[numpy_helper.from_array(np.array(2.0, np.float32), "two")])
    xd = x.astype(np.float64)
    d = xd - xd.mean(axis=-1, keepdims=True)
    return graph, 13, [x], [("var", (d ** 2).mean(axis=1).astype(np.float32)),
                            ("d", d.astype(np.float32))]


def where_less():
    """Where(Less(a, b), a, b * 2) with broadcasting, and the mask cast to
    float (bool tensors cross the model boundary as outputs too)."""
    rng = np.random.default_rng(4)
    a = rng.normal(0, 1, (3, 1, 17)).astype(np.float32)
    b = rng.normal(0, 1, (4, 17)).astype(np.float32)
    nodes = [
        helper.make_node("Less", ["a", "b"], ["lt"]),
        helper.make_node("Mul", ["b", "two"], ["b2"]),
        helper.make_node("Where", ["lt", "a", "b2"], ["y"]),
        helper.make_node("Cast", ["lt"], ["ltf"], to=F),
    ]
    graph = helper.make_graph(
        nodes, "where_less",
        [helper.make_tensor_value_info("a", F, a.shape),
         helper.make_tensor_value_info("b", F, b.shape)],
        [helper.make_tensor_value_info("y", F, [3, 4, 17]),
         helper.make_tensor_value_info("lt", TensorProto.BOOL, [3, 4, 17]),
         helper.make_tensor_value_info("ltf", F, [3, 4, 17])],
        initializer=[numpy_helper.from_array(np.array(2.0, np.float32), "two")])
    lt = a < b
    return graph, 13, [a, b], [("y", np.where(lt, a, b * np.float32(2))),
                               ("lt", lt), ("ltf", lt.astype(np.float32))]


def data_movement():
    """Slice (negative and positive steps), Gather (negative indices),
    Tile, Pad, Expand and ArgMax (select_last_index) of one input."""
    rng = np.random.default_rng(5)
    x = rng.normal(0, 1, (5, 6, 7)).astype(np.float32)
    x[2, 3, 1] = x[2, 3, 5] = 9.0  # a tie for ArgMax
    idx = np.array([[4, -1], [0, 2]], np.int64)
    col = np.arange(6, dtype=np.float32).reshape(6, 1)

    def ints(name, v):
        return numpy_helper.from_array(np.array(v, np.int64), name)
    nodes = [
        helper.make_node("Slice", ["x", "s", "e", "ax", "st"], ["sl"]),
        helper.make_node("Slice", ["x", "rs", "re", "rax", "rst"], ["rev"]),
        helper.make_node("Gather", ["x", "idx"], ["g"], axis=1),
        helper.make_node("Tile", ["sl", "rep"], ["t"]),
        helper.make_node("Pad", ["x", "pads", "pv"], ["p"]),
        helper.make_node("Expand", ["col", "shape"], ["ex"]),
        helper.make_node("ArgMax", ["x"], ["am"], axis=2, keepdims=0,
                         select_last_index=1),
    ]
    inits = [ints("s", [0, 1]), ints("e", [100, 7]), ints("ax", [0, -1]),
             ints("st", [2, 3]), ints("rs", [4, -1]), ints("re", [-100, 0]),
             ints("rax", [0, 2]), ints("rst", [-2, -3]),
             numpy_helper.from_array(idx, "idx"),
             ints("rep", [1, 2, 3]), ints("pads", [1, 0, 2, 0, 1, 1]),
             numpy_helper.from_array(np.array(0.5, np.float32), "pv"),
             numpy_helper.from_array(col, "col"), ints("shape", [2, 6, 4])]
    sl = x[0::2, :, 1:7:3]
    outputs = [
        ("sl", sl),
        ("rev", x[4::-2, :, 6:0:-3]),
        ("g", np.take(x, np.where(idx < 0, idx + 6, idx), axis=1)),
        ("t", np.tile(sl, (1, 2, 3))),
        ("p", np.pad(x, ((1, 0), (0, 1), (2, 1)), constant_values=0.5)),
        ("ex", np.broadcast_to(col, (2, 6, 4)).copy()),
        ("am", (6 - np.argmax(x[:, :, ::-1], axis=2)).astype(np.int64)),
    ]

    def info(name, v):
        et = TensorProto.INT64 if v.dtype == np.int64 else F
        return helper.make_tensor_value_info(name, et, v.shape)
    graph = helper.make_graph(nodes, "data_movement", [info("x", x)],
                              [info(n, v) for n, v in outputs],
                              initializer=inits)
    return graph, 13, [x], outputs


MODELS = {f.__name__: f for f in (gelu, layer_norm, variance, where_less,
                                  data_movement)}


def build(root):
    for name, make in MODELS.items():
        graph, opset, inputs, outputs = make()
        model = helper.make_model(
            graph, opset_imports=[helper.make_opsetid("", opset)])
        model.ir_version = 8
        onnx.checker.check_model(model, full_check=True)
        d = os.path.join(root, name)
        os.makedirs(os.path.join(d, "data"), exist_ok=True)
        onnx.save(model, os.path.join(d, "model.onnx"))
        for i, (vi, x) in enumerate(zip(graph.input, inputs)):
            with open(os.path.join(d, "data", f"input_{i}.pb"), "wb") as f:
                f.write(numpy_helper.from_array(x, vi.name).SerializeToString())
        for i, (oname, y) in enumerate(outputs):
            assert graph.output[i].name == oname
            np.save(os.path.join(d, f"expected_{i}.npy"), y)


def check(root, name, perturb):
    d = os.path.join(root, name)
    model = onnx.load(os.path.join(d, "model.onnx"))
    worst = 0.0
    for i, vi in enumerate(model.graph.output):
        expected = np.load(os.path.join(d, f"expected_{i}.npy"))
        path = os.path.join(d, "out", f"output_{i}.pb")
        if not os.path.exists(path):
            sys.exit(f"{name}: missing {path}")
        proto = onnx.load_tensor(path)
        actual = numpy_helper.to_array(proto).copy()
        what = f"{name}: output {i} ({vi.name})"
        if proto.name != vi.name:
            sys.exit(f"{what}: named {proto.name!r}")
        if actual.dtype != expected.dtype or actual.shape != expected.shape:
            sys.exit(f"{what}: {actual.dtype}{list(actual.shape)}, expected "
                     f"{expected.dtype}{list(expected.shape)}")
        if expected.dtype.kind != "f":
            bad = np.flatnonzero(actual != expected)
            if bad.size:
                sys.exit(f"{what}: {bad.size} of {actual.size} values differ, "
                         f"first at flat index {bad[0]}: {actual.flat[bad[0]]} "
                         f"vs {expected.flat[bad[0]]}")
            continue
        if perturb:
            actual.flat[0] += np.float32(perturb)
        if not np.all(np.isfinite(actual)):
            sys.exit(f"{what}: non-finite values")
        err = np.abs(actual.astype(np.float64) - expected)
        tol = ATOL + RTOL * np.abs(expected.astype(np.float64))
        bad = np.flatnonzero(err > tol)
        if bad.size:
            j = bad[0]
            sys.exit(f"{what}: {bad.size} of {actual.size} values outside rtol "
                     f"{RTOL} / atol {ATOL}; first at flat index {j}: "
                     f"{actual.flat[j]} vs {expected.flat[j]}")
        worst = max(worst, float(np.max(err / tol)))
    print(f"OK: {name} (worst error {worst:.3f} of the tolerance)")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "build":
        build(sys.argv[2])
    elif len(sys.argv) in (4, 6) and sys.argv[1] == "check":
        eps = 0.0
        if len(sys.argv) == 6:
            if sys.argv[4] != "--perturb":
                sys.exit(__doc__)
            eps = float(sys.argv[5])
        check(sys.argv[2], sys.argv[3], eps)
    else:
        sys.exit(__doc__)
