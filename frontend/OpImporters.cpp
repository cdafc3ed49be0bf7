//===- OpImporters.cpp - ONNX node -> dlc op, one function per op ---------===//
//
// Each importer resolves ONNX attribute semantics for the node's opset
// (defaults, auto_pad, negative axes, constant shape inputs) into the
// explicit attributes of a dlc op. Result types come from the dlc ops' own
// shape inference.
//
//===----------------------------------------------------------------------===//
#include "frontend/AttributeCheck.h"
#include "frontend/ConstantFolding.h"
#include "frontend/NodeImporter.h"
#include "frontend/ShapeValues.h"
#include "frontend/SymbolicDims.h"
#include "ir/DlcOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include "llvm/ADT/StringMap.h"

#include "onnx/defs/schema.h"

#include "mlir/IR/Matchers.h"
#include <climits>
#include <limits>

using namespace mlir;
using namespace dlc;
using Results = FailureOr<SmallVector<Value>>;

//===----------------------------------------------------------------------===//
// NodeContext
//===----------------------------------------------------------------------===//

size_t NodeContext::numUsedOutputs() const {
  size_t n = 0;
  for (const std::string &name : node.output())
    n += !name.empty();
  return n;
}

bool NodeContext::isUnsigned(size_t i) const {
  if (!onnxTypes || i >= (size_t)node.input_size())
    return false;
  auto it = onnxTypes->find(node.input(i));
  if (it == onnxTypes->end())
    return false;
  int t = it->second;
  return t == onnx::TensorProto::UINT8 || t == onnx::TensorProto::UINT16 ||
         t == onnx::TensorProto::UINT32 || t == onnx::TensorProto::UINT64;
}

const onnx::AttributeProto *NodeContext::attr(StringRef name) const {
  if (readAttributes)
    readAttributes->insert(name);
  for (const auto &a : node.attribute())
    if (a.name() == name)
      return &a;
  return nullptr;
}

const onnx::AttributeProto *
NodeContext::schemaDefault(StringRef name,
                           onnx::AttributeProto::AttributeType type) const {
  if (!schemaLooked) {
    schemaLooked = true;
    schema = onnxSchema(node, opset);
  }
  if (!schema)
    return nullptr;
  auto it = schema->attributes().find(name.str());
  if (it == schema->attributes().end() ||
      !it->second.default_value.has_type() ||
      it->second.default_value.type() != type)
    return nullptr;
  return &it->second.default_value;
}

/// Attribute `name` of `nc` read by `get`; absent, the schema's default of
/// `type` (which `dflt`, the importer's, must equal), else `dflt`.
template <typename T, typename Get>
static T attrOrDefault(const NodeContext &nc, StringRef name,
                       onnx::AttributeProto::AttributeType type, T dflt,
                       Get get) {
  if (const auto *a = nc.attr(name))
    return get(*a);
  const auto *d = nc.schemaDefault(name, type);
  assert((!d || get(*d) == dflt) &&
         "an importer's default differs from the schema's");
  return d ? get(*d) : dflt;
}

int64_t NodeContext::intAttr(StringRef name, int64_t dflt) const {
  return attrOrDefault(*this, name, onnx::AttributeProto::INT, dflt,
                       [](const onnx::AttributeProto &a) { return a.i(); });
}

float NodeContext::floatAttr(StringRef name, float dflt) const {
  return attrOrDefault(*this, name, onnx::AttributeProto::FLOAT, dflt,
                       [](const onnx::AttributeProto &a) { return a.f(); });
}

std::string NodeContext::stringAttr(StringRef name, StringRef dflt) const {
  return attrOrDefault(*this, name, onnx::AttributeProto::STRING, dflt.str(),
                       [](const onnx::AttributeProto &a) { return a.s(); });
}

std::optional<SmallVector<int64_t>> NodeContext::intsAttr(StringRef name) const {
  const auto *a = attr(name);
  if (!a)
    return std::nullopt;
  return SmallVector<int64_t>(a->ints().begin(), a->ints().end());
}

InFlightDiagnostic NodeContext::error() const {
  InFlightDiagnostic diag = emitError(loc);
  diag << node.op_type() << " (opset " << opset << "): ";
  return diag;
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

NodeResults dlc::finishOp(NodeContext &nc, OperationState &state) {
  Operation *op = nc.builder.create(state);
  SmallVector<Value> folded;
  if (succeeded(nc.builder.tryFold(op, folded)) && !folded.empty() &&
      folded[0] != op->getResult(0)) {
    op->erase();
    return folded;
  }
  return SmallVector<Value>(op->getResults());
}

NodeResults dlc::importWith(OpBuilder &builder, Location loc,
                            const std::function<Value(Value)> &evaluate,
                            StringRef opType, ArrayRef<Value> operands,
                            ArrayRef<onnx::AttributeProto> attrs,
                            size_t numOutputs) {
  onnx::NodeProto node;
  node.set_op_type(opType.str());
  for (size_t i = 0; i < operands.size(); ++i)
    node.add_input(operands[i] ? "in" + std::to_string(i) : "");
  for (size_t i = 0; i < numOutputs; ++i)
    node.add_output("out" + std::to_string(i));
  for (const onnx::AttributeProto &a : attrs)
    *node.add_attribute() = a;
  SmallVector<Value> ops(operands.begin(), operands.end());
  NodeContext inner(builder, loc, node, /*opset=*/13, ops,
                    ArrayRef<const onnx::TensorProto *>());
  inner.evaluate = evaluate;
  NodeImportFn fn = lookupNodeImporter(opType);
  assert(fn && "importWith builds ops of the table");
  return fn(inner);
}

Value OnnxOps::op(StringRef type, ArrayRef<Value> operands,
                  ArrayRef<onnx::AttributeProto> attrs) {
  if (llvm::is_contained(operands, Value()))
    return Value();
  return one(importAs(nc, type, operands, attrs));
}

Value OnnxOps::i64(ArrayRef<int64_t> shape, ArrayRef<int64_t> values) {
  return int64Constant(nc.builder, nc.loc, shape, values);
}

onnx::AttributeProto dlc::intAttribute(StringRef name, int64_t value) {
  onnx::AttributeProto a;
  a.set_name(name.str());
  a.set_type(onnx::AttributeProto::INT);
  a.set_i(value);
  return a;
}

onnx::AttributeProto dlc::intsAttribute(StringRef name,
                                        ArrayRef<int64_t> values) {
  onnx::AttributeProto a;
  a.set_name(name.str());
  a.set_type(onnx::AttributeProto::INTS);
  for (int64_t v : values)
    a.add_ints(v);
  return a;
}

Value dlc::int64Constant(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                         ArrayRef<int64_t> values) {
  auto type = RankedTensorType::get(shape, b.getI64Type());
  return ConstantOp::create(b, loc, DenseElementsAttr::get(type, values));
}

Value dlc::scalarConstant(NodeContext &nc, Type et, double v) {
  OpBuilder &b = nc.builder;
  TypedAttr a = isa<FloatType>(et) ? TypedAttr(b.getFloatAttr(et, v))
                                   : TypedAttr(b.getIntegerAttr(et, (int64_t)v));
  return ConstantOp::create(
      b, nc.loc, DenseElementsAttr::get(RankedTensorType::get({}, et), a));
}

Value dlc::reduce(NodeContext &nc, Value v, StringRef kind,
                  ArrayRef<int64_t> axes, bool keepdims) {
  OpBuilder &b = nc.builder;
  return one(buildInferred<ReduceOp>(
      nc, {v},
      {b.getNamedAttr("kind", b.getStringAttr(kind)),
       b.getNamedAttr("axes", b.getDenseI64ArrayAttr(axes)),
       b.getNamedAttr("keepdims", b.getBoolAttr(keepdims))}));
}

Value dlc::castValue(NodeContext &nc, Value v, Type et, bool unsignedSource,
                     bool unsignedResult) {
  if (!v)
    return Value();
  auto t = typeOf(v);
  if (t.getElementType() == et)
    return v;
  OpBuilder &b = nc.builder;
  SmallVector<NamedAttribute> attrs;
  if (unsignedSource)
    attrs.push_back(b.getNamedAttr("unsigned_source", b.getUnitAttr()));
  if (unsignedResult)
    attrs.push_back(b.getNamedAttr("unsigned_result", b.getUnitAttr()));
  return one(buildTyped<CastOp>(nc, RankedTensorType::get(t.getShape(), et),
                                {v}, attrs));
}

LogicalResult dlc::requireOperands(NodeContext &nc, size_t min) {
  for (size_t i = 0; i < min; ++i)
    if (!nc.operand(i))
      return nc.error() << "expects at least " << min << " inputs";
  return success();
}

LogicalResult dlc::requireFloat(NodeContext &nc, size_t numOperands) {
  for (size_t i = 0; i < numOperands; ++i)
    if (Value v = nc.operand(i))
      if (!isa<FloatType>(typeOf(v).getElementType()))
        return nc.error() << "input " << i << " has type " << typeOf(v)
                          << "; only floating-point types are supported";
  return success();
}

FailureOr<int64_t> dlc::normalizeAxis(NodeContext &nc, int64_t axis,
                                      int64_t rank) {
  if (rank == 0)
    return nc.error() << "axis " << axis
                      << " names a dimension, and the input is a scalar "
                         "(rank 0)",
           failure();
  if (axis < -rank || axis >= rank)
    return nc.error() << "axis " << axis << " is out of range for rank "
                      << rank,
           failure();
  return axis < 0 ? axis + rank : axis;
}

FailureOr<SmallVector<int64_t>>
dlc::normalizeAxes(NodeContext &nc, ArrayRef<int64_t> axes, int64_t rank) {
  SmallVector<int64_t> result;
  for (int64_t a : axes) {
    FailureOr<int64_t> n = normalizeAxis(nc, a, rank);
    if (failed(n))
      return failure();
    if (llvm::is_contained(result, *n))
      return nc.error() << "axis " << a << " appears twice", failure();
    result.push_back(*n);
  }
  llvm::sort(result);
  return result;
}

Value dlc::checkIndices(NodeContext &nc, Value indices,
                        ArrayRef<int64_t> bounds, Value runTimeBounds) {
  if (!indices)
    return {};
  auto type = typeOf(indices);
  assert(!bounds.empty() && isa<IntegerType>(type.getElementType()) &&
         "checkIndices needs integer indices and bounds");
  if (nc.evaluate && isComputedFromConstants(indices))
    if (Value c = nc.evaluate(indices))
      indices = c;
  // Constant indices within static bounds need no check. Out of range,
  // they keep theirs, which dlc-lower-to-linalg turns into an error of the
  // compile (not here: a dynamic-batch model is imported at trial batch
  // sizes, where the data's batch dimension is not its size).
  DenseIntElementsAttr values;
  if (!runTimeBounds && matchPattern(indices, m_Constant(&values))) {
    int64_t position = 0;
    bool inRange = llvm::all_of(values.getValues<APInt>(), [&](const APInt &v) {
      int64_t i = v.getSExtValue(), n = bounds[position++ % bounds.size()];
      return !ShapedType::isDynamic(n) && i >= -n && i < n;
    });
    if (inRange)
      return indices;
  }
  OpBuilder &b = nc.builder;
  Value boundsValue = runTimeBounds;
  if (!boundsValue)
    boundsValue = int64Constant(b, nc.loc, {(int64_t)bounds.size()}, bounds);
  return CheckIndicesOp::create(b, nc.loc, type, indices, boundsValue,
                                b.getStringAttr(nc.node.op_type()));
}

Value NodeContext::constantOperandValue(size_t i, bool specializeKnown) const {
  Value v = operand(i);
  if (!v || v.getDefiningOp<ConstantOp>())
    return v;
  // An input with a known value (`dlc run`'s data) that must be constant.
  if (const onnx::TensorProto *proto = constantOperand(i);
      specializeKnown && proto && isa<BlockArgument>(v)) {
    std::string error;
    if (auto attr = dyn_cast_or_null<DenseElementsAttr>(
            convertTensor(builder.getContext(), *proto, error));
        attr && attr.getType() == v.getType()) {
      operands[i] = ConstantOp::create(builder, loc, attr);
      return operands[i];
    }
  }
  if (!evaluate)
    return v;
  if (!isComputedFromConstants(v)) {
    Value copy = specializeKnown && specialize ? specialize(v) : Value();
    if (!copy)
      return v;
    v = copy;
  }
  if (Value c = evaluate(v)) {
    operands[i] = c;
    return c;
  }
  return v;
}

std::optional<SmallVector<int64_t>> NodeContext::constantInts(size_t i) const {
  SmallVector<int64_t> values;
  if (const onnx::TensorProto *proto = constantOperand(i))
    if (readIntTensor(*proto, values))
      return values;
  DenseIntElementsAttr attr;
  if (Value v = constantOperandValue(i, /*specializeKnown=*/true);
      v && matchPattern(v, m_Constant(&attr))) {
    for (const APInt &x : attr.getValues<APInt>())
      values.push_back(x.getSExtValue());
    return values;
  }
  return std::nullopt;
}

std::optional<double> NodeContext::constantScalar(size_t i) const {
  if (const onnx::TensorProto *proto = constantOperand(i)) {
    std::string error;
    if (auto attr = dyn_cast_or_null<DenseElementsAttr>(
            convertTensor(builder.getContext(), *proto, error));
        attr && attr.getNumElements() == 1) {
      if (isa<FloatType>(attr.getElementType()))
        return (*attr.getValues<APFloat>().begin()).convertToDouble();
      return (double)(*attr.getValues<APInt>().begin()).getSExtValue();
    }
  }
  DenseElementsAttr attr;
  Value v = constantOperandValue(i);
  if (!v || !matchPattern(v, m_Constant(&attr)) || attr.getNumElements() != 1)
    return std::nullopt;
  if (isa<FloatType>(attr.getElementType()))
    return (*attr.getValues<APFloat>().begin()).convertToDouble();
  return (double)(*attr.getValues<APInt>().begin()).getSExtValue();
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

template <typename OpTy>
static Results importBinary(NodeContext &nc) {
  if (failed(requireOperands(nc, 2)))
    return failure();
  if (nc.opset < 7 && nc.intAttr("broadcast", 0))
    return nc.error() << "legacy broadcast attribute (opset < 7) is not "
                         "supported",
           failure();
  return buildInferred<OpTy>(nc, {nc.operand(0), nc.operand(1)});
}

template <typename OpTy>
static Results importUnary(NodeContext &nc) {
  if (failed(requireOperands(nc, 1)))
    return failure();
  if (!isa<FloatType>(typeOf(nc.operand(0)).getElementType()))
    return nc.error() << "input type " << typeOf(nc.operand(0))
                      << " is not supported (floating point only)",
           failure();
  Value v = OpTy::create(nc.builder, nc.loc, nc.operand(0));
  return SmallVector<Value>{v};
}

static Results importIdentity(NodeContext &nc) {
  if (failed(requireOperands(nc, 1)))
    return failure();
  return SmallVector<Value>{nc.operand(0)};
}

//===----------------------------------------------------------------------===//
// Contractions
//===----------------------------------------------------------------------===//

static Results importMatMul(NodeContext &nc) {
  if (failed(requireOperands(nc, 2)) || failed(requireFloat(nc, 2)))
    return failure();
  return buildInferred<dlc::MatMulOp>(nc, {nc.operand(0), nc.operand(1)});
}

static Results importGemm(NodeContext &nc) {
  if (failed(requireOperands(nc, 2)) || failed(requireFloat(nc, 3)))
    return failure();
  OpBuilder &b = nc.builder;
  SmallVector<Value> operands{nc.operand(0), nc.operand(1)};
  int32_t hasC = nc.operand(2) ? 1 : 0;
  if (hasC)
    operands.push_back(nc.operand(2));
  SmallVector<NamedAttribute> attrs{
      b.getNamedAttr("alpha", b.getF32FloatAttr(nc.floatAttr("alpha", 1.0f))),
      b.getNamedAttr("beta", b.getF32FloatAttr(nc.floatAttr("beta", 1.0f))),
      b.getNamedAttr("transA", b.getBoolAttr(nc.intAttr("transA", 0))),
      b.getNamedAttr("transB", b.getBoolAttr(nc.intAttr("transB", 0)))};
  return buildInferred<dlc::GemmOp>(nc, operands, attrs);
}

//===----------------------------------------------------------------------===//
// Windows: Conv, pooling
//===----------------------------------------------------------------------===//

/// Explicit strides, dilations and pads for a sliding-window node, with
/// auto_pad resolved against the static input shape.
struct Window {
  SmallVector<int64_t> kernel, strides, dilations, pads;
};

static FailureOr<Window> resolveWindow(NodeContext &nc, RankedTensorType input,
                                       ArrayRef<int64_t> kernel,
                                       bool ceilMode) {
  int64_t spatial = input.getRank() - 2;
  Window w;
  w.kernel.assign(kernel.begin(), kernel.end());
  w.strides = nc.intsAttr("strides").value_or(SmallVector<int64_t>(spatial, 1));
  w.dilations =
      nc.intsAttr("dilations").value_or(SmallVector<int64_t>(spatial, 1));
  w.pads = nc.intsAttr("pads").value_or(SmallVector<int64_t>(2 * spatial, 0));
  if ((int64_t)w.kernel.size() != spatial ||
      (int64_t)w.strides.size() != spatial ||
      (int64_t)w.dilations.size() != spatial ||
      (int64_t)w.pads.size() != 2 * spatial)
    return nc.error() << "kernel_shape, strides, dilations and pads do not "
                         "match the input's "
                      << spatial << " spatial dimensions",
           failure();
  std::string autoPad = nc.stringAttr("auto_pad", "NOTSET");
  if (autoPad == "NOTSET")
    return w;
  if (autoPad == "VALID") {
    std::fill(w.pads.begin(), w.pads.end(), 0);
    return w;
  }
  if (autoPad != "SAME_UPPER" && autoPad != "SAME_LOWER")
    return nc.error() << "unknown auto_pad value '" << autoPad << "'",
           failure();
  for (int64_t i = 0; i < spatial; ++i) {
    int64_t in = input.getDimSize(2 + i);
    int64_t s = w.strides[i];
    // With stride 1 the output keeps the input's size and the padding is
    // the window's extent less one, whatever the size.
    if (ShapedType::isDynamic(in) && s != 1)
      return nc.error() << "auto_pad " << autoPad << " with stride " << s
                        << " needs a static spatial size",
             failure();
    int64_t total =
        s == 1 ? (w.kernel[i] - 1) * w.dilations[i]
               : std::max<int64_t>(0, ((in + s - 1) / s - 1) * s +
                                          (w.kernel[i] - 1) * w.dilations[i] +
                                          1 - in);
    int64_t small = total / 2, large = total - small;
    w.pads[i] = autoPad == "SAME_UPPER" ? small : large;
    w.pads[spatial + i] = autoPad == "SAME_UPPER" ? large : small;
  }
  (void)ceilMode;
  return w;
}

static Results importConv(NodeContext &nc) {
  if (failed(requireOperands(nc, 2)) || failed(requireFloat(nc, 3)))
    return failure();
  RankedTensorType x = typeOf(nc.operand(0)), w = typeOf(nc.operand(1));
  if (x.getRank() < 3 || w.getRank() != x.getRank())
    return nc.error() << "input " << x << " and weight " << w
                      << " must have equal rank >= 3",
           failure();
  SmallVector<int64_t> kernel =
      nc.intsAttr("kernel_shape")
          .value_or(SmallVector<int64_t>(w.getShape().drop_front(2)));
  FailureOr<Window> win = resolveWindow(nc, x, kernel, false);
  if (failed(win))
    return failure();
  OpBuilder &b = nc.builder;
  SmallVector<Value> operands{nc.operand(0), nc.operand(1)};
  int32_t hasBias = nc.operand(2) ? 1 : 0;
  if (hasBias)
    operands.push_back(nc.operand(2));
  SmallVector<NamedAttribute> attrs{
      b.getNamedAttr("strides", b.getDenseI64ArrayAttr(win->strides)),
      b.getNamedAttr("pads", b.getDenseI64ArrayAttr(win->pads)),
      b.getNamedAttr("dilations", b.getDenseI64ArrayAttr(win->dilations)),
      b.getNamedAttr("group", b.getI64IntegerAttr(nc.intAttr("group", 1)))};
  return buildInferred<dlc::ConvOp>(nc, operands, attrs);
}

template <typename OpTy>
static Results importPool(NodeContext &nc) {
  if (failed(requireOperands(nc, 1)))
    return failure();
  // MaxPool of 8-bit integers (opset 12): exact in f32, so pooled there
  // (unsigned values convert as such) and converted back.
  Type et = typeOf(nc.operand(0)).getElementType();
  if constexpr (std::is_same_v<OpTy, dlc::MaxPoolOp>) {
    if (et.isInteger(8)) {
      bool isUnsigned = nc.isUnsigned(0);
      Value x =
          castValue(nc, nc.operand(0), nc.builder.getF32Type(), isUnsigned);
      if (!x)
        return failure();
      SmallVector<Value> operands{x};
      NodeContext fc(nc.builder, nc.loc, nc.node, nc.opset, operands, {});
      fc.onnxTypes = nc.onnxTypes;
      fc.readAttributes = nc.readAttributes;
      fc.evaluate = nc.evaluate;
      Results pooled = importPool<OpTy>(fc);
      if (failed(pooled))
        return failure();
      Value y = castValue(nc, (*pooled)[0], et, false, isUnsigned);
      if (!y)
        return failure();
      (*pooled)[0] = y;
      return pooled;
    }
  }
  if (failed(requireFloat(nc, 1)))
    return failure();
  bool indices = nc.node.output_size() > 1 && !nc.node.output(1).empty();
  // storage_order orders the Indices output only.
  if (!indices)
    nc.acknowledgeAttr("storage_order");
  RankedTensorType x = typeOf(nc.operand(0));
  std::optional<SmallVector<int64_t>> kernel = nc.intsAttr("kernel_shape");
  if (!kernel)
    return nc.error() << "missing required attribute kernel_shape", failure();
  if (x.getRank() < 3)
    return nc.error() << "input " << x << " must have rank >= 3", failure();
  bool ceilMode = nc.intAttr("ceil_mode", 0);
  FailureOr<Window> win = resolveWindow(nc, x, *kernel, ceilMode);
  if (failed(win))
    return failure();
  OpBuilder &b = nc.builder;
  SmallVector<NamedAttribute> attrs{
      b.getNamedAttr("kernel_shape", b.getDenseI64ArrayAttr(win->kernel)),
      b.getNamedAttr("strides", b.getDenseI64ArrayAttr(win->strides)),
      b.getNamedAttr("pads", b.getDenseI64ArrayAttr(win->pads)),
      b.getNamedAttr("dilations", b.getDenseI64ArrayAttr(win->dilations)),
      b.getNamedAttr("ceil_mode", b.getBoolAttr(ceilMode)),
      b.getNamedAttr("count_include_pad",
                     b.getBoolAttr(nc.intAttr("count_include_pad", 0)))};
  Results pooled = buildInferred<OpTy>(nc, {nc.operand(0)}, attrs);
  if (failed(pooled) || !indices)
    return pooled;
  // MaxPool's Indices output (storage_order 1: column-major).
  attrs.pop_back();
  attrs.push_back(b.getNamedAttr(
      "column_major", b.getBoolAttr(nc.intAttr("storage_order", 0) != 0)));
  Results where =
      buildInferred<dlc::MaxPoolIndicesOp>(nc, {nc.operand(0)}, attrs);
  if (failed(where))
    return failure();
  return SmallVector<Value>{(*pooled)[0], (*where)[0]};
}

static Results importGlobalAveragePool(NodeContext &nc) {
  if (failed(requireOperands(nc, 1)) || failed(requireFloat(nc, 1)))
    return failure();
  return buildInferred<dlc::GlobalAvgPoolOp>(nc, {nc.operand(0)});
}

//===----------------------------------------------------------------------===//
// Normalization
//===----------------------------------------------------------------------===//

static Results importBatchNormalization(NodeContext &nc) {
  if (failed(requireOperands(nc, 5)) || failed(requireFloat(nc, 5)))
    return failure();
  // scale, B, mean and var hold one value per channel (X's dimension 1).
  RankedTensorType xType = typeOf(nc.operand(0));
  if (xType.getRank() < 2)
    return nc.error() << "input X must have rank >= 2, got " << xType,
           failure();
  static const char *const names[] = {"scale", "B", "input_mean", "input_var"};
  for (size_t i = 1; i < 5; ++i) {
    RankedTensorType t = typeOf(nc.operand(i));
    if (t.getRank() != 1 || (!t.isDynamicDim(0) && !xType.isDynamicDim(1) &&
                             t.getDimSize(0) != xType.getDimSize(1)))
      return nc.error() << "input " << names[i - 1] << " has shape " << t
                        << ", expected one value per channel of " << xType,
             failure();
  }
  bool training = nc.intAttr("training_mode", 0) != 0;
  if (nc.opset < 14 && nc.numUsedOutputs() > 1)
    return nc.error() << "the saved statistics outputs of opsets before 14 "
                         "are not supported",
           failure();
  if (!training && nc.numUsedOutputs() > 1)
    return nc.error() << "running statistics outputs need training_mode=1",
           failure();
  if (nc.opset < 9 && nc.intAttr("spatial", 1) == 0)
    return nc.error() << "spatial=0 is not supported", failure();
  Value x = nc.operand(0), mean = nc.operand(3), var = nc.operand(4);
  Value runningMean, runningVar;
  // momentum moves the running statistics, which inference only reads.
  if (!training)
    nc.acknowledgeAttr("momentum");
  if (training) {
    // Statistics of this batch (population variance) normalize it; the
    // running statistics move towards them by 1 - momentum.
    RankedTensorType xt = typeOf(x);
    if (xt.getRank() < 2)
      return nc.error() << "input must have rank >= 2", failure();
    SmallVector<int64_t> axes;
    for (int64_t d = 0; d < xt.getRank(); ++d)
      if (d != 1)
        axes.push_back(d);
    Type et = xt.getElementType();
    Value batchMean = reduce(nc, x, "mean", axes);
    Value centered = one(buildInferred<dlc::SubOp>(nc, {x, batchMean}));
    Value squares = one(buildInferred<dlc::MulOp>(nc, {centered, centered}));
    Value batchVar = reduce(nc, squares, "mean", axes);
    SmallVector<int64_t> channels = {xt.getDimSize(1)};
    batchMean = one(reshapeTo(nc, batchMean, channels));
    batchVar = one(reshapeTo(nc, batchVar, channels));
    if (!batchMean || !batchVar)
      return failure();
    double momentum = nc.floatAttr("momentum", 0.9f);
    auto blend = [&](Value running, Value batch) {
      Value kept = one(buildInferred<dlc::MulOp>(
          nc, {running, scalarConstant(nc, et, momentum)}));
      Value moved = one(buildInferred<dlc::MulOp>(
          nc, {batch, scalarConstant(nc, et, 1 - momentum)}));
      return one(buildInferred<dlc::AddOp>(nc, {kept, moved}));
    };
    runningMean = blend(mean, batchMean);
    runningVar = blend(var, batchVar);
    mean = batchMean;
    var = batchVar;
  }
  Value v = dlc::BatchNormOp::create(
      nc.builder, nc.loc, typeOf(x), x, nc.operand(1), nc.operand(2), mean, var,
      nc.builder.getF32FloatAttr(nc.floatAttr("epsilon", 1e-5f)));
  if (training)
    return SmallVector<Value>{v, runningMean, runningVar};
  return SmallVector<Value>{v};
}

template <bool Log>
static Results importSoftmax(NodeContext &nc) {
  if (failed(requireOperands(nc, 1)) || failed(requireFloat(nc, 1)))
    return failure();
  RankedTensorType x = typeOf(nc.operand(0));
  bool legacy = nc.opset < 13;
  FailureOr<int64_t> axis =
      normalizeAxis(nc, nc.intAttr("axis", legacy ? 1 : -1), x.getRank());
  if (failed(axis))
    return failure();
  if (x.getRank() == 0)
    return nc.error() << "input must have rank >= 1", failure();
  auto op = dlc::SoftmaxOp::create(nc.builder, nc.loc, x, nc.operand(0),
                                   nc.builder.getI64IntegerAttr(*axis),
                                   legacy ? nc.builder.getUnitAttr() : nullptr,
                                   Log ? nc.builder.getUnitAttr() : nullptr);
  return SmallVector<Value>{op.getResult()};
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

NodeResults dlc::reshapeTo(NodeContext &nc, Value input,
                           ArrayRef<int64_t> shape, ValueRange sizes) {
  if (!input)
    return failure(); // an earlier builder call failed
  RankedTensorType in = typeOf(input);
  auto type = RankedTensorType::get(shape, in.getElementType());
  if (in.hasStaticShape() && type.hasStaticShape() &&
      in.getNumElements() != type.getNumElements())
    return nc.error() << "cannot reshape " << typeOf(input) << " to "
                      << type, failure();
  SmallVector<Value> operands{input};
  if (!type.hasStaticShape() && sizes.empty()) {
    if (in.getNumDynamicDims() != type.getNumDynamicDims())
      return nc.error() << "cannot size the dynamic dimensions of " << type
                        << " reshaping " << in,
             failure();
    llvm::append_range(operands, dynamicSizesOf(nc, input, 0, in.getRank()));
  } else {
    llvm::append_range(operands, sizes);
  }
  return buildTyped<dlc::ReshapeOp>(nc, type, operands);
}

SmallVector<Value> dlc::dynamicSizesOf(NodeContext &nc, Value v, int64_t begin,
                                       int64_t end) {
  if (!v)
    return {};
  auto t = typeOf(v);
  SmallVector<Value> sizes;
  for (int64_t d = begin; d < end; ++d)
    if (t.isDynamicDim(d))
      sizes.push_back(tensor::DimOp::create(nc.builder, nc.loc, v, d));
  return sizes;
}

Value dlc::numElementsOf(NodeContext &nc, Value v, int64_t begin,
                         int64_t end) {
  if (!v)
    return Value();
  RankedTensorType t = typeOf(v);
  int64_t fixed = 1;
  Value n;
  for (int64_t d = begin; d < end; ++d) {
    if (!t.isDynamicDim(d)) {
      fixed *= t.getDimSize(d);
      continue;
    }
    Value size = tensor::DimOp::create(nc.builder, nc.loc, v, d);
    n = n ? arith::MulIOp::create(nc.builder, nc.loc, n, size).getResult()
          : size;
  }
  Value c = arith::ConstantIndexOp::create(nc.builder, nc.loc, fixed);
  return n ? arith::MulIOp::create(nc.builder, nc.loc, n, c).getResult() : c;
}

/// A dlc.report that fails the run when a reshape of `input` to `shape`
/// (its dynamic entries' sizes `sizes`, in order) does not keep the
/// element count. Both counts are built alike (the dynamic sizes' product
/// times the static ones'), so that equal counts fold.
static void reportElementCountMismatch(NodeContext &nc, Value input,
                                       ArrayRef<int64_t> shape,
                                       ValueRange sizes) {
  OpBuilder &b = nc.builder;
  int64_t fixed = 1;
  for (int64_t d : shape)
    if (!ShapedType::isDynamic(d))
      fixed *= d;
  Value n;
  for (Value size : sizes)
    n = n ? arith::MulIOp::create(b, nc.loc, n, size).getResult() : size;
  Value c = arith::ConstantIndexOp::create(b, nc.loc, fixed);
  n = n ? arith::MulIOp::create(b, nc.loc, n, c).getResult() : c;
  RankedTensorType in = typeOf(input);
  Value m = numElementsOf(nc, input, 0, in.getRank());
  Value bad = arith::CmpIOp::create(b, nc.loc, arith::CmpIPredicate::ne, n, m);
  std::string message;
  llvm::raw_string_ostream os(message);
  std::string node;
  nc.loc->walk([&](Location l) {
    if (auto name = dyn_cast<NameLoc>(l)) {
      node = name.getName().str();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (!node.empty())
    os << "node '" << node << "' ";
  os << "(" << nc.node.op_type() << "): the shape input's sizes do not "
     << "multiply to the element count of the input " << in;
  ReportOp::create(b, nc.loc, bad, message);
}

static Results importReshape(NodeContext &nc) {
  if (failed(requireOperands(nc, 1)))
    return failure();
  SmallVector<int64_t> shape;
  // Entries known at run time only (sizes computed from Shape), as index
  // values; null for constant entries.
  SmallVector<Value> given;
  if (nc.opset < 5) {
    shape = nc.intsAttr("shape").value_or(SmallVector<int64_t>{});
  } else {
    if (!nc.operand(1))
      return nc.error() << "missing the shape input", failure();
    std::optional<SmallVector<int64_t>> values = nc.constantInts(1);
    std::optional<SmallVector<OpFoldResult>> elements =
        values ? std::nullopt : shapeElements(nc.operand(1));
    if (values) {
      shape = *values;
    } else if (elements && typeOf(nc.operand(1)).getRank() == 1) {
      given.assign(elements->size(), Value());
      for (auto [i, e] : llvm::enumerate(*elements)) {
        if (auto attr = dyn_cast<Attribute>(e)) {
          shape.push_back(cast<IntegerAttr>(attr).getInt());
          continue;
        }
        // A size read at run time: a dimension's size, never 0 or -1.
        shape.push_back(ShapedType::kDynamic);
        given[i] = indexValueOf(nc.builder, nc.loc, e);
      }
    } else {
      return nc.error() << "the shape input must be a constant or computed "
                           "from tensor shapes (Shape, Gather, Concat, "
                           "integer arithmetic); other computed shapes are "
                           "not supported yet",
             failure();
    }
  }
  given.resize(shape.size());
  RankedTensorType in = typeOf(nc.operand(0));
  bool allowZero = nc.intAttr("allowzero", 0);
  int64_t inferIdx = -1, known = 1;
  // Entries that copy a dynamic input dimension, and whether every dynamic
  // input dimension is copied to its place (then a -1 entry is static).
  SmallVector<bool> copied(shape.size(), false);
  int64_t copiedDynamic = 0;
  for (auto [i, d] : llvm::enumerate(shape)) {
    if (given[i])
      continue;
    if (d == 0 && !allowZero) {
      if ((int64_t)i >= in.getRank())
        return nc.error() << "shape entry 0 at index " << i
                          << " has no input dimension to copy",
               failure();
      d = in.getDimSize(i);
      if (ShapedType::isDynamic(d)) {
        copied[i] = true;
        ++copiedDynamic;
        continue;
      }
    }
    if (d == -1) {
      if (inferIdx >= 0)
        return nc.error() << "shape has more than one -1", failure();
      inferIdx = i;
      continue;
    }
    if (d < 0)
      return nc.error() << "invalid shape entry " << d, failure();
    if (d != 0 && known > std::numeric_limits<int64_t>::max() / d)
      return nc.error() << "the shape's entries multiply past 2^63", failure();
    known *= d;
  }
  // The static part of the input's size, and whether the copies cover its
  // dynamic part.
  int64_t staticElements = 1;
  for (int64_t d : in.getShape())
    if (!ShapedType::isDynamic(d))
      staticElements *= d;
  bool anyGiven = llvm::any_of(given, [](Value v) { return bool(v); });
  bool dynamicInferred =
      inferIdx >= 0 && (copiedDynamic != in.getNumDynamicDims() || anyGiven);
  // The -1 entry over run-time sizes: the input's dynamic dimensions that
  // the other entries do not cancel (dimensions known equal), times the
  // static quotient; static when they all cancel.
  SmallVector<Value> inferredFactors;
  bool inferredSymbolically = false;
  if (dynamicInferred && nc.dims) {
    SmallVector<SymbolicDims::Key> remaining;
    for (int64_t d = 0; d < in.getRank(); ++d)
      if (in.isDynamicDim(d) && !(d < (int64_t)copied.size() && copied[d]))
        remaining.push_back(nc.dims->keyOf(nc.operand(0), d));
    bool cancels = true;
    for (Value g : given) {
      if (!g)
        continue;
      std::optional<SymbolicDims::Key> key = nc.dims->keyOfSize(g);
      auto it = key ? llvm::find(remaining, *key) : remaining.end();
      if (it == remaining.end()) {
        cancels = false;
        break;
      }
      remaining.erase(it);
    }
    if (cancels && known != 0 && staticElements % known == 0) {
      inferredSymbolically = true;
      if (remaining.empty()) {
        dynamicInferred = false;
      } else {
        for (SymbolicDims::Key k : remaining) {
          // A dimension, or a size value of its own (a product of sizes).
          Type t = k.first.getType();
          inferredFactors.push_back(
              isa<ShapedType>(t) ? Value(tensor::DimOp::create(
                                       nc.builder, nc.loc, k.first, k.second))
              : t.isIndex()      ? k.first
                                 : Value(arith::IndexCastOp::create(
                                       nc.builder, nc.loc, nc.builder.getIndexType(),
                                       k.first)));
        }
      }
    }
  }
  if (inferIdx >= 0 && !dynamicInferred) {
    if (known == 0 || staticElements % known != 0)
      return nc.error() << "cannot infer the -1 entry reshaping " << in,
             failure();
    shape[inferIdx] = staticElements / known;
  }
  SmallVector<Value> sizes;
  for (auto [i, d] : llvm::enumerate(shape)) {
    if (given[i]) {
      sizes.push_back(given[i]);
    } else if ((int64_t)i == inferIdx && dynamicInferred &&
               inferredSymbolically) {
      d = ShapedType::kDynamic;
      Value size = arith::ConstantIndexOp::create(nc.builder, nc.loc,
                                                  staticElements / known);
      for (Value f : inferredFactors)
        size = arith::MulIOp::create(nc.builder, nc.loc, size, f);
      sizes.push_back(size);
    } else if (copied[i]) {
      d = ShapedType::kDynamic;
      sizes.push_back(
          tensor::DimOp::create(nc.builder, nc.loc, nc.operand(0), i));
    } else if ((int64_t)i == inferIdx && dynamicInferred) {
      // The input's elements over the other entries' product.
      if (known == 0)
        return nc.error() << "cannot infer the -1 entry reshaping " << in,
               failure();
      d = ShapedType::kDynamic;
      Value rest = arith::ConstantIndexOp::create(nc.builder, nc.loc, known);
      for (auto [j, c] : llvm::enumerate(copied))
        if (c)
          rest = arith::MulIOp::create(
              nc.builder, nc.loc, rest,
              tensor::DimOp::create(nc.builder, nc.loc, nc.operand(0), j));
      for (Value g : given)
        if (g)
          rest = arith::MulIOp::create(nc.builder, nc.loc, rest, g);
      sizes.push_back(arith::DivUIOp::create(
          nc.builder, nc.loc,
          numElementsOf(nc, nc.operand(0), 0, in.getRank()), rest));
    }
  }
  // Sizes read at run time (entries computed from tensor shapes, a -1 entry
  // divided at run time) may not multiply to the input's element count:
  // the run then fails naming the node (dlc.report; canonicalization erases
  // the check where both counts are the same expression).
  if (anyGiven || (dynamicInferred && !inferredSymbolically))
    reportElementCountMismatch(nc, nc.operand(0), shape, sizes);
  return reshapeTo(nc, nc.operand(0), shape, sizes);
}

static Results importFlatten(NodeContext &nc) {
  if (failed(requireOperands(nc, 1)))
    return failure();
  RankedTensorType in = typeOf(nc.operand(0));
  int64_t rank = in.getRank();
  int64_t axis = nc.intAttr("axis", 1);
  if (axis < 0)
    axis += rank;
  if (axis < 0 || axis > rank)
    return nc.error() << "axis " << nc.intAttr("axis", 1)
                      << " is out of range for rank " << rank,
           failure();
  bool outerDynamic = false, innerDynamic = false;
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < rank; ++d) {
    (d < axis ? outerDynamic : innerDynamic) |= in.isDynamicDim(d);
    if (!in.isDynamicDim(d))
      (d < axis ? outer : inner) *= in.getDimSize(d);
  }
  SmallVector<Value> sizes;
  if (outerDynamic) {
    outer = ShapedType::kDynamic;
    sizes.push_back(numElementsOf(nc, nc.operand(0), 0, axis));
  }
  if (innerDynamic) {
    inner = ShapedType::kDynamic;
    sizes.push_back(numElementsOf(nc, nc.operand(0), axis, rank));
  }
  return reshapeTo(nc, nc.operand(0), {outer, inner}, sizes);
}

static Results importTranspose(NodeContext &nc) {
  if (failed(requireOperands(nc, 1)))
    return failure();
  int64_t rank = typeOf(nc.operand(0)).getRank();
  SmallVector<int64_t> perm;
  if (auto p = nc.intsAttr("perm"))
    perm = *p;
  else
    for (int64_t i = rank - 1; i >= 0; --i)
      perm.push_back(i);
  return buildInferred<dlc::TransposeOp>(
      nc, {nc.operand(0)},
      {nc.builder.getNamedAttr("perm", nc.builder.getDenseI64ArrayAttr(perm))});
}

static Results importConcat(NodeContext &nc) {
  SmallVector<Value> inputs;
  for (size_t i = 0; i < nc.numOperands(); ++i)
    if (nc.operand(i))
      inputs.push_back(nc.operand(i));
  if (inputs.empty())
    return nc.error() << "needs at least one input", failure();
  const auto *axisAttr = nc.attr("axis");
  if (!axisAttr && nc.opset >= 4)
    return nc.error() << "missing required attribute axis", failure();
  FailureOr<int64_t> axis = normalizeAxis(nc, axisAttr ? axisAttr->i() : 1,
                                          typeOf(inputs[0]).getRank());
  if (failed(axis))
    return failure();
  return buildInferred<dlc::ConcatOp>(
      nc, inputs,
      {nc.builder.getNamedAttr("axis", nc.builder.getI64IntegerAttr(*axis))});
}

/// Constant nodes holding `value` are handled by the graph importer; this
/// covers the scalar and list forms (value_float, value_ints, ...).
static Results importConstant(NodeContext &nc) {
  OpBuilder &b = nc.builder;
  ElementsAttr value;
  if (const auto *a = nc.attr("value_float"))
    value = DenseElementsAttr::get(RankedTensorType::get({}, b.getF32Type()),
                                   a->f());
  else if (const auto *a = nc.attr("value_int"))
    value = DenseElementsAttr::get(RankedTensorType::get({}, b.getI64Type()),
                                   (int64_t)a->i());
  else if (const auto *a = nc.attr("value_floats"))
    value = DenseElementsAttr::get(
        RankedTensorType::get({a->floats_size()}, b.getF32Type()),
        ArrayRef<float>(a->floats().data(), a->floats_size()));
  else if (const auto *a = nc.attr("value_ints"))
    value = DenseElementsAttr::get(
        RankedTensorType::get({a->ints_size()}, b.getI64Type()),
        ArrayRef<int64_t>(a->ints().data(), a->ints_size()));
  else
    return nc.error() << "only value, value_float(s) and value_int(s) "
                         "constants are supported",
           failure();
  Value v = dlc::ConstantOp::create(b, nc.loc, value);
  return SmallVector<Value>{v};
}

//===----------------------------------------------------------------------===//
// Table
//===----------------------------------------------------------------------===//

dlc::NodeImportFn dlc::lookupNodeImporter(StringRef opType) {
  static const NodeImporterTable table = [] {
    NodeImporterTable t = {
      {"Add", importBinary<dlc::AddOp>},
      {"Sub", importBinary<dlc::SubOp>},
      {"Mul", importBinary<dlc::MulOp>},
      {"Div", importBinary<dlc::DivOp>},
      {"Relu", importUnary<dlc::ReluOp>},
      {"Sigmoid", importUnary<dlc::SigmoidOp>},
      {"Tanh", importUnary<dlc::TanhOp>},
      {"Identity", importIdentity},
      {"MatMul", importMatMul},
      {"Gemm", importGemm},
      {"Conv", importConv},
      {"MaxPool", importPool<dlc::MaxPoolOp>},
      {"AveragePool", importPool<dlc::AvgPoolOp>},
      {"GlobalAveragePool", importGlobalAveragePool},
      {"BatchNormalization", importBatchNormalization},
      {"Softmax", importSoftmax<false>},
      {"LogSoftmax", importSoftmax<true>},
      {"Reshape", importReshape},
      {"Flatten", importFlatten},
      {"Transpose", importTranspose},
      {"Concat", importConcat},
      {"Constant", importConstant},
    };
    addElementwiseImporters(t);
    addTensorImporters(t);
    addLossImporters(t);
    addCompositeImporters(t);
    addResizeImporters(t);
    addConvTransposeImporters(t);
    addRecurrentImporters(t);
    addQuantizationImporters(t);
    addTrainingImporters(t);
    addScatterImporters(t);
    addSignalImporters(t);
    addReverseSequenceImporter(t);
    addGridSampleImporter(t);
    addDataDependentImporters(t);
    return t;
  }();
  auto it = table.find(opType);
  return it == table.end() ? nullptr : it->second;
}

dlc::NodeImportFn dlc::lookupNodeImporter(const onnx::NodeProto &node) {
  if (node.domain().empty() || node.domain() == "ai.onnx")
    return lookupNodeImporter(node.op_type());
  if (node.domain() == "ai.onnx.preview.training")
    return lookupNodeImporter(node.domain() + "." + node.op_type());
  return nullptr;
}
