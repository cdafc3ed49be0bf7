//===- ReverseSequenceImporter.cpp - ReverseSequence as GatherElements ----===//
//
// Each batch entry b reverses its first sequence_lens[b] steps along the
// time axis: a GatherElements whose index at step t is len - 1 - t below
// len and t after it, computed from the lengths (data or constant).
// Lengths are clamped to the time axis, so no index leaves the tensor.
//
//===----------------------------------------------------------------------===//
#include "frontend/NodeImporter.h"
#include "ir/DlcOps.h"

#include <numeric>

using namespace mlir;
using namespace dlc;

static NodeResults importReverseSequence(NodeContext &nc) {
  if (failed(requireOperands(nc, 2)))
    return failure();
  Value x = nc.operand(0), lens = nc.operand(1);
  RankedTensorType t = typeOf(x);
  int64_t rank = t.getRank();
  if (rank < 2 || !t.hasStaticShape())
    return nc.error() << "input " << t << " must be static, of rank >= 2",
           failure();
  FailureOr<int64_t> batchAxis =
      normalizeAxis(nc, nc.intAttr("batch_axis", 1), rank);
  FailureOr<int64_t> timeAxis =
      normalizeAxis(nc, nc.intAttr("time_axis", 0), rank);
  if (failed(batchAxis) || failed(timeAxis))
    return failure();
  if (*batchAxis == *timeAxis || *batchAxis > 1 || *timeAxis > 1)
    return nc.error() << "batch_axis and time_axis must be 0 and 1", failure();
  int64_t steps = t.getDimSize(*timeAxis), batch = t.getDimSize(*batchAxis);
  if (typeOf(lens).getShape() != ArrayRef<int64_t>{batch})
    return nc.error() << "sequence_lens " << typeOf(lens) << " must be ["
                      << batch << "]",
           failure();
  OnnxOps b{nc};
  SmallVector<int64_t> timeShape(rank, 1), batchShape(rank, 1), steps0(steps);
  timeShape[*timeAxis] = steps;
  batchShape[*batchAxis] = batch;
  std::iota(steps0.begin(), steps0.end(), 0);
  Value step = b.i64(timeShape, steps0);
  Value len = castValue(nc, lens, nc.builder.getI64Type());
  len = b.op("Min",
           {b.op("Reshape", {len, b.i64({rank}, batchShape)}), b.i64({}, {steps})});
  Value reversed = b.op("Sub", {b.op("Sub", {len, b.i64({}, {1})}), step});
  Value index =
      b.op("Where", {b.op("Less", {step, len}), reversed, step}); // [T|B, B|T, 1..]
  index = b.op("Expand", {index, b.i64({rank}, t.getShape())});
  Value y = b.op("GatherElements", {x, index}, {intAttribute("axis", *timeAxis)});
  if (!y)
    return failure();
  return SmallVector<Value>{y};
}

void dlc::addReverseSequenceImporter(NodeImporterTable &table) {
  table["ReverseSequence"] = importReverseSequence;
}
