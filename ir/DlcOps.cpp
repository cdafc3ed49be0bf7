//===- DlcOps.cpp - dlc operations: shape inference, verifiers, folders ---===//
#include "ir/DlcOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace dlc;

static constexpr int64_t kDyn = ShapedType::kDynamic;

LogicalResult dlc::broadcastShapes(ArrayRef<int64_t> a, ArrayRef<int64_t> b,
                                   SmallVectorImpl<int64_t> &result) {
  size_t rank = std::max(a.size(), b.size());
  result.assign(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da == 1)
      result[i] = db;
    else if (db == 1)
      result[i] = da;
    else if (da == kDyn)
      result[i] = db;
    else if (db == kDyn || da == db)
      result[i] = da;
    else
      return failure();
  }
  return success();
}

static std::string shapeStr(ArrayRef<int64_t> shape) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "[";
  llvm::interleave(
      shape, os,
      [&](int64_t d) {
        if (d == kDyn)
          os << "?";
        else
          os << d;
      },
      ",");
  os << "]";
  return s;
}

//===----------------------------------------------------------------------===//
// ConstantOp
//===----------------------------------------------------------------------===//

LogicalResult ConstantOp::inferReturnTypes(MLIRContext *, std::optional<Location>,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &types) {
  types.push_back(adaptor.getValue().getType());
  return success();
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

//===----------------------------------------------------------------------===//
// Elementwise binary ops
//===----------------------------------------------------------------------===//

static LogicalResult inferBinary(std::optional<Location> loc, Value lhs,
                                 Value rhs, SmallVectorImpl<Type> &types,
                                 StringRef opName) {
  auto lt = cast<RankedTensorType>(lhs.getType());
  auto rt = cast<RankedTensorType>(rhs.getType());
  if (lt.getElementType() != rt.getElementType())
    return emitOptionalError(loc, opName, ": operand element types differ (",
                             lt.getElementType(), " vs ", rt.getElementType(),
                             ")");
  SmallVector<int64_t> shape;
  if (failed(broadcastShapes(lt.getShape(), rt.getShape(), shape)))
    return emitOptionalError(loc, opName, ": shapes ", shapeStr(lt.getShape()),
                             " and ", shapeStr(rt.getShape()),
                             " do not broadcast");
  types.push_back(RankedTensorType::get(shape, lt.getElementType()));
  return success();
}

#define DLC_BINARY_INFER(OP, NAME)                                             \
  LogicalResult OP::inferReturnTypes(MLIRContext *,                            \
                                     std::optional<Location> loc,              \
                                     Adaptor adaptor,                          \
                                     SmallVectorImpl<Type> &types) {           \
    return inferBinary(loc, adaptor.getLhs(), adaptor.getRhs(), types, NAME);  \
  }
DLC_BINARY_INFER(AddOp, "Add")
DLC_BINARY_INFER(SubOp, "Sub")
DLC_BINARY_INFER(MulOp, "Mul")
DLC_BINARY_INFER(DivOp, "Div")
DLC_BINARY_INFER(PowOp, "Pow")
DLC_BINARY_INFER(MaxOp, "Max")
DLC_BINARY_INFER(MinOp, "Min")
DLC_BINARY_INFER(ModOp, "Mod")
DLC_BINARY_INFER(FmodOp, "Mod")
DLC_BINARY_INFER(PReluOp, "PRelu")
DLC_BINARY_INFER(AndOp, "And")
DLC_BINARY_INFER(ShiftLeftOp, "BitShift")
DLC_BINARY_INFER(ShiftRightOp, "BitShift")
DLC_BINARY_INFER(OrOp, "Or")
DLC_BINARY_INFER(XorOp, "Xor")
#undef DLC_BINARY_INFER

//===----------------------------------------------------------------------===//
// MatMulOp / GemmOp
//===----------------------------------------------------------------------===//

LogicalResult MatMulOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  auto lt = cast<RankedTensorType>(adaptor.getLhs().getType());
  auto rt = cast<RankedTensorType>(adaptor.getRhs().getType());
  if (lt.getRank() == 0 || rt.getRank() == 0)
    return emitOptionalError(loc, "MatMul: operands must have rank >= 1");
  if (lt.getElementType() != rt.getElementType())
    return emitOptionalError(loc, "MatMul: operand element types differ");
  SmallVector<int64_t> a(lt.getShape()), b(rt.getShape());
  bool vecA = a.size() == 1, vecB = b.size() == 1;
  if (vecA)
    a.insert(a.begin(), 1);
  if (vecB)
    b.push_back(1);
  int64_t k1 = a.back(), k2 = b[b.size() - 2];
  if (k1 != kDyn && k2 != kDyn && k1 != k2)
    return emitOptionalError(loc, "MatMul: inner dimensions differ: ",
                             shapeStr(lt.getShape()), " x ",
                             shapeStr(rt.getShape()));
  SmallVector<int64_t> batch;
  if (failed(broadcastShapes(ArrayRef(a).drop_back(2), ArrayRef(b).drop_back(2),
                             batch)))
    return emitOptionalError(loc, "MatMul: batch dimensions of ",
                             shapeStr(lt.getShape()), " and ",
                             shapeStr(rt.getShape()), " do not broadcast");
  if (!vecA)
    batch.push_back(a[a.size() - 2]);
  if (!vecB)
    batch.push_back(b.back());
  types.push_back(RankedTensorType::get(batch, lt.getElementType()));
  return success();
}

LogicalResult GemmOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &types) {
  auto at = cast<RankedTensorType>(adaptor.getA().getType());
  auto bt = cast<RankedTensorType>(adaptor.getB().getType());
  if (at.getRank() != 2 || bt.getRank() != 2)
    return emitOptionalError(loc, "Gemm: A and B must be 2-D, got ",
                             shapeStr(at.getShape()), " and ",
                             shapeStr(bt.getShape()));
  bool ta = adaptor.getTransA(), tb = adaptor.getTransB();
  int64_t m = at.getDimSize(ta ? 1 : 0), k1 = at.getDimSize(ta ? 0 : 1);
  int64_t k2 = bt.getDimSize(tb ? 1 : 0), n = bt.getDimSize(tb ? 0 : 1);
  if (k1 != kDyn && k2 != kDyn && k1 != k2)
    return emitOptionalError(loc, "Gemm: inner dimensions differ (", k1,
                             " vs ", k2, ")");
  if (Value c = adaptor.getC()) {
    SmallVector<int64_t> out;
    auto ct = cast<RankedTensorType>(c.getType());
    if (ct.getRank() > 2 ||
        failed(broadcastShapes({m, n}, ct.getShape(), out)) ||
        (out[0] != m && m != kDyn) || (out[1] != n && n != kDyn))
      return emitOptionalError(loc, "Gemm: C of shape ",
                               shapeStr(ct.getShape()),
                               " does not broadcast to ", shapeStr({m, n}));
  }
  types.push_back(RankedTensorType::get({m, n}, at.getElementType()));
  return success();
}

//===----------------------------------------------------------------------===//
// ConvOp and pooling
//===----------------------------------------------------------------------===//

/// Output size of a sliding window, ONNX formula; kDyn for dynamic input.
static int64_t windowOut(int64_t in, int64_t k, int64_t s, int64_t d,
                         int64_t padBegin, int64_t padEnd, bool ceilMode) {
  if (in == kDyn)
    return kDyn;
  int64_t span = in + padBegin + padEnd - ((k - 1) * d + 1);
  if (span < 0)
    return -1;
  int64_t out = ceilMode ? (span + s - 1) / s + 1 : span / s + 1;
  // A window must start inside the input or the begin padding.
  if (ceilMode && (out - 1) * s >= in + padBegin)
    --out;
  return out;
}

static LogicalResult checkWindowAttrs(std::optional<Location> loc,
                                      StringRef opName, int64_t spatial,
                                      ArrayRef<int64_t> strides,
                                      ArrayRef<int64_t> pads,
                                      ArrayRef<int64_t> dilations) {
  if ((int64_t)strides.size() != spatial ||
      (int64_t)dilations.size() != spatial ||
      (int64_t)pads.size() != 2 * spatial)
    return emitOptionalError(loc, opName, ": expected ", spatial,
                             " strides/dilations and ", 2 * spatial,
                             " pads for a ", spatial, "-D window");
  for (int64_t i = 0; i < spatial; ++i)
    if (strides[i] < 1 || dilations[i] < 1 || pads[i] < 0 ||
        pads[spatial + i] < 0)
      return emitOptionalError(loc, opName,
                               ": strides and dilations must be >= 1 and "
                               "pads >= 0");
  return success();
}

LogicalResult ConvOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &types) {
  auto xt = cast<RankedTensorType>(adaptor.getInput().getType());
  auto wt = cast<RankedTensorType>(adaptor.getWeight().getType());
  int64_t rank = xt.getRank();
  if (rank < 3 || wt.getRank() != rank)
    return emitOptionalError(loc, "Conv: input ", shapeStr(xt.getShape()),
                             " and weight ", shapeStr(wt.getShape()),
                             " must have the same rank >= 3");
  int64_t spatial = rank - 2, group = adaptor.getGroup();
  if (failed(checkWindowAttrs(loc, "Conv", spatial, adaptor.getStrides(),
                              adaptor.getPads(), adaptor.getDilations())))
    return failure();
  int64_t c = xt.getDimSize(1), f = wt.getDimSize(0), cg = wt.getDimSize(1);
  if (group < 1)
    return emitOptionalError(loc, "Conv: group must be >= 1, got ", group);
  if (f != kDyn && f % group != 0)
    return emitOptionalError(loc, "Conv: ", f,
                             " output channels do not divide into ", group,
                             " groups");
  if (c != kDyn && cg != kDyn && c != cg * group)
    return emitOptionalError(loc, "Conv: input has ", c,
                             " channels but weight ", shapeStr(wt.getShape()),
                             " with group ", group, " expects ", cg * group);
  if (Value bias = adaptor.getBias()) {
    auto bt = cast<RankedTensorType>(bias.getType());
    if (bt.getRank() != 1 ||
        (bt.getDimSize(0) != f && bt.getDimSize(0) != kDyn && f != kDyn))
      return emitOptionalError(loc, "Conv: bias must have shape [", f, "]");
  }
  SmallVector<int64_t> shape{xt.getDimSize(0), f};
  for (int64_t i = 0; i < spatial; ++i) {
    if (wt.isDynamicDim(2 + i)) {
      shape.push_back(kDyn);
      continue;
    }
    int64_t out = windowOut(xt.getDimSize(2 + i), wt.getDimSize(2 + i),
                            adaptor.getStrides()[i], adaptor.getDilations()[i],
                            adaptor.getPads()[i],
                            adaptor.getPads()[spatial + i], false);
    if (out == -1 || out == 0)
      return emitOptionalError(loc, "Conv: kernel larger than padded input");
    shape.push_back(out);
  }
  types.push_back(RankedTensorType::get(shape, xt.getElementType()));
  return success();
}

template <typename Adaptor>
static LogicalResult inferPool(std::optional<Location> loc, StringRef opName,
                               Adaptor adaptor, SmallVectorImpl<Type> &types) {
  auto xt = cast<RankedTensorType>(adaptor.getInput().getType());
  int64_t spatial = xt.getRank() - 2;
  ArrayRef<int64_t> k = adaptor.getKernelShape();
  if (spatial < 1 || (int64_t)k.size() != spatial)
    return emitOptionalError(loc, opName, ": input ", shapeStr(xt.getShape()),
                             " does not match kernel_shape of rank ", k.size());
  if (failed(checkWindowAttrs(loc, opName, spatial, adaptor.getStrides(),
                              adaptor.getPads(), adaptor.getDilations())))
    return failure();
  SmallVector<int64_t> shape{xt.getDimSize(0), xt.getDimSize(1)};
  for (int64_t i = 0; i < spatial; ++i) {
    if (adaptor.getPads()[i] >= k[i] || adaptor.getPads()[spatial + i] >= k[i])
      return emitOptionalError(loc, opName,
                               ": pads must be smaller than the kernel");
    int64_t out = windowOut(xt.getDimSize(2 + i), k[i], adaptor.getStrides()[i],
                            adaptor.getDilations()[i], adaptor.getPads()[i],
                            adaptor.getPads()[spatial + i],
                            adaptor.getCeilMode());
    if (out == -1 || out == 0)
      return emitOptionalError(loc, opName,
                               ": kernel larger than padded input");
    shape.push_back(out);
  }
  types.push_back(RankedTensorType::get(shape, xt.getElementType()));
  return success();
}

LogicalResult MaxPoolOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  return inferPool(loc, "MaxPool", adaptor, types);
}

LogicalResult MaxPoolIndicesOp::inferReturnTypes(MLIRContext *ctx,
                                                 std::optional<Location> loc,
                                                 Adaptor adaptor,
                                                 SmallVectorImpl<Type> &types) {
  if (failed(inferPool(loc, "MaxPool", adaptor, types)))
    return failure();
  types[0] = cast<RankedTensorType>(types[0]).clone(IntegerType::get(ctx, 64));
  return success();
}

LogicalResult AvgPoolOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  return inferPool(loc, "AveragePool", adaptor, types);
}

LogicalResult GlobalAvgPoolOp::inferReturnTypes(MLIRContext *,
                                                std::optional<Location> loc,
                                                Adaptor adaptor,
                                                SmallVectorImpl<Type> &types) {
  auto xt = cast<RankedTensorType>(adaptor.getInput().getType());
  if (xt.getRank() < 3)
    return emitOptionalError(loc, "GlobalAveragePool: input rank must be >= 3");
  SmallVector<int64_t> shape(xt.getShape());
  std::fill(shape.begin() + 2, shape.end(), 1);
  types.push_back(RankedTensorType::get(shape, xt.getElementType()));
  return success();
}

//===----------------------------------------------------------------------===//
// BatchNormOp / SoftmaxOp
//===----------------------------------------------------------------------===//

LogicalResult BatchNormOp::verify() {
  auto xt = getInput().getType();
  if (xt.getRank() < 2)
    return emitOpError("input must have rank >= 2");
  int64_t c = xt.getDimSize(1);
  for (Value v : {getScale(), getBias(), getMean(), getVariance()}) {
    auto t = cast<RankedTensorType>(v.getType());
    if (t.getRank() != 1 || (c != kDyn && t.getDimSize(0) != c) ||
        t.getElementType() != xt.getElementType())
      return emitOpError("scale, bias, mean and variance must be [")
             << c << "] tensors of " << xt.getElementType();
  }
  return success();
}

LogicalResult SoftmaxOp::verify() {
  int64_t axis = static_cast<int64_t>(getAxis());
  if (axis < 0 || axis >= getInput().getType().getRank())
    return emitOpError("axis ") << axis << " out of range for rank "
                                << getInput().getType().getRank();
  return success();
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

LogicalResult ReshapeOp::verify() {
  auto in = getInput().getType(), out = getResult().getType();
  if (in.getElementType() != out.getElementType())
    return emitOpError("element type must not change");
  if ((int64_t)getSizes().size() != out.getNumDynamicDims())
    return emitOpError("needs one size per dynamic result dimension (")
           << out.getNumDynamicDims() << "), has " << getSizes().size();
  if (in.hasStaticShape() && out.hasStaticShape() &&
      in.getNumElements() != out.getNumElements())
    return emitOpError("cannot reshape ")
           << shapeStr(in.getShape()) << " (" << in.getNumElements()
           << " elements) to " << shapeStr(out.getShape()) << " ("
           << out.getNumElements() << " elements)";
  return success();
}

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  // (Two dynamic dimensions may trade sizes: [?, ?] -> [?, ?] is no copy
  // only with at most one.)
  if (getInput().getType() == getType() && getType().getNumDynamicDims() <= 1)
    return getInput();
  if (auto producer = getInput().getDefiningOp<ReshapeOp>()) {
    getInputMutable().assign(producer.getInput());
    return getResult();
  }
  if (auto dense = dyn_cast_or_null<DenseElementsAttr>(adaptor.getInput()))
    return dense.reshape(getType());
  if (auto resource =
          dyn_cast_or_null<DenseResourceElementsAttr>(adaptor.getInput());
      resource && getType().hasStaticShape())
    return DenseResourceElementsAttr::get(getType(), resource.getRawHandle());
  return {};
}

LogicalResult TransposeOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  auto xt = cast<RankedTensorType>(adaptor.getInput().getType());
  ArrayRef<int64_t> perm = adaptor.getPerm();
  if ((int64_t)perm.size() != xt.getRank())
    return emitOptionalError(loc, "Transpose: perm has ", perm.size(),
                             " entries for rank ", xt.getRank());
  SmallVector<bool> seen(perm.size(), false);
  SmallVector<int64_t> shape;
  for (int64_t p : perm) {
    if (p < 0 || p >= xt.getRank() || seen[p])
      return emitOptionalError(loc, "Transpose: perm is not a permutation");
    seen[p] = true;
    shape.push_back(xt.getDimSize(p));
  }
  types.push_back(RankedTensorType::get(shape, xt.getElementType()));
  return success();
}

LogicalResult ConcatOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  if (adaptor.getInputs().empty())
    return emitOptionalError(loc, "Concat: needs at least one input");
  auto first = cast<RankedTensorType>(adaptor.getInputs()[0].getType());
  int64_t rank = first.getRank(), axis = adaptor.getAxis();
  if (axis < 0 || axis >= rank)
    return emitOptionalError(loc, "Concat: axis ", axis,
                             " out of range for rank ", rank);
  SmallVector<int64_t> shape(first.getShape());
  for (Value v : adaptor.getInputs().drop_front()) {
    auto t = cast<RankedTensorType>(v.getType());
    if (t.getRank() != rank || t.getElementType() != first.getElementType())
      return emitOptionalError(loc, "Concat: inputs differ in rank or type");
    for (int64_t d = 0; d < rank; ++d) {
      if (d == axis) {
        shape[d] = (shape[d] == kDyn || t.getDimSize(d) == kDyn)
                       ? kDyn
                       : shape[d] + t.getDimSize(d);
      } else if (shape[d] != t.getDimSize(d) && shape[d] != kDyn &&
                 t.getDimSize(d) != kDyn) {
        return emitOptionalError(loc, "Concat: input shapes ",
                                 shapeStr(first.getShape()), " and ",
                                 shapeStr(t.getShape()),
                                 " differ outside axis ", axis);
      }
    }
  }
  types.push_back(RankedTensorType::get(shape, first.getElementType()));
  return success();
}

OpFoldResult ConcatOp::fold(FoldAdaptor adaptor) {
  if (getInputs().size() == 1 && getInputs()[0].getType() == getType())
    return getInputs()[0];
  // Rank-1 constants (shape vectors).
  auto type = getType();
  if (type.getRank() != 1 || !type.hasStaticShape() ||
      type.getNumElements() > 1024)
    return {};
  SmallVector<Attribute> values;
  for (Attribute a : adaptor.getInputs()) {
    auto dense = dyn_cast_or_null<DenseElementsAttr>(a);
    if (!dense)
      return {};
    llvm::append_range(values, dense.getValues<Attribute>());
  }
  return DenseElementsAttr::get(type, values);
}

//===----------------------------------------------------------------------===//
// Run-time checks
//===----------------------------------------------------------------------===//

LogicalResult ReportOp::canonicalize(ReportOp op, PatternRewriter &rewriter) {
  if (!matchPattern(op.getFailed(), m_Zero()))
    return failure();
  rewriter.eraseOp(op);
  return success();
}

LogicalResult CheckIndicesOp::verify() {
  auto indices = getIndices().getType(), bounds = getBounds().getType();
  if (!indices.getElementType().isSignlessInteger() ||
      indices.getElementType().isInteger(1) ||
      !bounds.getElementType().isInteger(64))
    return emitOpError("needs integer indices and int64 bounds, got ")
           << indices << " and " << bounds;
  int64_t last = indices.getRank() ? indices.getDimSize(indices.getRank() - 1)
                                   : int64_t(1);
  if (bounds.getRank() != 1 ||
      (bounds.getDimSize(0) != 1 && bounds.getDimSize(0) != last))
    return emitOpError("bounds must have one element or one per position "
                       "along the indices' last dimension, got ")
           << bounds << " for " << indices;
  return success();
}

#define GET_OP_CLASSES
#include "ir/DlcOps.cpp.inc"
