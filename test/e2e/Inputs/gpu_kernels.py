"""Small ONNX models shaped so that each kind of CUDA kernel dlc builds is used
(contractions staged in shared memory with fused bias and activation,
batched attention matmuls, convolutions as implicit GEMM, row reductions
with warp shuffles, softmax and layer norm), with inputs and numpy (float64)
references.

usage: gpu_kernels.py build DIR          writes DIR/NAME/{model.onnx,data/}
       gpu_kernels.py check DIR NAME [PRECISION [--short-sums]]
                                         compares DIR/NAME/out with numpy

check prints "OK: NAME (max abs error E)" or the first mismatch and exits 1.
Tolerance: rtol 1e-4, atol 1e-4 (fp32 sums over up to a few hundred terms).
With PRECISION (tf32, fp16 or bf16; the contractions' models only) the
reference rounds the operands of every matmul and convolution to it, as
--gpu-precision does (tf32: to nearest, ties away from zero; bf16: ties to
even; fp16: numpy's float16), and sums in float64, within rtol = atol =
1e-3 (tf32, fp16) or 8e-3 (bf16): an operand computed by an earlier op (a
ReLU's output, a softmax's) may round to the neighbouring value of the
precision where dlc's float32 and the reference's float64 differ in the
last bit. The output must then also differ from the unrounded reference by
more than that somewhere, so that the test fails when the operands are not
rounded (not with --short-sums, for models whose sums are too short for the
rounding to show at that tolerance).
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

RNG = np.random.default_rng(17)


# The precision the contractions' operands are rounded to (check PRECISION),
# and the tolerance (rtol = atol) of each.
PRECISION = ["fp32"]
TOLERANCE = {"fp32": 1e-4, "tf32": 1e-3, "fp16": 1e-3, "bf16": 8e-3}


def rounded(x):
    """x (any float array) as float64 after rounding to PRECISION."""
    x = np.asarray(x, dtype=np.float32)
    p = PRECISION[0]
    if p == "fp16":
        return x.astype(np.float16).astype(np.float64)
    bits = x.view(np.uint32).astype(np.uint64)
    if p == "tf32":
        bits = (bits + 0x1000) & 0xFFFFE000
    elif p == "bf16":
        bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    else:
        return x.astype(np.float64)
    out = (bits & 0xFFFFFFFF).astype(np.uint32).view(np.float32)
    return np.where(np.isnan(x), x, out).astype(np.float64)


def mm(a, b):
    """A contraction at PRECISION: operands rounded, float64 sums."""
    return rounded(a) @ rounded(b)


def rand(*shape, scale=1.0):
    return (RNG.uniform(-1, 1, shape) * scale).astype(np.float32)


def relu(x):
    return np.maximum(x, 0)


def softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def conv2d(x, w, b, stride, pad):
    """NCHW x, FCHW w, float64."""
    x = np.pad(rounded(x), ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    w = rounded(w)
    n, c, h, wd = x.shape
    f, _, kh, kw = w.shape
    oh = (h - kh) // stride + 1
    ow = (wd - kw) // stride + 1
    y = np.zeros((n, f, oh, ow))
    for i in range(kh):
        for j in range(kw):
            patch = x[:, :, i:i + stride * oh:stride, j:j + stride * ow:stride]
            y += np.einsum("nchw,fc->nfhw", patch, w[:, :, i, j])
    return y + b.reshape(1, f, 1, 1)


def models():
    """name -> (nodes, inputs {name: array}, initializers {name: array},
    outputs [(name, shape)], reference(inputs) -> [arrays])."""
    m = {}
    # MatMul + bias + Relu: a contraction with its epilogue in one kernel.
    x, w, b = rand(96, 80), rand(80, 112), rand(112)
    m["matmul_bias_relu"] = (
        [helper.make_node("MatMul", ["x", "W"], ["h"], name="mm"),
         helper.make_node("Add", ["h", "B"], ["a"], name="bias"),
         helper.make_node("Relu", ["a"], ["y"], name="relu")],
        {"x": x}, {"W": w, "B": b}, [("y", [96, 112])],
        lambda i, w=w, b=b: [relu(mm(i["x"], w) + b)])
    # Gemm with transB (the weights read transposed) and beta.
    x, w, b = rand(64, 48), rand(128, 48), rand(128)
    m["gemm_trans_b"] = (
        [helper.make_node("Gemm", ["x", "W", "B"], ["y"], name="fc",
                          alpha=0.5, beta=2.0, transB=1)],
        {"x": x}, {"W": w, "B": b}, [("y", [64, 128])],
        lambda i, w=w, b=b: [0.5 * mm(i["x"], w.T) + 2.0 * b])
    # Batched matmuls of attention: scores, softmax, context.
    q, k, v = rand(4, 64, 32), rand(4, 32, 64), rand(4, 64, 32)
    m["attention"] = (
        [helper.make_node("MatMul", ["q", "k"], ["s"], name="scores"),
         helper.make_node("Softmax", ["s"], ["p"], name="softmax", axis=-1),
         helper.make_node("MatMul", ["p", "v"], ["y"], name="context")],
        {"q": q, "k": k, "v": v}, {}, [("y", [4, 64, 32])],
        lambda i: [mm(softmax(mm(i["q"], i["k"])), i["v"])])
    # Convolutions as implicit GEMM: a padded 3x3 with bias and ReLU, a
    # strided 3x3 with a non-power-of-two channel count, a 1x1 with a
    # residual add.
    x = rand(1, 16, 14, 14)
    w1, b1 = rand(32, 16, 3, 3, scale=0.3), rand(32)
    w2, b2 = rand(24, 32, 3, 3, scale=0.3), rand(24)
    w3, b3 = rand(24, 24, 1, 1, scale=0.3), rand(24)

    def conv_ref(i, w1=w1, b1=b1, w2=w2, b2=b2, w3=w3, b3=b3):
        h = relu(conv2d(i["x"].astype(np.float64), w1, b1, 1, 1))
        g = conv2d(h, w2, b2, 2, 1)
        return [relu(conv2d(g, w3, b3, 1, 0) + g)]
    m["conv_chain"] = (
        [helper.make_node("Conv", ["x", "W1", "B1"], ["c1"], name="conv1",
                          pads=[1, 1, 1, 1], kernel_shape=[3, 3]),
         helper.make_node("Relu", ["c1"], ["r1"], name="relu1"),
         helper.make_node("Conv", ["r1", "W2", "B2"], ["c2"], name="conv2",
                          pads=[1, 1, 1, 1], strides=[2, 2], kernel_shape=[3, 3]),
         helper.make_node("Conv", ["c2", "W3", "B3"], ["c3"], name="conv3",
                          kernel_shape=[1, 1]),
         helper.make_node("Add", ["c3", "c2"], ["s"], name="residual"),
         helper.make_node("Relu", ["s"], ["y"], name="relu3")],
        {"x": x}, {"W1": w1, "B1": b1, "W2": w2, "B2": b2, "W3": w3, "B3": b3},
        [("y", [1, 24, 7, 7])], conv_ref)
    # The same chain on a batch of 4, whose 14 x 14 and 7 x 7 images' pixels
    # (196, 49) no tile of 64 divides: each convolution is one GEMM over
    # the batch's pixels, then an elementwise kernel back to NCHW with the
    # bias and the epilogues.
    nodes, _, weights, _, _ = m["conv_chain"]
    m["conv_batch"] = (nodes, {"x": rand(4, 16, 14, 14)}, weights,
                       [("y", [4, 24, 7, 7])], conv_ref)
    # Row reductions, one warp per row combined by shuffles: a softmax over
    # 128 columns, a layer norm over 96, a global average pool over 7x7, a
    # ReduceMax over 200 (not a multiple of 32).
    x = rand(64, 128, scale=4.0)
    m["softmax_rows"] = (
        [helper.make_node("Softmax", ["x"], ["y"], name="softmax", axis=-1)],
        {"x": x}, {}, [("y", [64, 128])],
        lambda i: [softmax(i["x"].astype(np.float64))])
    x, g, b = rand(32, 96), rand(96), rand(96)

    def ln_ref(i, g=g, b=b):
        v = i["x"].astype(np.float64)
        mu = v.mean(-1, keepdims=True)
        var = ((v - mu) ** 2).mean(-1, keepdims=True)
        return [(v - mu) / np.sqrt(var + 1e-5) * g + b]
    m["layer_norm"] = (
        [helper.make_node("ReduceMean", ["x"], ["mu"], name="mean", axes=[-1]),
         helper.make_node("Sub", ["x", "mu"], ["d"], name="center"),
         helper.make_node("Mul", ["d", "d"], ["d2"], name="square"),
         helper.make_node("ReduceMean", ["d2"], ["var"], name="variance", axes=[-1]),
         helper.make_node("Add", ["var", "eps"], ["ve"], name="eps_add"),
         helper.make_node("Sqrt", ["ve"], ["sd"], name="sqrt"),
         helper.make_node("Div", ["d", "sd"], ["n"], name="normalize"),
         helper.make_node("Mul", ["n", "g"], ["ng"], name="scale"),
         helper.make_node("Add", ["ng", "b"], ["y"], name="shift")],
        {"x": x}, {"eps": np.array([1e-5], np.float32), "g": g, "b": b},
        [("y", [32, 96])], ln_ref)
    x = rand(2, 64, 7, 7)
    m["global_avg_pool"] = (
        [helper.make_node("GlobalAveragePool", ["x"], ["y"], name="gap")],
        {"x": x}, {}, [("y", [2, 64, 1, 1])],
        lambda i: [i["x"].astype(np.float64).mean(axis=(2, 3), keepdims=True)])
    x = rand(48, 200, scale=8.0)
    m["reduce_max"] = (
        [helper.make_node("ReduceMax", ["x"], ["y"], name="max", axes=[1],
                          keepdims=0)],
        {"x": x}, {}, [("y", [48])],
        lambda i: [i["x"].astype(np.float64).max(axis=1)])
    return m


def build(root):
    for name, (nodes, inputs, inits, outputs, _) in models().items():
        d = os.path.join(root, name)
        os.makedirs(os.path.join(d, "data"), exist_ok=True)
        graph = helper.make_graph(
            nodes, name,
            [helper.make_tensor_value_info(n, TensorProto.FLOAT, list(a.shape))
             for n, a in inputs.items()],
            [helper.make_tensor_value_info(n, TensorProto.FLOAT, s)
             for n, s in outputs],
            initializer=[numpy_helper.from_array(a, n) for n, a in inits.items()])
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
        model.ir_version = 8
        onnx.checker.check_model(model)
        onnx.save(model, os.path.join(d, "model.onnx"))
        for i, (n, a) in enumerate(inputs.items()):
            with open(os.path.join(d, "data", f"input_{i}.pb"), "wb") as f:
                f.write(numpy_helper.from_array(a, n).SerializeToString())


def check(root, name, precision="fp32", flag=None):
    nodes, inputs, inits, outputs, reference = models()[name]
    exact = reference(inputs)
    PRECISION[0] = precision
    expected = reference(inputs)
    PRECISION[0] = "fp32"
    worst = 0.0
    # --short-sums: sums too short for the rounding to show at that tolerance.
    visible = precision == "fp32" or flag == "--short-sums"
    for i, want in enumerate(expected):
        t = onnx.TensorProto()
        with open(os.path.join(root, name, "out", f"output_{i}.pb"), "rb") as f:
            t.ParseFromString(f.read())
        got = numpy_helper.to_array(t).astype(np.float64)
        if got.shape != want.shape:
            print(f"FAIL: {name} output {i}: shape {got.shape}, expected {want.shape}")
            return 1
        tol = TOLERANCE[precision]
        err = np.abs(got - want)
        bad = err > tol + tol * np.abs(want)
        visible |= bool((np.abs(got - exact[i]) > tol + tol * np.abs(exact[i])).any())
        if bad.any():
            at = tuple(int(v) for v in np.argwhere(bad)[0])
            print(f"FAIL: {name} output {i}: {int(bad.sum())} values differ, "
                  f"first at {list(at)}: got {got[at]}, expected {want[at]}")
            return 1
        worst = max(worst, float(err.max()))
    if not visible:
        print(f"FAIL: {name} matches the unrounded reference: its operands "
              f"were not rounded to {precision}")
        return 1
    print(f"OK: {name} (max abs error {worst:.2e})")
    return 0


if __name__ == "__main__":
    if sys.argv[1] == "build":
        build(sys.argv[2])
        sys.exit(0)
    sys.exit(check(*sys.argv[2:6]))
