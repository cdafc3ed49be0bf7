//===- DlcDataDependentOps.cpp - ops with data-dependent shapes -----------===//
//
// Verifiers and upper bounds of the ops in DlcDataDependentOps.td.
//
//===----------------------------------------------------------------------===//
#include "ir/DlcAttrs.h"
#include "ir/DlcOps.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace dlc;

/// Checks that `type` (a result) has `bounds`' rank, with each dimension
/// either dynamic or equal to its bound; `dynamic` lists the dimensions that
/// must be dynamic.
static LogicalResult verifyBounded(Operation *op, StringRef what,
                                   RankedTensorType type,
                                   ArrayRef<int64_t> bounds,
                                   ArrayRef<int64_t> dynamic) {
  if (type.getRank() != static_cast<int64_t>(bounds.size()))
    return op->emitOpError() << what << " must have rank " << bounds.size();
  for (auto [d, size] : llvm::enumerate(type.getShape())) {
    bool mustBeDynamic = llvm::is_contained(dynamic, static_cast<int64_t>(d));
    if (mustBeDynamic ? !ShapedType::isDynamic(size) : size != bounds[d])
      return op->emitOpError() << what << " dimension " << d << " must be "
                               << (mustBeDynamic ? std::string("dynamic")
                                                 : std::to_string(bounds[d]))
                               << ", got " << type;
  }
  return success();
}

static bool isIndexType(RankedTensorType t) {
  return t.getElementType().isInteger(64);
}

//===----------------------------------------------------------------------===//
// NonZero
//===----------------------------------------------------------------------===//

SmallVector<int64_t> NonZeroOp::getUpperBounds(unsigned) {
  RankedTensorType in = getInput().getType();
  return {in.getRank(), in.getNumElements()};
}

LogicalResult NonZeroOp::verify() {
  RankedTensorType in = getInput().getType();
  if (!in.hasStaticShape() || in.getRank() == 0)
    return emitOpError("input must have a static shape of rank >= 1");
  if (!isIndexType(getType()))
    return emitOpError("result must hold i64 indices");
  return verifyBounded(*this, "result", getType(), getUpperBounds(0), {1});
}

//===----------------------------------------------------------------------===//
// Compress
//===----------------------------------------------------------------------===//

SmallVector<int64_t> CompressOp::getUpperBounds(unsigned) {
  return llvm::to_vector(getInput().getType().getShape());
}

LogicalResult CompressOp::verify() {
  RankedTensorType in = getInput().getType(), cond = getCondition().getType();
  int64_t axis = getAxis();
  if (!in.hasStaticShape() || axis < 0 || axis >= in.getRank())
    return emitOpError("input must have a static shape, with axis in range");
  if (cond.getRank() != 1 || !cond.hasStaticShape() ||
      !cond.getElementType().isInteger(1))
    return emitOpError("condition must be a static 1-D tensor of i1");
  if (getType().getElementType() != in.getElementType())
    return emitOpError("result must have the input's element type");
  return verifyBounded(*this, "result", getType(), getUpperBounds(0), {axis});
}

//===----------------------------------------------------------------------===//
// Unique
//===----------------------------------------------------------------------===//

SmallVector<int64_t> UniqueOp::getUpperBounds(unsigned result) {
  RankedTensorType in = getInput().getType();
  if (result == 0)
    return llvm::to_vector(in.getShape());
  return {in.getDimSize(getAxis())};
}

LogicalResult UniqueOp::verify() {
  RankedTensorType in = getInput().getType();
  int64_t axis = getAxis();
  if (!in.hasStaticShape() || axis < 0 || axis >= in.getRank())
    return emitOpError("input must have a static shape, with axis in range");
  if (getOutput().getType().getElementType() != in.getElementType())
    return emitOpError("output must have the input's element type");
  if (failed(verifyBounded(*this, "output", getOutput().getType(),
                           getUpperBounds(0), {axis})))
    return failure();
  SmallVector<Value, 3> indexResults{getIndices(), getInverseIndices(),
                                     getCounts()};
  for (auto [i, v] : llvm::enumerate(indexResults)) {
    auto t = cast<RankedTensorType>(v.getType());
    if (!isIndexType(t))
      return emitOpError("indices, inverse_indices and counts must be i64");
    // inverse_indices has one entry per input slice: static.
    SmallVector<int64_t> dynamic;
    if (i != 1)
      dynamic.push_back(0);
    if (failed(verifyBounded(*this, "index result", t, getUpperBounds(i + 1),
                             dynamic)))
      return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// NonMaxSuppression
//===----------------------------------------------------------------------===//

SmallVector<int64_t> NonMaxSuppressionOp::getUpperBounds(unsigned) {
  RankedTensorType scores = getScores().getType();
  return {scores.getDimSize(0) * scores.getDimSize(1) *
              static_cast<int64_t>(getMaxBoxesBound()),
          3};
}

LogicalResult NonMaxSuppressionOp::verify() {
  RankedTensorType boxes = getBoxes().getType(), scores = getScores().getType();
  if (!boxes.hasStaticShape() || !scores.hasStaticShape() ||
      boxes.getRank() != 3 || boxes.getDimSize(2) != 4 ||
      scores.getRank() != 3 || scores.getDimSize(0) != boxes.getDimSize(0) ||
      scores.getDimSize(2) != boxes.getDimSize(1))
    return emitOpError("boxes must be [batches, boxes, 4] and scores "
                       "[batches, classes, boxes], static");
  for (Value v :
       {getMaxOutputBoxesPerClass(), getIouThreshold(), getScoreThreshold()})
    if (cast<RankedTensorType>(v.getType()).getNumElements() != 1)
      return emitOpError("the thresholds must have one element each");
  if (!getMaxOutputBoxesPerClass().getType().getElementType().isInteger(64))
    return emitOpError("max_output_boxes_per_class must be i64");
  Type ft = boxes.getElementType();
  if (scores.getElementType() != ft ||
      getIouThreshold().getType().getElementType() != ft ||
      getScoreThreshold().getType().getElementType() != ft)
    return emitOpError("boxes, scores and thresholds must have one element "
                       "type");
  int64_t bound = static_cast<int64_t>(getMaxBoxesBound());
  if (bound < 0 || bound > boxes.getDimSize(1))
    return emitOpError("max_boxes_bound must be in [0, number of boxes]");
  if (!isIndexType(getType()))
    return emitOpError("result must hold i64 indices");
  return verifyBounded(*this, "result", getType(), getUpperBounds(0), {0});
}

//===----------------------------------------------------------------------===//
// Upper bounds of any value
//===----------------------------------------------------------------------===//

std::optional<SmallVector<int64_t>> dlc::upperBoundShape(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type)
    return std::nullopt;
  if (type.hasStaticShape())
    return llvm::to_vector(type.getShape());
  // Arguments with symbolic dimensions: the maxima of their ranges.
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    auto fn =
        dyn_cast_or_null<FunctionOpInterface>(arg.getOwner()->getParentOp());
    ArrayAttr dims = fn && arg.getOwner()->isEntryBlock()
                         ? fn.getArgAttrOfType<ArrayAttr>(arg.getArgNumber(),
                                                          kSymbolicDimsAttrName)
                         : ArrayAttr();
    if (!dims || (int64_t)dims.size() != type.getNumDynamicDims())
      return std::nullopt;
    SmallVector<int64_t> shape(type.getShape());
    unsigned k = 0;
    for (int64_t &d : shape)
      if (ShapedType::isDynamic(d))
        d = cast<SymbolicDimAttr>(dims[k++]).getMax();
    return shape;
  }
  auto result = dyn_cast<OpResult>(value);
  if (!result)
    return std::nullopt;
  unsigned i = result.getResultNumber();
  Operation *owner = result.getOwner();
  // Elementwise ops (and softmax, cumsum) and 2-D matmuls of bounded
  // values: the broadcast of their operands' bounds, [M, N] for a matmul.
  // (Reductions, transposes, concatenations, reshapes and other
  // contractions are bounded after the lowering, by dlc-bounded-results.)
  if (owner->hasTrait<OpTrait::LowersDynamicShapes>() &&
      !isa<ReduceOp, ArgReduceOp, TransposeOp, ConcatOp, GemmOp, EinsumOp,
           ReshapeOp, ConvOp, MaxPoolOp, GlobalAvgPoolOp>(owner)) {
    SmallVector<SmallVector<int64_t>> bounds;
    for (Value operand : owner->getOperands()) {
      std::optional<SmallVector<int64_t>> b = upperBoundShape(operand);
      if (!b)
        return std::nullopt;
      bounds.push_back(*b);
    }
    if (isa<MatMulOp>(owner)) {
      if (bounds.size() != 2 || bounds[0].size() != 2 || bounds[1].size() != 2)
        return std::nullopt;
      return SmallVector<int64_t>{bounds[0][0], bounds[1][1]};
    }
    SmallVector<int64_t> shape(type.getRank(), 1);
    for (ArrayRef<int64_t> b : bounds)
      for (auto [k, d] : llvm::enumerate(llvm::reverse(b)))
        if (k < shape.size())
          shape[shape.size() - 1 - k] =
              std::max(shape[shape.size() - 1 - k], d);
    return shape;
  }
  return TypeSwitch<Operation *, std::optional<SmallVector<int64_t>>>(owner)
      .Case<NonZeroOp, CompressOp, UniqueOp, NonMaxSuppressionOp>(
          [&](auto op) { return op.getUpperBounds(i); })
      .Default([](Operation *) { return std::nullopt; });
}
