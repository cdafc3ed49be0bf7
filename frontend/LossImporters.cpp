//===- LossImporters.cpp - NegativeLogLikelihoodLoss, SoftmaxCrossEntropy -===//
//
// Both decompose into dlc ops: LogSoftmax, GatherElements of the target
// class, a weight/ignore mask and the reduction.
//
//===----------------------------------------------------------------------===//
#include "frontend/NodeImporter.h"
#include "ir/DlcOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace dlc;

namespace {

/// Unwraps a one-result builder call; null on failure.

/// loss = -input[n, target[n, d...], d...] * weight[target], masked by
/// ignore_index, then reduced. `input` is (N, C, d...) log-probabilities.
Value buildNll(NodeContext &nc, Value input, Value target, Value weight,
               StringRef reduction) {
  OpBuilder &b = nc.builder;
  auto inType = typeOf(input);
  auto tType = typeOf(target);
  Type et = inType.getElementType(), it = tType.getElementType();
  // input (N, C, d...), target (N, d...) of integers, weight (C).
  auto sameDim = [](int64_t a, int64_t b) {
    return ShapedType::isDynamic(a) || ShapedType::isDynamic(b) || a == b;
  };
  bool shapesFit = inType.getRank() >= 2 &&
                   tType.getRank() == inType.getRank() - 1 &&
                   isa<IntegerType>(it);
  for (int64_t d = 0; shapesFit && d < tType.getRank(); ++d)
    shapesFit =
        sameDim(tType.getDimSize(d), inType.getDimSize(d == 0 ? 0 : d + 1));
  if (shapesFit && weight)
    shapesFit = typeOf(weight).getRank() == 1 &&
                sameDim(typeOf(weight).getDimSize(0), inType.getDimSize(1));
  if (!shapesFit) {
    InFlightDiagnostic diag = nc.error();
    diag << "needs input (N, C, d...), integer targets (N, d...) and weights "
            "(C), got "
         << inType << " and " << tType;
    if (weight)
      diag << " and " << typeOf(weight);
    return Value();
  }
  const onnx::AttributeProto *ignoreAttr = nc.attr("ignore_index");
  // Ignored targets may be out of range: gather class 0 for them.
  Value mask, safeTarget = target;
  if (ignoreAttr) {
    Value ignore = scalarConstant(nc, it, ignoreAttr->i());
    Value isIgnored = one(buildInferred<EqualOp>(nc, {target, ignore}));
    safeTarget = one(buildInferred<WhereOp>(
        nc, {isIgnored, scalarConstant(nc, it, 0), target}));
    Value keep = one(buildTyped<NotOp>(nc, isIgnored.getType(), {isIgnored}));
    mask = one(buildTyped<CastOp>(
        nc, RankedTensorType::get(tType.getShape(), et), {keep}));
  }
  // (N, d...) -> (N, 1, d...) to gather along the class axis.
  SmallVector<int64_t> wide(tType.getShape());
  wide.insert(wide.begin() + 1, 1);
  Value idx = one(reshapeTo(nc, safeTarget, wide));
  auto gatheredType = RankedTensorType::get(wide, et);
  Value picked = one(buildTyped<GatherElementsOp>(
      nc, gatheredType, {input, idx},
      {b.getNamedAttr("axis", b.getI64IntegerAttr(1))}));
  picked = one(reshapeTo(nc, picked, tType.getShape()));
  Value loss = one(buildTyped<NegOp>(nc, picked.getType(), {picked}));
  Value w;
  if (weight)
    w = one(buildInferred<GatherOp>(
        nc, {weight, safeTarget}, {b.getNamedAttr("axis", b.getI64IntegerAttr(0))}));
  if (mask)
    w = w ? one(buildInferred<MulOp>(nc, {w, mask})) : mask;
  if (w)
    loss = one(buildInferred<MulOp>(nc, {loss, w}));
  if (reduction == "none")
    return loss;
  SmallVector<int64_t> all;
  for (int64_t d = 0; d < tType.getRank(); ++d)
    all.push_back(d);
  auto sum = [&](Value v) { return reduce(nc, v, "sum", all, false); };
  Value total = sum(loss);
  if (reduction == "sum")
    return total;
  Value count;
  if (w) {
    count = sum(w);
  } else if (tType.hasStaticShape()) {
    count = scalarConstant(nc, et, (double)tType.getNumElements());
  } else {
    // The number of targets, known at run time.
    Value n = arith::IndexCastOp::create(
        b, nc.loc, b.getI64Type(),
        numElementsOf(nc, target, 0, tType.getRank()));
    count = tensor::FromElementsOp::create(
        b, nc.loc, RankedTensorType::get({}, et),
        ValueRange{arith::SIToFPOp::create(b, nc.loc, et, n)});
  }
  return one(buildInferred<DivOp>(nc, {total, count}));
}

LogicalResult checkReduction(NodeContext &nc, StringRef reduction) {
  if (reduction != "none" && reduction != "sum" && reduction != "mean")
    return nc.error() << "unknown reduction '" << reduction << "'";
  return success();
}

NodeResults importNll(NodeContext &nc) {
  if (failed(requireOperands(nc, 2)) || failed(requireFloat(nc, 1)))
    return failure();
  std::string reduction = nc.stringAttr("reduction", "mean");
  if (failed(checkReduction(nc, reduction)))
    return failure();
  Value loss = buildNll(nc, nc.operand(0), nc.operand(1), nc.operand(2),
                        reduction);
  if (!loss)
    return failure();
  return SmallVector<Value>{loss};
}

NodeResults importSoftmaxCrossEntropy(NodeContext &nc) {
  if (failed(requireOperands(nc, 2)) || failed(requireFloat(nc, 1)))
    return failure();
  std::string reduction = nc.stringAttr("reduction", "mean");
  if (failed(checkReduction(nc, reduction)))
    return failure();
  Value scores = nc.operand(0);
  if (typeOf(scores).getRank() < 2)
    return nc.error() << "needs scores (N, C, d...), got " << typeOf(scores),
           failure();
  OpBuilder &b = nc.builder;
  auto logProb = SoftmaxOp::create(b, nc.loc, typeOf(scores), scores,
                                   b.getI64IntegerAttr(1), nullptr,
                                   b.getUnitAttr());
  Value loss = buildNll(nc, logProb, nc.operand(1), nc.operand(2), reduction);
  if (!loss)
    return failure();
  return SmallVector<Value>{loss, logProb};
}

} // namespace

void dlc::addLossImporters(NodeImporterTable &t) {
  t["NegativeLogLikelihoodLoss"] = importNll;
  t["SoftmaxCrossEntropyLoss"] = importSoftmaxCrossEntropy;
}
