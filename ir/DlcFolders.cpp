//===- DlcFolders.cpp - constant folding of shape arithmetic --------------===//
//
// Models compute shapes from constants (Shape -> Gather -> Mul -> Concat ->
// Reshape). These folders evaluate such chains at import time on small
// integer and float constants.
//
//===----------------------------------------------------------------------===//
#include "ir/DlcOps.h"

#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace dlc;

/// Folds only small tensors: the point is shape arithmetic, not weights.
static constexpr int64_t kMaxFoldElements = 1024;

/// `attr` as a DenseElementsAttr of `type` (splats broadcast), or null.
static DenseElementsAttr asDense(Attribute attr, RankedTensorType type) {
  auto dense = dyn_cast_or_null<DenseElementsAttr>(attr);
  if (!dense || !type.hasStaticShape() ||
      type.getNumElements() > kMaxFoldElements)
    return {};
  if (dense.getType().getShape() == type.getShape())
    return dense;
  if (dense.isSplat())
    return DenseElementsAttr::get(
        RankedTensorType::get(type.getShape(), dense.getElementType()),
        dense.getSplatValue<Attribute>());
  return {};
}

template <typename IntFn, typename FloatFn>
static OpFoldResult foldBinary(Operation *op, ArrayRef<Attribute> operands,
                               IntFn intFn, FloatFn floatFn) {
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  DenseElementsAttr lhs = asDense(operands[0], type),
                    rhs = asDense(operands[1], type);
  if (!lhs || !rhs)
    return {};
  Type et = type.getElementType();
  if (isa<IntegerType>(et) && !et.isInteger(1)) {
    SmallVector<APInt> values;
    for (auto [a, b] : llvm::zip(lhs.getValues<APInt>(), rhs.getValues<APInt>())) {
      std::optional<APInt> v = intFn(a, b);
      if (!v)
        return {};
      values.push_back(*v);
    }
    return DenseElementsAttr::get(type, values);
  }
  if (isa<FloatType>(et)) {
    SmallVector<APFloat> values;
    for (auto [a, b] :
         llvm::zip(lhs.getValues<APFloat>(), rhs.getValues<APFloat>()))
      values.push_back(floatFn(a, b));
    return DenseElementsAttr::get(type, values);
  }
  return {};
}

OpFoldResult AddOp::fold(FoldAdaptor adaptor) {
  return foldBinary(
      *this, adaptor.getOperands(),
      [](const APInt &a, const APInt &b) -> std::optional<APInt> { return a + b; },
      [](APFloat a, const APFloat &b) { a.add(b, APFloat::rmNearestTiesToEven); return a; });
}

OpFoldResult SubOp::fold(FoldAdaptor adaptor) {
  return foldBinary(
      *this, adaptor.getOperands(),
      [](const APInt &a, const APInt &b) -> std::optional<APInt> { return a - b; },
      [](APFloat a, const APFloat &b) { a.subtract(b, APFloat::rmNearestTiesToEven); return a; });
}

OpFoldResult MulOp::fold(FoldAdaptor adaptor) {
  return foldBinary(
      *this, adaptor.getOperands(),
      [](const APInt &a, const APInt &b) -> std::optional<APInt> { return a * b; },
      [](APFloat a, const APFloat &b) { a.multiply(b, APFloat::rmNearestTiesToEven); return a; });
}

OpFoldResult DivOp::fold(FoldAdaptor adaptor) {
  return foldBinary(
      *this, adaptor.getOperands(),
      [](const APInt &a, const APInt &b) -> std::optional<APInt> {
        if (b.isZero())
          return std::nullopt;
        return a.sdiv(b);
      },
      [](APFloat a, const APFloat &b) { a.divide(b, APFloat::rmNearestTiesToEven); return a; });
}

OpFoldResult GatherOp::fold(FoldAdaptor adaptor) {
  auto data = dyn_cast_or_null<DenseElementsAttr>(adaptor.getInput());
  auto indices = dyn_cast_or_null<DenseIntElementsAttr>(adaptor.getIndices());
  auto type = getResult().getType();
  if (!data || !indices || data.getType().getRank() != 1 ||
      type.getNumElements() > kMaxFoldElements)
    return {};
  int64_t n = data.getNumElements();
  SmallVector<Attribute> all(data.getValues<Attribute>());
  SmallVector<Attribute> values;
  for (const APInt &i : indices.getValues<APInt>()) {
    int64_t idx = i.getSExtValue();
    if (idx < 0)
      idx += n;
    if (idx < 0 || idx >= n)
      return {};
    values.push_back(all[idx]);
  }
  return DenseElementsAttr::get(type, values);
}

OpFoldResult SliceOp::fold(FoldAdaptor adaptor) {
  auto data = dyn_cast_or_null<DenseElementsAttr>(adaptor.getInput());
  auto type = getResult().getType();
  if (!data || type.getRank() != 1 || type.getNumElements() > kMaxFoldElements)
    return {};
  SmallVector<Attribute> all(data.getValues<Attribute>());
  SmallVector<Attribute> values;
  for (int64_t i = 0; i < type.getDimSize(0); ++i)
    values.push_back(all[getStarts()[0] + i * getSteps()[0]]);
  return DenseElementsAttr::get(type, values);
}

OpFoldResult NegOp::fold(FoldAdaptor adaptor) {
  auto input = dyn_cast_or_null<DenseElementsAttr>(adaptor.getInput());
  if (!input || input.getNumElements() > kMaxFoldElements)
    return {};
  if (isa<FloatType>(input.getElementType()))
    return input.mapValues(input.getElementType(), [](const APFloat &v) {
      return (-v).bitcastToAPInt();
    });
  return input.mapValues(input.getElementType(),
                         [](const APInt &v) { return -v; });
}
