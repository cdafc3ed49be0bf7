//===- GroupedConvTaps.cpp - grouped convolutions tap by tap --------------===//
//
// A grouped 2-D convolution (linalg.conv_2d_ngchw_gfchw) whose groups have
// few filters fills few vector lanes when vectorized along them; with few
// input channels per group it can instead run as one elementwise
// multiply-add per input channel of the group and window tap, which
// elementwise fusion merges into one op that vectorizes along the output
// columns. The target says which form it wants (pass options).
//
//===----------------------------------------------------------------------===//
#include "codegen/common/ConstantData.h"
#include "codegen/common/Passes.h"
#include "passes/lowering/Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace dlc {
#define GEN_PASS_DEF_GROUPEDCONVTAPS
#include "codegen/common/Passes.h.inc"
} // namespace dlc

using namespace mlir;

/// The tap-by-tap form of `op`: acc[n, g, f, oh, ow] += x[n, g*cpg + j,
/// oh*s + kh*d, ow*s + kw*d] * w[g, f, j, kh, kw] for each (j, kh, kw). The
/// input slice of each tap is a strided slice of the padded NCHW input
/// (channels j, j + cpg, ...: the [N, G, C/G, H, W] view's source),
/// broadcast along the group's filters; the tap's filter values a [G, F/G]
/// matrix. Null when the input is not such a view.
static Value buildTaps(OpBuilder &b, linalg::Conv2DNgchwGfchwOp op) {
  auto view = op.getInputs()[0].getDefiningOp<tensor::ExpandShapeOp>();
  if (!view || view.getSrcType().getRank() != 4 ||
      view.getReassociationIndices() !=
          SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}, {4}})
    return {};
  Location loc = op.getLoc();
  MLIRContext *ctx = b.getContext();
  Value input = view.getSrc(), w = op.getInputs()[1], acc = op.getOutputs()[0];
  auto accType = cast<RankedTensorType>(acc.getType());
  auto wType = cast<RankedTensorType>(w.getType());
  Type et = accType.getElementType();
  ArrayRef<int64_t> out = accType.getShape(); // N, G, F/G, OH, OW
  int64_t groups = out[1], fpg = out[2], cpg = wType.getDimSize(2);
  auto strides = llvm::to_vector(op.getStrides().getValues<int64_t>());
  auto dilations = llvm::to_vector(op.getDilations().getValues<int64_t>());
  auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
  AffineMap xMap = AffineMap::get(5, 0, {d(0), d(1), d(3), d(4)}, ctx);
  AffineMap wMap = AffineMap::get(5, 0, {d(1), d(2)}, ctx);
  auto index = [&](int64_t v) -> OpFoldResult { return b.getIndexAttr(v); };
  for (int64_t j = 0; j < cpg; ++j)
    for (int64_t kh = 0; kh < wType.getDimSize(3); ++kh)
      for (int64_t kw = 0; kw < wType.getDimSize(4); ++kw) {
        Value x = tensor::ExtractSliceOp::create(
            b, loc, RankedTensorType::get({out[0], groups, out[3], out[4]}, et),
            input,
            ArrayRef<OpFoldResult>{index(0), index(j), index(kh * dilations[0]),
                                   index(kw * dilations[1])},
            ArrayRef<OpFoldResult>{index(out[0]), index(groups), index(out[3]),
                                   index(out[4])},
            ArrayRef<OpFoldResult>{index(1), index(cpg), index(strides[0]),
                                   index(strides[1])});
        Value tapW = tensor::ExtractSliceOp::create(
            b, loc, RankedTensorType::get({groups, fpg}, et), w,
            ArrayRef<OpFoldResult>{index(0), index(0), index(j), index(kh),
                                   index(kw)},
            ArrayRef<OpFoldResult>{index(groups), index(fpg), index(1),
                                   index(1), index(1)},
            ArrayRef<OpFoldResult>{index(1), index(1), index(1), index(1),
                                   index(1)});
        acc = dlc::buildFmaTap(b, loc, accType, x, tapW, acc, xMap, wMap);
      }
  return acc;
}

namespace {
struct GroupedConvTapsPass
    : dlc::impl::GroupedConvTapsBase<GroupedConvTapsPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<linalg::Conv2DNgchwGfchwOp> convs;
    getOperation().walk(
        [&](linalg::Conv2DNgchwGfchwOp op) { convs.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (linalg::Conv2DNgchwGfchwOp op : convs) {
      rewriter.setInsertionPoint(op);
      auto wType = dyn_cast<RankedTensorType>(op.getInputs()[1].getType());
      auto accType = dyn_cast<RankedTensorType>(op.getOutputs()[0].getType());
      bool taps =
          op.hasPureTensorSemantics() && wType && accType &&
          wType.hasStaticShape() && accType.hasStaticShape() &&
          isa<FloatType>(accType.getElementType()) &&
          wType.getDimSize(1) < minFilterLanes &&
          wType.getDimSize(2) * wType.getDimSize(3) * wType.getDimSize(4) <=
              maxTaps;
      if (taps)
        if (Value acc = buildTaps(rewriter, op)) {
          rewriter.replaceOp(op, acc);
          continue;
        }
      if (generalize) {
        if (failed(linalg::generalizeNamedOp(rewriter, op)))
          return signalPassFailure();
        continue;
      }
      // Constant weights as a constant of the [G, F/G, C/G, KH, KW] view
      // (the same bytes; the folder leaves dense_resource constants
      // alone), which the target can then lay out for its reads.
      if (auto view = op.getInputs()[1].getDefiningOp<tensor::ExpandShapeOp>())
        if (auto cst = view.getSrc().getDefiningOp<arith::ConstantOp>())
          if (ElementsAttr attr =
                  dlc::reshapedConstant(cst.getValue(), view.getResultType()))
            rewriter.modifyOpInPlace(op, [&] {
              op->setOperand(1,
                             arith::ConstantOp::create(rewriter, view.getLoc(),
                                                       cast<TypedAttr>(attr)));
            });
    }
  }
};
} // namespace
