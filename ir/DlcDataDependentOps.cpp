//===- DlcDataDependentOps.cpp - ops with data-dependent shapes -----------===//
//
// Verifiers and upper bounds of the ops in DlcDataDependentOps.td.
//
//===----------------------------------------------------------------------===//
#include "ir/DlcAttrs.h"
#include "ir/DlcOps.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

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

/// [rank, number of elements], from upper bounds of the input's dimensions.
static SmallVector<int64_t> nonZeroBounds(ArrayRef<int64_t> input) {
  int64_t n = 1;
  for (int64_t d : input)
    n *= d;
  return {static_cast<int64_t>(input.size()), n};
}

SmallVector<int64_t> NonZeroOp::getUpperBounds(unsigned) {
  RankedTensorType in = getInput().getType();
  assert(in.hasStaticShape() && "a dynamic input has no static bound");
  return nonZeroBounds(in.getShape());
}

LogicalResult NonZeroOp::verify() {
  RankedTensorType in = getInput().getType();
  if (in.getRank() == 0)
    return emitOpError("input must have rank >= 1");
  if (!isIndexType(getType()))
    return emitOpError("result must hold i64 indices");
  if (!in.hasStaticShape())
    return verifyBounded(*this, "result", getType(),
                         {in.getRank(), ShapedType::kDynamic}, {1});
  return verifyBounded(*this, "result", getType(), getUpperBounds(0), {1});
}

//===----------------------------------------------------------------------===//
// Compress
//===----------------------------------------------------------------------===//

SmallVector<int64_t> CompressOp::getUpperBounds(unsigned) {
  assert(getInput().getType().hasStaticShape() &&
         "a dynamic input has no static bound");
  return llvm::to_vector(getInput().getType().getShape());
}

LogicalResult CompressOp::verify() {
  RankedTensorType in = getInput().getType(), cond = getCondition().getType();
  int64_t axis = getAxis();
  if (axis < 0 || axis >= in.getRank())
    return emitOpError("axis must be in range");
  if (cond.getRank() != 1 || !cond.getElementType().isInteger(1))
    return emitOpError("condition must be a 1-D tensor of i1");
  if (getType().getElementType() != in.getElementType())
    return emitOpError("result must have the input's element type");
  // The result has the input's shape, its axis dynamic.
  return verifyBounded(*this, "result", getType(), in.getShape(), {axis});
}

//===----------------------------------------------------------------------===//
// Unique
//===----------------------------------------------------------------------===//

/// The output's bound (the input's) and the index results' ([slices]),
/// from upper bounds of the input's dimensions.
static SmallVector<int64_t> uniqueBounds(ArrayRef<int64_t> input, int64_t axis,
                                         unsigned result) {
  if (result == 0)
    return llvm::to_vector(input);
  return {input[axis]};
}

SmallVector<int64_t> UniqueOp::getUpperBounds(unsigned result) {
  RankedTensorType in = getInput().getType();
  assert(in.hasStaticShape() && "a dynamic input has no static bound");
  return uniqueBounds(in.getShape(), getAxis(), result);
}

LogicalResult UniqueOp::verify() {
  RankedTensorType in = getInput().getType();
  int64_t axis = getAxis();
  if (axis < 0 || axis >= in.getRank())
    return emitOpError("axis must be in range");
  if (getOutput().getType().getElementType() != in.getElementType())
    return emitOpError("output must have the input's element type");
  if (failed(verifyBounded(*this, "output", getOutput().getType(),
                           in.getShape(), {axis})))
    return failure();
  SmallVector<Value, 3> indexResults{getIndices(), getInverseIndices(),
                                     getCounts()};
  for (auto [i, v] : llvm::enumerate(indexResults)) {
    auto t = cast<RankedTensorType>(v.getType());
    if (!isIndexType(t))
      return emitOpError("indices, inverse_indices and counts must be i64");
    // inverse_indices has one entry per input slice: as many as the input.
    SmallVector<int64_t> dynamic;
    if (i != 1)
      dynamic.push_back(0);
    if (failed(verifyBounded(*this, "index result", t, {in.getDimSize(axis)},
                             dynamic)))
      return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// NonMaxSuppression
//===----------------------------------------------------------------------===//

/// [batches * classes * min(maxBoxes, boxes), 3], from upper bounds of the
/// scores' dimensions.
static SmallVector<int64_t> nmsBounds(ArrayRef<int64_t> scores,
                                      int64_t maxBoxes) {
  return {scores[0] * scores[1] * std::min(maxBoxes, scores[2]), 3};
}

SmallVector<int64_t> NonMaxSuppressionOp::getUpperBounds(unsigned) {
  RankedTensorType scores = getScores().getType();
  assert(scores.hasStaticShape() && "dynamic scores have no static bound");
  return nmsBounds(scores.getShape(), getMaxBoxesBound());
}

LogicalResult NonMaxSuppressionOp::verify() {
  RankedTensorType boxes = getBoxes().getType(), scores = getScores().getType();
  auto agree = [](int64_t a, int64_t b) {
    return ShapedType::isDynamic(a) || ShapedType::isDynamic(b) || a == b;
  };
  if (boxes.getRank() != 3 || boxes.getDimSize(2) != 4 ||
      scores.getRank() != 3 ||
      !agree(scores.getDimSize(0), boxes.getDimSize(0)) ||
      !agree(scores.getDimSize(2), boxes.getDimSize(1)))
    return emitOpError("boxes must be [batches, boxes, 4] and scores "
                       "[batches, classes, boxes]");
  for (Value v :
       {getMaxOutputBoxesPerClass(), getIouThreshold(), getScoreThreshold()})
    if (!cast<RankedTensorType>(v.getType()).hasStaticShape() ||
        cast<RankedTensorType>(v.getType()).getNumElements() != 1)
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
  if (bound < 0 || (!ShapedType::isDynamic(boxes.getDimSize(1)) &&
                    bound > boxes.getDimSize(1)))
    return emitOpError("max_boxes_bound must be in [0, number of boxes]");
  if (!isIndexType(getType()))
    return emitOpError("result must hold i64 indices");
  if (!scores.hasStaticShape())
    return verifyBounded(*this, "result", getType(), {ShapedType::kDynamic, 3},
                         {0});
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
  if (auto nms = dyn_cast<NonMaxSuppressionOp>(owner)) {
    std::optional<SmallVector<int64_t>> scores =
        upperBoundShape(nms.getScores());
    if (!scores)
      return std::nullopt;
    return nmsBounds(*scores, nms.getMaxBoxesBound());
  }
  if (auto compress = dyn_cast<CompressOp>(owner))
    return upperBoundShape(compress.getInput());
  if (auto unique = dyn_cast<UniqueOp>(owner)) {
    std::optional<SmallVector<int64_t>> input =
        upperBoundShape(unique.getInput());
    if (!input)
      return std::nullopt;
    return uniqueBounds(*input, unique.getAxis(), i);
  }
  if (auto nonZero = dyn_cast<NonZeroOp>(owner)) {
    std::optional<SmallVector<int64_t>> input =
        upperBoundShape(nonZero.getInput());
    if (!input)
      return std::nullopt;
    return nonZeroBounds(*input);
  }
  // Elementwise ops (and softmax, cumsum) and 2-D matmuls of bounded
  // values: the broadcast of their operands' bounds, [M, N] for a matmul.
  // (Reductions, transposes, concatenations, reshapes and other
  // contractions are bounded after the lowering, by dlc-bounded-results.)
  if (owner->hasTrait<OpTrait::LowersDynamicShapes>() &&
      !isa<ReduceOp, ArgReduceOp, TransposeOp, ConcatOp, GemmOp, EinsumOp,
           ReshapeOp, ConvOp, MaxPoolOp, GlobalAvgPoolOp, PadOp>(owner)) {
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
  return std::nullopt;
}
