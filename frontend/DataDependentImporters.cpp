//===- DataDependentImporters.cpp - ops with data-dependent shapes --------===//
//
// NonZero, Compress, Unique and NonMaxSuppression: the size of their
// results depends on the input values. Each becomes its dlc op with a
// dynamic (`?`) result dimension, bounded by its operands' shapes or their
// upper bounds (ir/DlcDataDependentOps.td).
//
//===----------------------------------------------------------------------===//
#include "frontend/NodeImporter.h"
#include "ir/DlcOps.h"

using namespace mlir;
using namespace dlc;

static constexpr int64_t kDyn = ShapedType::kDynamic;

/// The type of operand i, or a failure naming it. Its dimensions may be
/// dynamic (symbolic, or the data-dependent size of an earlier op): the
/// lowerings read them at run time.
static FailureOr<RankedTensorType> requiredOperand(NodeContext &nc, size_t i,
                                                   StringRef what) {
  Value v = nc.operand(i);
  if (!v)
    return nc.error() << "the " << what << " input is required", failure();
  return typeOf(v);
}

/// `v` flattened to one dimension.
static Value flatten(NodeContext &nc, Value v) {
  RankedTensorType t = typeOf(v);
  if (t.hasStaticShape())
    return one(reshapeTo(nc, v, {t.getNumElements()}));
  return one(reshapeTo(nc, v, {kDyn}, {numElementsOf(nc, v, 0, t.getRank())}));
}

/// Input 0 and the `axis` attribute (normalized), or, without one, the
/// flattened input and axis 0 (Compress, Unique).
static FailureOr<std::pair<Value, int64_t>> inputAndAxis(NodeContext &nc) {
  Value input = nc.operand(0);
  if (!nc.attr("axis")) {
    input = flatten(nc, input);
    if (!input)
      return failure();
    return std::make_pair(input, int64_t(0));
  }
  FailureOr<int64_t> axis =
      normalizeAxis(nc, nc.intAttr("axis", 0), typeOf(input).getRank());
  if (failed(axis))
    return failure();
  return std::make_pair(input, *axis);
}

static NodeResults importNonZero(NodeContext &nc) {
  // The input's dimensions may be dynamic: the lowering reads them at run
  // time.
  if (!nc.operand(0))
    return nc.error() << "input X is required", failure();
  RankedTensorType in = typeOf(nc.operand(0));
  if (in.getRank() == 0)
    return nc.error() << "a rank-0 input is not supported", failure();
  auto type =
      RankedTensorType::get({in.getRank(), kDyn}, nc.builder.getI64Type());
  return buildTyped<NonZeroOp>(nc, type, nc.operand(0));
}

static NodeResults importCompress(NodeContext &nc) {
  FailureOr<RankedTensorType> in = requiredOperand(nc, 0, "input");
  FailureOr<RankedTensorType> cond = requiredOperand(nc, 1, "condition");
  if (failed(in) || failed(cond))
    return failure();
  if (in->getRank() == 0)
    return nc.error() << "a rank-0 input is not supported (Compress needs "
                         "rank >= 1)",
           failure();
  if (cond->getRank() != 1 || !cond->getElementType().isInteger(1))
    return nc.error() << "the condition must be a 1-D bool tensor, got "
                      << *cond,
           failure();
  FailureOr<std::pair<Value, int64_t>> on = inputAndAxis(nc);
  if (failed(on))
    return failure();
  auto [input, axis] = *on;
  SmallVector<int64_t> shape(typeOf(input).getShape());
  shape[axis] = kDyn;
  return buildTyped<CompressOp>(
      nc, RankedTensorType::get(shape, in->getElementType()),
      ValueRange{input, nc.operand(1)},
      {nc.builder.getNamedAttr("axis", nc.builder.getI64IntegerAttr(axis))});
}

static NodeResults importUnique(NodeContext &nc) {
  FailureOr<RankedTensorType> in = requiredOperand(nc, 0, "X");
  if (failed(in))
    return failure();
  FailureOr<std::pair<Value, int64_t>> on = inputAndAxis(nc);
  if (failed(on))
    return failure();
  auto [input, axis] = *on;
  RankedTensorType flat = typeOf(input);
  SmallVector<int64_t> shape(flat.getShape());
  shape[axis] = kDyn;
  Type i64 = nc.builder.getI64Type();
  auto dynIndices = RankedTensorType::get({kDyn}, i64);
  OperationState state(nc.loc, UniqueOp::getOperationName());
  state.addOperands(input);
  state.addAttribute("axis", nc.builder.getI64IntegerAttr(axis));
  state.addAttribute("sorted", nc.builder.getBoolAttr(nc.intAttr("sorted", 1)));
  state.addAttribute("unsigned_order",
                     nc.builder.getBoolAttr(nc.isUnsigned(0)));
  state.addTypes(
      {RankedTensorType::get(shape, flat.getElementType()), dynIndices,
       RankedTensorType::get({flat.getDimSize(axis)}, i64), dynIndices});
  return finishOp(nc, state);
}

static NodeResults importNonMaxSuppression(NodeContext &nc) {
  // The numbers of batches, classes and boxes may be dynamic (symbolic, or
  // the data-dependent size of an earlier op): the lowering reads them at
  // run time.
  if (!nc.operand(0) || !nc.operand(1))
    return nc.error() << "the boxes and scores inputs are required", failure();
  RankedTensorType boxes = typeOf(nc.operand(0)),
                   scores = typeOf(nc.operand(1));
  auto agree = [](int64_t a, int64_t b) {
    return ShapedType::isDynamic(a) || ShapedType::isDynamic(b) || a == b;
  };
  // Four coordinates are read per box: a last dimension known at run time
  // only cannot be checked.
  if (boxes.getRank() == 3 && boxes.isDynamicDim(2))
    return nc.error() << "the boxes' last dimension must be the static 4, not "
                         "dynamic as in "
                      << boxes,
           failure();
  if (boxes.getRank() != 3 || boxes.getDimSize(2) != 4 ||
      scores.getRank() != 3 ||
      !agree(scores.getDimSize(0), boxes.getDimSize(0)) ||
      !agree(scores.getDimSize(2), boxes.getDimSize(1)))
    return nc.error() << "boxes must be [batches, boxes, 4] and scores "
                         "[batches, classes, boxes], got "
                      << boxes << " and " << scores,
           failure();
  Type ft = scores.getElementType();
  if (!ft.isF32() || boxes.getElementType() != ft)
    return nc.error() << "boxes and scores must be float32", failure();
  int64_t numBoxes = ShapedType::isDynamic(boxes.getDimSize(1))
                         ? scores.getDimSize(2)
                         : boxes.getDimSize(1);
  if (ShapedType::isDynamic(numBoxes))
    numBoxes = std::numeric_limits<int64_t>::max();
  OpBuilder &b = nc.builder;
  // Absent optional inputs: no box kept (max 0), IoU threshold 0, no score
  // threshold (-inf).
  auto oneElement = [&](size_t i, Type et, double dflt) -> Value {
    Value v = nc.operand(i);
    if (!v)
      return one(reshapeTo(nc, scalarConstant(nc, et, dflt), {1}));
    RankedTensorType t = typeOf(v);
    if (!t.hasStaticShape() || t.getNumElements() != 1 ||
        t.getElementType() != et) {
      nc.error() << "input " << i << " must hold one " << et << ", got " << t;
      return Value();
    }
    return v;
  };
  Value maxBoxes = oneElement(2, b.getI64Type(), 0);
  Value iou = oneElement(3, ft, 0);
  Value minScore = oneElement(4, ft, -std::numeric_limits<double>::infinity());
  if (!maxBoxes || !iou || !minScore)
    return failure();
  // The per-class maximum bounds the result where it is a constant.
  int64_t bound = numBoxes;
  if (std::optional<SmallVector<int64_t>> max = nc.constantInts(2))
    bound = std::clamp<int64_t>((*max)[0], 0, numBoxes);
  else if (!nc.operand(2))
    bound = 0;
  auto type = RankedTensorType::get({kDyn, 3}, b.getI64Type());
  return buildTyped<NonMaxSuppressionOp>(
      nc, type,
      ValueRange{nc.operand(0), nc.operand(1), maxBoxes, iou, minScore},
      {b.getNamedAttr("center_point_box",
                      b.getBoolAttr(nc.intAttr("center_point_box", 0) != 0)),
       b.getNamedAttr("max_boxes_bound", b.getI64IntegerAttr(bound))});
}

void dlc::addDataDependentImporters(NodeImporterTable &table) {
  table["NonZero"] = importNonZero;
  table["Compress"] = importCompress;
  table["Unique"] = importUnique;
  table["NonMaxSuppression"] = importNonMaxSuppression;
}
