//===- DlcTensorOps.cpp - elementwise, reduction and data-movement ops ----===//
//
// Shape inference, verifiers and folders of the ops in DlcElementwiseOps.td
// and DlcTensorOps.td. Folders cover the integer arithmetic models use to
// compute shapes (Shape -> Gather -> Concat -> Reshape).
//
//===----------------------------------------------------------------------===//
#include "ir/DlcOps.h"

#include "mlir/Dialect/CommonFolders.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace dlc;

static constexpr int64_t kDyn = ShapedType::kDynamic;

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

LogicalResult dlc::inferBroadcast(std::optional<Location> loc, StringRef opName,
                                  ValueRange operands, Type elementType,
                                  SmallVectorImpl<Type> &types) {
  SmallVector<int64_t> shape;
  for (Value v : operands) {
    auto t = cast<RankedTensorType>(v.getType());
    SmallVector<int64_t> next;
    if (failed(broadcastShapes(shape, t.getShape(), next)))
      return emitOptionalError(loc, opName, ": operand shapes do not broadcast (",
                               t, ")");
    shape = next;
  }
  types.push_back(RankedTensorType::get(shape, elementType));
  return success();
}

#define DLC_COMPARE_INFER(OP, NAME)                                            \
  LogicalResult OP::inferReturnTypes(MLIRContext *ctx,                         \
                                     std::optional<Location> loc,              \
                                     Adaptor adaptor,                          \
                                     SmallVectorImpl<Type> &types) {           \
    if (getElementTypeOrSelf(adaptor.getLhs().getType()) !=                    \
        getElementTypeOrSelf(adaptor.getRhs().getType()))                      \
      return emitOptionalError(loc, NAME ": operand element types differ");    \
    return inferBroadcast(loc, NAME, {adaptor.getLhs(), adaptor.getRhs()},     \
                          IntegerType::get(ctx, 1), types);                    \
  }
DLC_COMPARE_INFER(EqualOp, "Equal")
DLC_COMPARE_INFER(LessOp, "Less")
DLC_COMPARE_INFER(LessOrEqualOp, "LessOrEqual")
DLC_COMPARE_INFER(GreaterOp, "Greater")
DLC_COMPARE_INFER(GreaterOrEqualOp, "GreaterOrEqual")
#undef DLC_COMPARE_INFER

LogicalResult WhereOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &types) {
  if (!getElementTypeOrSelf(adaptor.getCondition().getType()).isInteger(1))
    return emitOptionalError(loc, "Where: the condition must be boolean");
  Type et = getElementTypeOrSelf(adaptor.getLhs().getType());
  if (et != getElementTypeOrSelf(adaptor.getRhs().getType()))
    return emitOptionalError(loc, "Where: operand element types differ");
  return inferBroadcast(loc, "Where",
                        {adaptor.getCondition(), adaptor.getLhs(),
                         adaptor.getRhs()},
                        et, types);
}

LogicalResult CastOp::verify() {
  if (getInput().getType().getShape() != getResult().getType().getShape())
    return emitOpError("input and result shapes differ");
  return success();
}

OpFoldResult CastOp::fold(FoldAdaptor adaptor) {
  auto input = dyn_cast_or_null<DenseElementsAttr>(adaptor.getInput());
  auto type = getResult().getType();
  if (!input)
    return getInput().getType() == type ? getInput() : OpFoldResult();
  Type from = input.getElementType(), to = type.getElementType();
  bool srcUnsigned = getUnsignedSource(), dstUnsigned = getUnsignedResult();
  if (isa<IntegerType>(from) && isa<IntegerType>(to)) {
    unsigned width = to.getIntOrFloatBitWidth();
    return input.mapValues(to, [&](const APInt &v) {
      if (width == 1)
        return APInt(1, !v.isZero());
      return srcUnsigned || v.getBitWidth() == 1 ? v.zextOrTrunc(width)
                                                  : v.sextOrTrunc(width);
    });
  }
  if (isa<IntegerType>(from) && isa<FloatType>(to)) {
    auto ft = cast<FloatType>(to);
    return input.mapValues(to, [&](const APInt &v) {
      APFloat f(ft.getFloatSemantics());
      f.convertFromAPInt(v, !srcUnsigned && v.getBitWidth() > 1,
                         APFloat::rmNearestTiesToEven);
      return f.bitcastToAPInt();
    });
  }
  if (isa<FloatType>(from) && isa<IntegerType>(to)) {
    unsigned width = to.getIntOrFloatBitWidth();
    return input.mapValues(to, [&](const APFloat &v) {
      if (width == 1)
        return APInt(1, !v.isZero());
      APSInt result(width, dstUnsigned);
      bool exact;
      v.convertToInteger(result, APFloat::rmTowardZero, &exact);
      return APInt(result);
    });
  }
  if (isa<FloatType>(from) && isa<FloatType>(to)) {
    auto ft = cast<FloatType>(to);
    return input.mapValues(to, [&](const APFloat &v) {
      APFloat f = v;
      bool lost;
      f.convert(ft.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
      return f.bitcastToAPInt();
    });
  }
  return {};
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

LogicalResult ReduceOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  auto t = cast<RankedTensorType>(adaptor.getInput().getType());
  static const char *kinds[] = {"sum", "mean", "max", "min", "prod",
                                "l1", "l2", "log_sum", "log_sum_exp",
                                "sum_square"};
  if (!llvm::is_contained(kinds, adaptor.getKind()))
    return emitOptionalError(loc, "Reduce: unknown kind '", adaptor.getKind(),
                             "'");
  SmallVector<int64_t> shape;
  ArrayRef<int64_t> axes = adaptor.getAxes();
  for (int64_t a : axes)
    if (a < 0 || a >= t.getRank())
      return emitOptionalError(loc, "Reduce: axis ", a,
                               " out of range for rank ", t.getRank());
  for (int64_t d = 0; d < t.getRank(); ++d) {
    if (!llvm::is_contained(axes, d))
      shape.push_back(t.getDimSize(d));
    else if (adaptor.getKeepdims())
      shape.push_back(1);
  }
  types.push_back(RankedTensorType::get(shape, t.getElementType()));
  return success();
}

LogicalResult ArgReduceOp::inferReturnTypes(MLIRContext *ctx,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  auto t = cast<RankedTensorType>(adaptor.getInput().getType());
  int64_t axis = adaptor.getAxis();
  if (axis < 0 || axis >= t.getRank())
    return emitOptionalError(loc, "ArgMax/ArgMin: axis ", axis,
                             " out of range for rank ", t.getRank());
  SmallVector<int64_t> shape(t.getShape());
  if (adaptor.getKeepdims())
    shape[axis] = 1;
  else
    shape.erase(shape.begin() + axis);
  types.push_back(RankedTensorType::get(shape, IntegerType::get(ctx, 64)));
  return success();
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

LogicalResult SliceOp::verify() {
  auto in = getInput().getType(), out = getResult().getType();
  if ((int64_t)getStarts().size() != in.getRank() ||
      (int64_t)getSteps().size() != in.getRank() || out.getRank() != in.getRank())
    return emitOpError("starts and steps need one entry per dimension");
  for (int64_t d = 0; d < in.getRank(); ++d) {
    int64_t n = out.getDimSize(d), start = getStarts()[d], step = getSteps()[d];
    if (step == 0)
      return emitOpError("step of dimension ") << d << " is zero";
    if (n == 0 || in.isDynamicDim(d))
      continue;
    int64_t last = start + (n - 1) * step;
    if (start < 0 || start >= in.getDimSize(d) || last < 0 ||
        last >= in.getDimSize(d))
      return emitOpError("dimension ") << d << " reads outside the input";
  }
  return success();
}

LogicalResult GatherOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  auto data = cast<RankedTensorType>(adaptor.getInput().getType());
  auto indices = cast<RankedTensorType>(adaptor.getIndices().getType());
  int64_t axis = adaptor.getAxis();
  if (axis < 0 || axis >= data.getRank())
    return emitOptionalError(loc, "Gather: axis ", axis,
                             " out of range for rank ", data.getRank());
  if (!isa<IntegerType>(indices.getElementType()))
    return emitOptionalError(loc, "Gather: indices must be integers");
  SmallVector<int64_t> shape(data.getShape().take_front(axis));
  llvm::append_range(shape, indices.getShape());
  llvm::append_range(shape, data.getShape().drop_front(axis + 1));
  types.push_back(RankedTensorType::get(shape, data.getElementType()));
  return success();
}

LogicalResult ExpandOp::verify() {
  SmallVector<int64_t> shape;
  auto out = getResult().getType();
  if (failed(broadcastShapes(getInput().getType().getShape(), out.getShape(),
                             shape)) ||
      ArrayRef(shape) != out.getShape())
    return emitOpError("input does not broadcast to the result shape");
  return success();
}

LogicalResult TileOp::verify() {
  auto in = getInput().getType(), out = getResult().getType();
  if (in.getRank() != out.getRank())
    return emitOpError("rank must not change");
  for (int64_t d = 0; d < in.getRank(); ++d)
    if (in.getDimSize(d) == 0 ? out.getDimSize(d) != 0
                              : out.getDimSize(d) % in.getDimSize(d) != 0)
      return emitOpError("result dimension ")
             << d << " is not a multiple of the input's";
  return success();
}

LogicalResult PadOp::verify() {
  auto in = getInput().getType(), out = getResult().getType();
  int64_t rank = in.getRank();
  if ((int64_t)getPads().size() != 2 * rank || out.getRank() != rank)
    return emitOpError("pads need two entries per dimension");
  for (int64_t d = 0; d < rank; ++d)
    if (getPads()[d] < 0 || getPads()[rank + d] < 0 ||
        (in.isDynamicDim(d)
             ? !out.isDynamicDim(d)
             : out.getDimSize(d) !=
                   in.getDimSize(d) + getPads()[d] + getPads()[rank + d]))
      return emitOpError("pads of dimension ") << d
                                               << " do not match the result";
  return success();
}

LogicalResult GatherElementsOp::verify() {
  auto in = getInput().getType(), idx = getIndices().getType();
  int64_t axis = static_cast<int64_t>(getAxis());
  if (in.getRank() != idx.getRank() || axis < 0 || axis >= in.getRank())
    return emitOpError("input and indices must have the same rank, with axis "
                       "in range");
  if (!isa<IntegerType>(idx.getElementType()))
    return emitOpError("indices must be integers");
  if (getResult().getType().getShape() != idx.getShape() ||
      getResult().getType().getElementType() != in.getElementType())
    return emitOpError("result must have the indices' shape and the input's "
                       "element type");
  return success();
}

LogicalResult DetOp::verify() {
  RankedTensorType in = getInput().getType(), out = getResult().getType();
  int64_t rank = in.getRank();
  if (rank < 2 || !in.hasStaticShape() ||
      in.getDimSize(rank - 1) != in.getDimSize(rank - 2))
    return emitOpError("input must be static square matrices [..., M, M], got ")
           << in;
  if (out.getShape() != in.getShape().drop_back(2) ||
      out.getElementType() != in.getElementType())
    return emitOpError("result must have the input's leading dimensions and "
                       "element type");
  return success();
}

LogicalResult RoiAlignOp::verify() {
  RankedTensorType x = getInput().getType(), rois = getRois().getType(),
                   idx = getBatchIndices().getType(), out = getType();
  if (x.getRank() != 4 || !x.hasStaticShape() || rois.getRank() != 2 ||
      rois.getDimSize(1) != 4 || idx.getRank() != 1 ||
      idx.getDimSize(0) != rois.getDimSize(0) ||
      !idx.getElementType().isInteger(64))
    return emitOpError("expects input [N, C, H, W], rois [R, 4] and i64 "
                       "batch_indices [R]");
  if (out.getRank() != 4 || out.getDimSize(0) != rois.getDimSize(0) ||
      out.getDimSize(1) != x.getDimSize(1) ||
      out.getElementType() != x.getElementType() ||
      rois.getElementType() != x.getElementType())
    return emitOpError("result must be [R, C, output_height, output_width] "
                       "of the input's element type");
  if (getMode() != "avg" && getMode() != "max")
    return emitOpError("mode must be avg or max");
  if (static_cast<int64_t>(getSamplingRatio()) < 1)
    return emitOpError("sampling_ratio must be at least 1");
  return success();
}

//===----------------------------------------------------------------------===//
// TopK
//===----------------------------------------------------------------------===//

LogicalResult TopKOp::verify() {
  auto in = cast<RankedTensorType>(getInput().getType());
  auto values = cast<RankedTensorType>(getValues().getType());
  auto indices = cast<RankedTensorType>(getIndices().getType());
  if (in.getRank() < 1 || values.getRank() != in.getRank() ||
      indices.getShape() != values.getShape())
    return emitOpError("expects results of the input's rank (at least 1) "
                       "and one shape, not ")
           << values << " and " << indices << " for " << in;
  if (values.getElementType() != in.getElementType() ||
      !indices.getElementType().isInteger(64))
    return emitOpError("expects values of the input's element type and i64 "
                       "indices");
  for (int64_t d = 0; d + 1 < in.getRank(); ++d)
    if (!in.isDynamicDim(d) && !values.isDynamicDim(d) &&
        in.getDimSize(d) != values.getDimSize(d))
      return emitOpError("result dimension ")
             << d << " is " << values.getDimSize(d) << ", the input's "
             << in.getDimSize(d);
  int64_t last = in.getRank() - 1;
  if (!in.isDynamicDim(last) && !values.isDynamicDim(last) &&
      values.getDimSize(last) > in.getDimSize(last))
    return emitOpError("keeps ") << values.getDimSize(last)
                                 << " elements of rows of "
                                 << in.getDimSize(last);
  return success();
}
