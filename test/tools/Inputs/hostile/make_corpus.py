"""Writes dlc's corpus of hostile models into OUTDIR: malformed files,
sizes that overflow or do not match their data, external data that escapes
the model's directory or lies outside its file, attributes dlc does not
implement, indices outside their axis, unsupported ops and opsets.

usage: make_corpus.py OUTDIR

OUTDIR/cases.json lists the cases: {"name", "args" (dlc's arguments, paths
relative to OUTDIR), "exit" (the expected exit status), "message" (a
regular expression the error output must match)}. run_corpus.py runs them.
Everything is built here with onnx.helper (no checker) or as raw bytes, so
that the models are as broken as intended.
"""
import json
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
cases = []


def case(name, message, args=None, exit=2, model=None, raw=None, ext="onnx"):
    path = f"{name}.{ext}"
    if model is not None:
        with open(os.path.join(out, path), "wb") as f:
            f.write(model.SerializeToString())
    elif raw is not None:
        with open(os.path.join(out, path), "wb") as f:
            f.write(raw)
    cases.append({"name": name, "args": args or ["compile", path, "--emit=mlir"],
                  "exit": exit, "message": message})


def vi(name, shape, elem=TensorProto.FLOAT):
    return helper.make_tensor_value_info(name, elem, shape)


def model_of(nodes, inputs, outputs, inits=(), opset=13, ir=8):
    g = helper.make_graph(nodes, "g", inputs, outputs, initializer=list(inits))
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)],
                             ir_version=ir)


def relu(shape=(2, 3), opset=13):
    return model_of([helper.make_node("Relu", ["x"], ["y"])], [vi("x", list(shape))],
                    [vi("y", list(shape))], opset=opset)


good = relu().SerializeToString()

# Files that are not models.
case("empty", r"empty|no graph|invalid ONNX model|parse", raw=b"")
case("garbage", r"not an ONNX model|cannot parse|invalid ONNX model",
     raw=bytes(range(256)) * 4)
case("truncated", r"not an ONNX model|cannot parse|truncated|invalid ONNX model",
     raw=good[: len(good) // 2])
case("text-garbage", r"error", raw=b"<ir_version: 8 agraph ((( }", ext="onnxtxt")
os.makedirs(os.path.join(out, "a-directory.onnx"), exist_ok=True)
cases.append({"name": "directory", "args": ["compile", "a-directory.onnx", "--emit=mlir"],
              "exit": 2, "message": r"is a directory"})
cases.append({"name": "missing", "args": ["compile", "no-such-model.onnx", "--emit=mlir"],
              "exit": 2, "message": r"no such file"})

# Graph structure.
case("undefined-input", r"not defined|invalid ONNX model",
     model=model_of([helper.make_node("Relu", ["nowhere"], ["y"])], [vi("x", [2])],
                    [vi("y", [2])]))
case("cycle", r"not defined|invalid ONNX model|topologically",
     model=model_of([helper.make_node("Relu", ["b"], ["a"]),
                     helper.make_node("Relu", ["a"], ["b"])], [vi("x", [2])],
                    [vi("b", [2])]))
case("unsupported-op", r"unsupported ONNX op 'TfIdfVectorizer'",
     model=model_of([helper.make_node("TfIdfVectorizer", ["x"], ["y"], mode="TF",
                                      min_gram_length=1, max_gram_length=1,
                                      max_skip_count=0, ngram_counts=[0],
                                      ngram_indexes=[0], pool_int64s=[1])],
                    [vi("x", [4], TensorProto.INT64)], [vi("y", [1])], opset=9))
m = model_of([helper.make_node("Foo", ["x"], ["y"], domain="com.example")],
             [vi("x", [2])], [vi("y", [2])])
m.opset_import.append(helper.make_opsetid("com.example", 1))
case("unknown-domain", r"unsupported ONNX op 'Foo' of domain 'com.example'", model=m)
case("opset-99", r"the model imports opset 99 of the default ONNX domain; dlc knows opsets 1 to 27",
     model=relu(opset=99))
case("opset-0", r"the model imports opset 0 of the default ONNX domain",
     model=relu(opset=0))
case("dft-20", r"DFT \(opset 20\): ONNX changed the op in DFT-20",
     model=model_of([helper.make_node("DFT", ["x"], ["y"])], [vi("x", [1, 8, 1])],
                    [vi("y", [1, 8, 2])], opset=20))

# Sizes.
case("elements-overflow", r"more elements than 2\^64",
     model=model_of([helper.make_node("Relu", ["x"], ["y"])],
                    [vi("x", [2**40, 2**40])], [vi("y", [2**40, 2**40])]))
case("negative-dim", r"negative dimension",
     model=model_of([helper.make_node("Relu", ["x"], ["y"])], [vi("x", [-3, 2])],
                    [vi("y", [-3, 2])]))
shape = numpy_helper.from_array(np.array([2**25, 2**25], dtype=np.int64), "s")
case("huge-expand", r"needs more than 2\^48 bytes",
     model=model_of([helper.make_node("Expand", ["x", "s"], ["y"])], [vi("x", [1, 1])],
                    [vi("y", [2**25, 2**25])], inits=[shape]))


def add_init(w, opset=13):
    return model_of([helper.make_node("Add", ["x", "w"], ["y"])], [vi("x", [4])],
                    [vi("y", [4])], inits=[w], opset=opset)


w = TensorProto(name="w", data_type=TensorProto.FLOAT, dims=[4])
w.raw_data = np.ones(3, np.float32).tobytes()
case("raw-data-short", r"'w'", model=add_init(w))
w = TensorProto(name="w", data_type=TensorProto.FLOAT, dims=[4])
w.float_data.extend([1.0, 2.0])
case("float-data-short", r"tensor 'w' holds 2 values, its shape has 4 elements",
     model=add_init(w))
# ONNX's checker (opsets up to 17) sees these first; at opset 18 only dlc's
# own checks stand between them and an allocation.
for opset in (13, 18):
    w = TensorProto(name="w", data_type=TensorProto.FLOAT, dims=[2**31, 2**31, 2**31])
    w.raw_data = b"\0" * 16
    case(f"initializer-dims-overflow-{opset}", r"\bw\b.*(0-element|more elements than 2\^63)",
         model=add_init(w, opset))
    w = TensorProto(name="w", data_type=TensorProto.FLOAT, dims=[2**45])
    case(f"initializer-no-data-{opset}",
         r"\bw\b.*(one and only one value|holds 0 values, its shape has 35184372088832)",
         model=add_init(w, opset))
    w = TensorProto(name="w", data_type=TensorProto.FLOAT, dims=[-4])
    w.raw_data = np.ones(4, np.float32).tobytes()
    case(f"initializer-negative-dim-{opset}", r"tensor 'w' has the negative dimension -4",
         model=add_init(w, opset))


# External data.
def external(name, location, offset="0", length="16", write=True):
    d = os.path.join(out, name)
    os.makedirs(d, exist_ok=True)
    w = TensorProto(name="w", data_type=TensorProto.FLOAT, dims=[4])
    w.data_location = TensorProto.EXTERNAL
    for k, v in (("location", location), ("offset", offset), ("length", length)):
        e = w.external_data.add()
        e.key, e.value = k, v
    if write:
        with open(os.path.join(d, "weights.bin"), "wb") as f:
            f.write(np.arange(4, dtype=np.float32).tobytes())
    return os.path.join(name, "model.onnx"), add_init(w)


for name, location, kw, message in [
        ("external-dotdot", "../outside.bin", {}, r"escapes|outside the model's directory"),
        ("external-absolute", "/etc/hostname", {}, r"absolute|escapes|outside"),
        ("external-offset-past-end", "weights.bin", {"offset": "64"}, r"'w'.*(offset|past|beyond|end)"),
        ("external-length-past-end", "weights.bin", {"length": "4096"}, r"'w'.*(length|past|beyond|end|bytes)"),
        ("external-offset-not-a-number", "weights.bin", {"offset": "12abc"}, r"'w'.*offset"),
        ("external-length-huge", "weights.bin", {"length": "18446744073709551615"}, r"'w'"),
        ("external-missing-file", "nothing-here.bin", {}, r"'w'|nothing-here")]:
    path, m = external(name, location, **kw)
    with open(os.path.join(out, path), "wb") as f:
        f.write(m.SerializeToString())
    cases.append({"name": name, "args": ["compile", path, "--emit=mlir"], "exit": 2,
                  "message": message})
path, m = external("external-symlink", "link.bin")
with open(os.path.join(out, path), "wb") as f:
    f.write(m.SerializeToString())
link = os.path.join(out, "external-symlink", "link.bin")
if os.path.lexists(link):
    os.remove(link)
os.symlink("/etc/hostname", link)
cases.append({"name": "external-symlink", "args": ["compile", path, "--emit=mlir"], "exit": 2,
              "message": r"escapes|outside|symbolic link"})

# Attributes.
case("attribute-unknown", r"attribute 'mystery' = 3 is not supported by dlc",
     model=model_of([helper.make_node("Softmax", ["x"], ["y"], mystery=3)],
                    [vi("x", [2, 3])], [vi("y", [2, 3])], opset=18))
case("attribute-stash-type", r"stash_type 2 is not supported",
     model=model_of([helper.make_node("LayerNormalization", ["x", "s"], ["y"], stash_type=2)],
                    [vi("x", [2, 4]), vi("s", [4])], [vi("y", [2, 4])], opset=17))
case("attribute-auto-pad", r"auto_pad|FOO",
     model=model_of([helper.make_node("MaxPool", ["x"], ["y"], kernel_shape=[2, 2],
                                      auto_pad="FOO")],
                    [vi("x", [1, 1, 4, 4])], [vi("y", [1, 1, 2, 2])], opset=18))
case("attribute-axis-range", r"axis",
     model=model_of([helper.make_node("Softmax", ["x"], ["y"], axis=5)],
                    [vi("x", [2, 3])], [vi("y", [2, 3])], opset=18))
case("attribute-perm", r"perm",
     model=model_of([helper.make_node("Transpose", ["x"], ["y"], perm=[0, 0])],
                    [vi("x", [2, 3])], [vi("y", [3, 2])], opset=18))
case("attribute-missing-required", r"kernel_shape",
     model=model_of([helper.make_node("MaxPool", ["x"], ["y"])],
                    [vi("x", [1, 1, 4, 4])], [vi("y", [1, 1, 2, 2])], opset=18))
case("attribute-ceil-too-small", r"kernel larger than padded input",
     model=model_of([helper.make_node("MaxPool", ["x"], ["y"], kernel_shape=[5, 5],
                                      ceil_mode=1, strides=[2, 2])],
                    [vi("x", [1, 1, 4, 4])], [vi("y", [1, 1, 1, 1])], opset=13))

# Shapes that contradict the op (the first two found by fuzzing: they
# crashed the importer).
case("lstm-weight-rank", r"LSTM \(opset 14\): input W must have rank 3, got 'tensor<1x2xf32>'",
     model=model_of([helper.make_node("LSTM", ["x", "w", "r"], ["y"], hidden_size=2)],
                    [vi("x", [3, 1, 2]), vi("w", [1, 2]), vi("r", [1, 8, 2])],
                    [vi("y", [3, 1, 1, 2])], opset=14))
case("lstm-weight-shape", r"input W has shape 'tensor<1x8x3xf32>', expected 'tensor<1x8x2xf32>'",
     model=model_of([helper.make_node("LSTM", ["x", "w", "r"], ["y"], hidden_size=2)],
                    [vi("x", [3, 1, 2]), vi("w", [1, 8, 3]), vi("r", [1, 8, 2])],
                    [vi("y", [3, 1, 1, 2])], opset=14))
case("batchnorm-channels", r"input input_mean has shape 'tensor<63xf32>', expected one value "
     r"per channel of 'tensor<2x3x4x5xf32>'",
     model=model_of([helper.make_node("BatchNormalization", ["x", "s", "b", "m", "v"], ["y"])],
                    [vi("x", [2, 3, 4, 5]), vi("s", [3]), vi("b", [3]), vi("m", [63]),
                     vi("v", [3])], [vi("y", [2, 3, 4, 5])], opset=15))
s = numpy_helper.from_array(np.array([-1, -1], dtype=np.int64), "s")
case("reshape-two-minus-one", r"-1|Reshape",
     model=model_of([helper.make_node("Reshape", ["x", "s"], ["y"])], [vi("x", [2, 3])],
                    [vi("y", [3, 2])], inits=[s], opset=18))
case("matmul-mismatch", r"MatMul",
     model=model_of([helper.make_node("MatMul", ["a", "b"], ["y"])],
                    [vi("a", [2, 3]), vi("b", [4, 5])], [vi("y", [2, 5])], opset=18))
case("declared-output-shape", r"declared as",
     model=model_of([helper.make_node("Relu", ["x"], ["y"])], [vi("x", [2, 3])],
                    [vi("y", [3, 3])], opset=18))

# Indices outside their axis.
i = numpy_helper.from_array(np.array([1, 100000], dtype=np.int64), "i")
case("gather-constant-index", r"Gather: index 100000 is outside \[-4, 4\)",
     model=model_of([helper.make_node("Gather", ["x", "i"], ["y"], axis=0)],
                    [vi("x", [4, 3])], [vi("y", [2, 3])], inits=[i]),
     args=["compile", "gather-constant-index.onnx", "-o", "gather-constant-index.out"])
m = model_of([helper.make_node("Gather", ["x", "i"], ["y"], axis=0)],
             [vi("x", [4, 3]), vi("i", [2], TensorProto.INT64)], [vi("y", [2, 3])])
with open(os.path.join(out, "gather-run-time-index.onnx"), "wb") as f:
    f.write(m.SerializeToString())
for k, idx in ((1, [1, 2]), (2, [1, 100000])):
    d = os.path.join(out, f"gather-data-{k}")
    os.makedirs(d, exist_ok=True)
    for j, (name, value) in enumerate((("x", np.arange(12, dtype=np.float32).reshape(4, 3)),
                                       ("i", np.array(idx, dtype=np.int64)))):
        with open(os.path.join(d, f"input_{j}.pb"), "wb") as f:
            f.write(numpy_helper.from_array(value, name).SerializeToString())
cases.append({"name": "gather-run-time-index",
              "args": ["run", "gather-run-time-index.onnx", "--data", "gather-data-1", "--out",
                       "gather-out-1", "--data", "gather-data-2", "--out", "gather-out-2"],
              "exit": 1,
              "message": r"run: node 'Gather_0' \(Gather\): an index is outside \[-4, 4\)"})

# Index tuples of GatherND and ScatterND with a component outside its own
# dimension (the linear index, 5 of 12, would be inside the data).
i = numpy_helper.from_array(np.array([[0, 5]], dtype=np.int64), "i")
case("gathernd-constant-index", r"GatherND: index 5 \(element 1 of the indices 'tensor<1x2xi64>'\) is outside \[-4, 4\)",
     model=model_of([helper.make_node("GatherND", ["x", "i"], ["y"])],
                    [vi("x", [3, 4])], [vi("y", [1])], inits=[i]),
     args=["compile", "gathernd-constant-index.onnx", "-o", "gathernd-constant-index.out"])
m = model_of([helper.make_node("GatherND", ["x", "i"], ["y"]),
              helper.make_node("ScatterND", ["x", "k", "u"], ["s"])],
             [vi("x", [3, 4]), vi("i", [1, 2], TensorProto.INT64),
              vi("k", [1, 2], TensorProto.INT64), vi("u", [1])],
             [vi("y", [1]), vi("s", [3, 4])])
with open(os.path.join(out, "nd-run-time-index.onnx"), "wb") as f:
    f.write(m.SerializeToString())
for k, (gi, si) in ((1, ([2, 3], [2, -4])), (2, ([1, 1], [-1, 4]))):
    d = os.path.join(out, f"nd-data-{k}")
    os.makedirs(d, exist_ok=True)
    for j, (name, value) in enumerate((("x", np.arange(12, dtype=np.float32).reshape(3, 4)),
                                       ("i", np.array([gi], dtype=np.int64)),
                                       ("k", np.array([si], dtype=np.int64)),
                                       ("u", np.array([7], dtype=np.float32)))):
        with open(os.path.join(d, f"input_{j}.pb"), "wb") as f:
            f.write(numpy_helper.from_array(value, name).SerializeToString())
cases.append({"name": "scatternd-run-time-index",
              "args": ["run", "nd-run-time-index.onnx", "--data", "nd-data-1", "--out",
                       "nd-out-1", "--data", "nd-data-2", "--out", "nd-out-2"],
              "exit": 1,
              "message": r"run: node 'ScatterND_1' \(ScatterND\): an index is outside the data "
                         r"dimension it addresses \(sizes 3, 4\)"})

# A Reshape whose sizes come from a symbolic dimension and do not keep the
# element count for odd N: [(N / 2) * 2, 6] of x [N, 6], run at N = 3.
m = model_of([helper.make_node("Shape", ["x"], ["s"]),
              helper.make_node("Gather", ["s", "zero"], ["n"], axis=0),
              helper.make_node("Div", ["n", "two"], ["h"]),
              helper.make_node("Mul", ["h", "two"], ["hh"]),
              helper.make_node("Concat", ["hh", "six"], ["t"], axis=0),
              helper.make_node("Reshape", ["x", "t"], ["y"], name="halves")],
             [vi("x", ["N", 6])], [vi("y", ["M", 6])],
             inits=[numpy_helper.from_array(np.array([v], np.int64), name)
                    for name, v in (("zero", 0), ("two", 2), ("six", 6))])
with open(os.path.join(out, "reshape-run-time-sizes.onnx"), "wb") as f:
    f.write(m.SerializeToString())
d = os.path.join(out, "reshape-data")
os.makedirs(d, exist_ok=True)
with open(os.path.join(d, "input_0.pb"), "wb") as f:
    f.write(numpy_helper.from_array(np.ones((3, 6), np.float32), "x").SerializeToString())
cases.append({"name": "reshape-run-time-sizes",
              "args": ["run", "reshape-run-time-sizes.onnx", "--dim", "N=1..8", "--data",
                       "reshape-data", "--out", "reshape-out"],
              "exit": 1,
              "message": r"run: node 'halves' \(Reshape\): the shape input's sizes do not "
                         r"multiply to the element count of the input tensor<\?x6xf32>"})

# Data files that are not tensors.
d = os.path.join(out, "bad-data")
os.makedirs(d, exist_ok=True)
with open(os.path.join(d, "input_0.pb"), "wb") as f:
    f.write(b"\xff\xfe garbage")
with open(os.path.join(out, "relu.onnx"), "wb") as f:
    f.write(good)
cases.append({"name": "data-garbage", "args": ["run", "relu.onnx", "--data", "bad-data",
                                               "--out", "bad-data-out"],
              "exit": 1, "message": r"bad-data/input_0.pb: not an ONNX TensorProto"})
d = os.path.join(out, "wrong-shape-data")
os.makedirs(d, exist_ok=True)
with open(os.path.join(d, "input_0.pb"), "wb") as f:
    f.write(numpy_helper.from_array(np.ones((3, 3), np.float32), "x").SerializeToString())
cases.append({"name": "data-wrong-shape", "args": ["run", "relu.onnx", "--data",
                                                   "wrong-shape-data", "--out", "wrong-out"],
              "exit": 1, "message": r"input 'x' .* has shape \[3,3\], the model expects \[2,3\]"})

# A sweep of every op's int attributes found these out-of-range values
# crashing ONNX 1.12's shape inference (GatherND, SIGSEGV; now guarded,
# frontend/GuardedSchemas.cpp) and the importer (MeanVarianceNormalization).
case("gathernd-batch-dims-range",
     r"node 'g': GatherND \(opset 13\): batch_dims -33554435 and index depth 2 do "
     r"not fit data",
     model=model_of([helper.make_node("GatherND", ["x", "i"], ["y"], name="g",
                                      batch_dims=-33554435)],
                    [vi("x", [2, 3, 4]), vi("i", [2, 2], TensorProto.INT64)],
                    [vi("y", ["a"])]))
case("mvn-axes-range",
     r"node 'm': MeanVarianceNormalization \(opset 13\): axis 4 is out of range "
     r"for rank 4",
     model=model_of([helper.make_node("MeanVarianceNormalization", ["x"], ["y"],
                                      name="m", axes=[0, 4])],
                    [vi("x", [2, 3, 4, 5])], [vi("y", [2, 3, 4, 5])]))

# Inputs the fuzzer (scripts/fuzz.sh) found crashing the importer, as it
# wrote them, with the errors they give now.
here = os.path.dirname(os.path.abspath(__file__))
for name, message in [
        ("convtranspose-kernel-shape",
         r"ConvTranspose \(opset 11\): kernel_shape does not match the weight "
         r"'tensor<1x2x3x5xf32>'"),
        # ONNX 1.12's checker died (SIGSEGV) on it: refused before it runs.
        ("layernorm-unknown-attribute",
         r"node '<unnamed>' \(LayerNormalization, opset 17\): attribute 'axi3' is not "
         r"defined by the op's schema"),
        # SmallVector of -2 elements: LLVM's fatal error (abort).
        ("convinteger-rank",
         r"\(ConvInteger\): the input has rank 4 and the weights rank 0"),
        # A target of rank 0: an insertion past a SmallVector's end (assert).
        ("nll-target-rank",
         r"NegativeLogLikelihoodLoss \(opset 13\): needs input \(N, C, d...\), integer "
         r"targets \(N, d...\) and weights \(C\)"),
        # Shape entries whose product overflows int64 (UBSan).
        ("reshape-shape-overflow", r"Reshape \(opset 18\): the shape's entries multiply past 2\^63"),
        # A failed Add whose null result reached sqrt (UBSan).
        ("adagrad-failed-operand", r"Add: shapes \[2\] and \[0\] do not broadcast \(Adagrad node"),
        # ONNX 1.12's shape inference died (SIGSEGV) on it: refused before.
        ("convinteger-rank-mismatch",
         r"\(ConvInteger\): the input has rank 3 and the weights rank 4; they must be equal"),
        # A rank-0 input indexed at its axis (assert).
        ("compress-rank-0", r"Compress \(opset 11\): a rank-0 input is not supported"),
        # ONNX 1.12's shape inference divided by the stride (SIGFPE).
        ("maxpool-zero-stride", r"\(MaxPool\): strides must be positive, got 0"),
        # ONNX 1.12's LayerNormalization inference indexed the shape with
        # the axis (SIGSEGV): guarded (frontend/GuardedSchemas.cpp).
        ("layernorm-axis-range",
         r"node 'LayerNormalization_0': LayerNormalization \(opset 17\): axis "
         r"-33554435 is out of range for rank 4"),
        # A byte 0xFF in Einsum's equation: the empty key of LLVM's
        # DenseMap<char> (assertion).
        ("einsum-byte-ff",
         r"Einsum \(opset 12\): equation '\\FFij,bjk->bik' has the character "
         r"'\\FF'; only letters")]:
    with open(os.path.join(here, "fuzz", name + ".onnx"), "rb") as f:
        case("fuzz-" + name, message, raw=f.read())

with open(os.path.join(out, "cases.json"), "w") as f:
    json.dump(cases, f, indent=1)
print(f"{len(cases)} cases")
