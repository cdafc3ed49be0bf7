//===- ConvToGemm.cpp - convolutions as implicit GEMMs for the GPU --------===//
//
// A 2-D NCHW convolution y[n, f, oh, ow] becomes the contraction
//   y'[n, f, p] += W'[k, f] * col[n, k, p]   (p = oh * OW + ow,
//                                             k = (c * KH + kh) * KW + kw)
// with the weights re-laid at compile time (W' is FCHW transposed to
// [C*KH*KW, F], so that a K step's tile of them is contiguous along the
// filters), and `col` the input itself for 1x1 unit-stride convolutions or
// an im2col generic that reads the input (the unpadded one: a zero pad is
// folded into its bounds) at computed indices. The im2col is never
// materialized: dlc-gpu-tile-and-fuse computes its tile of each K step
// straight into shared memory. The pixel dims are flattened, and the
// reshapes moved through the bias and the activations around the
// convolution so that they fuse into its kernel.
//
// In a batch whose images have a number of pixels P that `image-pixel-tile`
// does not divide (14 x 14, 7 x 7), tiles of one image's pixels would be
// small and odd (49, 98): the batch's pixels are then one GEMM's columns,
//   g[f, q] += W'[k, f] * col[k, q]   (q = n * P + p),
// from zero, and one elementwise op writes y[n, f, p] = g[f, n * P + p] +
// init[n, f, p], into which the bias and the epilogues are fused.
//
//===----------------------------------------------------------------------===//
#include "codegen/common/ConstantData.h"
#include "codegen/gpu/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace dlc {
#define GEN_PASS_DEF_GPUCONVTOGEMM
#include "codegen/gpu/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {
/// The input of a convolution with its zero (or constant) border folded:
/// the unpadded tensor, the padding before each spatial dim and the value
/// outside.
struct PaddedInput {
  Value source;
  int64_t top = 0, left = 0;
  Value padValue;
};

static std::optional<PaddedInput> unpad(OpBuilder &b, Location loc,
                                        Value input) {
  PaddedInput result;
  auto pad = input.getDefiningOp<tensor::PadOp>();
  auto type = cast<RankedTensorType>(input.getType());
  if (!pad) {
    result.source = input;
    result.padValue =
        arith::ConstantOp::create(b, loc, b.getZeroAttr(type.getElementType()));
    return result;
  }
  Value constant = pad.getConstantPaddingValue();
  ArrayRef<int64_t> low = pad.getStaticLow();
  if (!constant || low.size() != 4 || low[0] != 0 || low[1] != 0 ||
      pad.getStaticHigh()[0] != 0 || pad.getStaticHigh()[1] != 0 ||
      ShapedType::isDynamic(low[2]) || ShapedType::isDynamic(low[3]))
    return std::nullopt;
  result.source = pad.getSource();
  result.top = low[2];
  result.left = low[3];
  result.padValue = constant;
  return result;
}

struct ConvToGemm : OpRewritePattern<linalg::Conv2DNchwFchwOp> {
  ConvToGemm(MLIRContext *ctx, int64_t imagePixelTile)
      : OpRewritePattern(ctx), imagePixelTile(imagePixelTile) {}
  int64_t imagePixelTile;

  LogicalResult matchAndRewrite(linalg::Conv2DNchwFchwOp conv,
                                PatternRewriter &rewriter) const override {
    auto xType = cast<RankedTensorType>(conv.getInputs()[0].getType());
    auto wType = cast<RankedTensorType>(conv.getInputs()[1].getType());
    auto yType = cast<RankedTensorType>(conv.getOutputs()[0].getType());
    if (!xType.hasStaticShape() || !wType.hasStaticShape() ||
        !yType.hasStaticShape() || !xType.getElementType().isF32() ||
        !wType.getElementType().isF32() || !yType.getElementType().isF32())
      return rewriter.notifyMatchFailure(conv, "not a static f32 convolution");
    auto weights = conv.getInputs()[1].getDefiningOp<arith::ConstantOp>();
    auto splat = weights ? dyn_cast<SplatElementsAttr>(weights.getValue())
                         : SplatElementsAttr();
    ArrayRef<char> bytes =
        weights ? dlc::rawConstantBytes(weights.getValue()) : ArrayRef<char>();
    if (bytes.empty() && !splat)
      return rewriter.notifyMatchFailure(conv, "weights are not a constant");
    Location loc = conv.getLoc();
    MLIRContext *ctx = conv.getContext();
    std::optional<PaddedInput> input =
        unpad(rewriter, loc, conv.getInputs()[0]);
    if (!input)
      return rewriter.notifyMatchFailure(conv, "a pad that cannot be folded");
    SmallVector<int64_t> strides(conv.getStrides().getValues<int64_t>());
    SmallVector<int64_t> dilations(conv.getDilations().getValues<int64_t>());
    int64_t n = yType.getDimSize(0), f = yType.getDimSize(1),
            oh = yType.getDimSize(2), ow = yType.getDimSize(3);
    int64_t c = wType.getDimSize(1), kh = wType.getDimSize(2),
            kw = wType.getDimSize(3);
    int64_t k = c * kh * kw, p = oh * ow;
    auto source = cast<RankedTensorType>(input->source.getType());
    int64_t h = source.getDimSize(2), w = source.getDimSize(3);
    Type f32 = rewriter.getF32Type();

    // W' = FCHW -> [C, KH, KW, F] -> [K, F], at compile time.
    auto wtType = RankedTensorType::get({k, f}, f32);
    Value wt;
    if (splat) {
      wt = arith::ConstantOp::create(
          rewriter, loc,
          DenseElementsAttr::get(wtType, splat.getSplatValue<Attribute>()));
    } else {
      std::vector<char> relaid = dlc::permuteBytes(
          bytes, wType.getShape(), {1, 2, 3, 0}, sizeof(float));
      wt = arith::ConstantOp::create(
          rewriter, loc,
          dlc::resourceConstant(wtType, "dlc_gemm_weights",
                                ArrayRef<char>(relaid.data(), relaid.size())));
    }

    SmallVector<ReassociationIndices> pixels = {{0}, {1}, {2, 3}};
    // A batch whose images' pixels no tile of `imagePixelTile` divides
    // (ResNet's 14 x 14 and 7 x 7 stages) is one GEMM over all of them:
    // columns q = n * P + p, so that the tiles are the MatMul's.
    bool batched = n > 1 && imagePixelTile > 0 && p % imagePixelTile != 0;
    bool direct = !batched && kh == 1 && kw == 1 && strides[0] == 1 &&
                  strides[1] == 1 && input->top == 0 && input->left == 0 &&
                  h == oh && w == ow;
    Value col;
    if (direct) {
      col = tensor::CollapseShapeOp::create(rewriter, loc, input->source,
                                            pixels);
    } else {
      // col[n, k, p] (or col[k, n * P + p]) = x[n, c, oh*s + kh*d - top,
      // ow*s + kw*d - left], or the pad value outside x.
      SmallVector<int64_t> shape = batched ? SmallVector<int64_t>{k, n * p}
                                           : SmallVector<int64_t>{n, k, p};
      auto colType = RankedTensorType::get(shape, f32);
      Value empty = tensor::EmptyOp::create(rewriter, loc, shape, f32);
      unsigned rank = shape.size();
      AffineMap id = AffineMap::getMultiDimIdentityMap(rank, ctx);
      Value x = input->source, padValue = input->padValue;
      int64_t top = input->top, left = input->left;
      auto generic = linalg::GenericOp::create(
          rewriter, loc, TypeRange{colType}, ValueRange{}, ValueRange{empty},
          ArrayRef<AffineMap>{id},
          SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
          [&](OpBuilder &b, Location l, ValueRange) {
            auto cst = [&](int64_t v) {
              return arith::ConstantIndexOp::create(b, l, v).getResult();
            };
            Value in, ik, ip;
            if (batched) {
              ik = linalg::IndexOp::create(b, l, 0);
              Value iq = linalg::IndexOp::create(b, l, 1);
              in = arith::DivUIOp::create(b, l, iq, cst(p));
              ip = arith::RemUIOp::create(b, l, iq, cst(p));
            } else {
              in = linalg::IndexOp::create(b, l, 0);
              ik = linalg::IndexOp::create(b, l, 1);
              ip = linalg::IndexOp::create(b, l, 2);
            }
            Value ic = arith::DivUIOp::create(b, l, ik, cst(kh * kw));
            Value r = arith::RemUIOp::create(b, l, ik, cst(kh * kw));
            Value ikh = arith::DivUIOp::create(b, l, r, cst(kw));
            Value ikw = arith::RemUIOp::create(b, l, r, cst(kw));
            Value ioh = arith::DivUIOp::create(b, l, ip, cst(ow));
            Value iow = arith::RemUIOp::create(b, l, ip, cst(ow));
            auto coord = [&](Value o, Value t, int64_t s, int64_t d,
                             int64_t before) {
              Value v = arith::AddIOp::create(
                  b, l, arith::MulIOp::create(b, l, o, cst(s)),
                  arith::MulIOp::create(b, l, t, cst(d)));
              return arith::SubIOp::create(b, l, v, cst(before)).getResult();
            };
            Value ih = coord(ioh, ikh, strides[0], dilations[0], top);
            Value iw = coord(iow, ikw, strides[1], dilations[1], left);
            // In bounds: 0 <= ih < H and 0 <= iw < W (as unsigned: one
            // comparison each); outside, read element 0 and select the pad.
            Value inH = arith::CmpIOp::create(b, l, arith::CmpIPredicate::ult,
                                              ih, cst(h));
            Value inW = arith::CmpIOp::create(b, l, arith::CmpIPredicate::ult,
                                              iw, cst(w));
            Value inside = arith::AndIOp::create(b, l, inH, inW);
            Value zero = cst(0);
            Value sh = arith::SelectOp::create(b, l, inside, ih, zero);
            Value sw = arith::SelectOp::create(b, l, inside, iw, zero);
            Value v = tensor::ExtractOp::create(b, l, x,
                                                ValueRange{in, ic, sh, sw});
            linalg::YieldOp::create(
                b, l, arith::SelectOp::create(b, l, inside, v, padValue)
                          .getResult());
          });
      col = generic.getResult(0);
    }

    auto multiplyAdd = [](OpBuilder &b, Location l, ValueRange args) {
      Value mul = arith::MulFOp::create(b, l, args[0], args[1]);
      linalg::YieldOp::create(
          b, l, arith::AddFOp::create(b, l, args[2], mul).getResult());
    };
    Value init =
        tensor::CollapseShapeOp::create(rewriter, loc, conv.getOutputs()[0],
                                        pixels);
    SmallVector<utils::IteratorType> iters(batched ? 2 : 3,
                                           utils::IteratorType::parallel);
    iters.push_back(utils::IteratorType::reduction);
    if (!batched) {
      // Loops (n, f, p, k).
      AffineExpr dn = getAffineDimExpr(0, ctx), df = getAffineDimExpr(1, ctx),
                 dp = getAffineDimExpr(2, ctx), dk = getAffineDimExpr(3, ctx);
      SmallVector<AffineMap> maps = {AffineMap::get(4, 0, {dk, df}, ctx),
                                     AffineMap::get(4, 0, {dn, dk, dp}, ctx),
                                     AffineMap::get(4, 0, {dn, df, dp}, ctx)};
      auto gemm = linalg::GenericOp::create(
          rewriter, loc, TypeRange{init.getType()}, ValueRange{wt, col},
          ValueRange{init}, maps, iters, multiplyAdd);
      rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(
          conv, yType, gemm.getResult(0), pixels);
      return success();
    }
    // Loops (f, q, k) from zero; then one elementwise op adds the
    // convolution's init (its bias) while writing [N, F, P] from [F, N, P].
    AffineExpr df = getAffineDimExpr(0, ctx), dq = getAffineDimExpr(1, ctx),
               dk = getAffineDimExpr(2, ctx);
    SmallVector<AffineMap> maps = {AffineMap::get(3, 0, {dk, df}, ctx),
                                   AffineMap::get(3, 0, {dk, dq}, ctx),
                                   AffineMap::get(3, 0, {df, dq}, ctx)};
    Value zero =
        arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(f32));
    Value acc = linalg::FillOp::create(
                    rewriter, loc, zero,
                    ValueRange{tensor::EmptyOp::create(
                        rewriter, loc, ArrayRef<int64_t>{f, n * p}, f32)})
                    .getResult(0);
    auto gemm = linalg::GenericOp::create(
        rewriter, loc, TypeRange{acc.getType()}, ValueRange{wt, col},
        ValueRange{acc}, maps, iters, multiplyAdd);
    Value fnp = tensor::ExpandShapeOp::create(
        rewriter, loc, RankedTensorType::get({f, n, p}, f32), gemm.getResult(0),
        SmallVector<ReassociationIndices>{{0}, {1, 2}});
    AffineExpr en = getAffineDimExpr(0, ctx), ef = getAffineDimExpr(1, ctx),
               ep = getAffineDimExpr(2, ctx);
    AffineMap nfp = AffineMap::getMultiDimIdentityMap(3, ctx);
    Value out =
        tensor::EmptyOp::create(rewriter, loc, ArrayRef<int64_t>{n, f, p}, f32);
    auto transposed = linalg::GenericOp::create(
        rewriter, loc, TypeRange{out.getType()}, ValueRange{fnp, init},
        ValueRange{out},
        SmallVector<AffineMap>{AffineMap::get(3, 0, {ef, en, ep}, ctx), nfp,
                               nfp},
        SmallVector<utils::IteratorType>(3, utils::IteratorType::parallel),
        [](OpBuilder &b, Location l, ValueRange args) {
          linalg::YieldOp::create(
              b, l, arith::AddFOp::create(b, l, args[0], args[1]).getResult());
        });
    rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(
        conv, yType, transposed.getResult(0), pixels);
    return success();
  }
};

/// Whether `op` (static) reads a batched GEMM's result as built above:
/// [F, N * P] from a fill, expanded to [F, N, P], read as [N, F, P].
static bool readsBatchedGemm(linalg::GenericOp op) {
  if (!llvm::all_of(op->getOperandTypes(), [](Type t) {
        auto shaped = dyn_cast<ShapedType>(t);
        return !shaped || shaped.hasStaticShape();
      }))
    return false;
  AffineMap transposed = AffineMap::getPermutationMap(
      ArrayRef<unsigned>{1, 0, 2}, op.getContext());
  return llvm::any_of(op.getDpsInputOperands(), [&](OpOperand *in) {
    auto expand = in->get().getDefiningOp<tensor::ExpandShapeOp>();
    if (!expand || op.getMatchingIndexingMap(in) != transposed ||
        expand.getReassociationIndices() !=
            SmallVector<ReassociationIndices>{{0}, {1, 2}})
      return false;
    auto gemm = expand.getSrc().getDefiningOp<linalg::GenericOp>();
    return gemm && gemm.getNumLoops() == 3 &&
           gemm.getNumReductionLoops() == 1 && gemm.getNumDpsInits() == 1 &&
           gemm.getDpsInitOperand(0)->get().getDefiningOp<linalg::FillOp>();
  });
}

/// Fuses an elementwise producer into its single consumer (upstream's
/// elementwise fusion) where either reads a batched GEMM's result.
struct FuseIntoBatchedGemmOutput : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::GenericOp consumer,
                                PatternRewriter &rewriter) const override {
    for (OpOperand *in : consumer.getDpsInputOperands()) {
      auto producer = in->get().getDefiningOp<linalg::GenericOp>();
      if (!producer || !producer->hasOneUse() ||
          producer.getNumReductionLoops() != 0 ||
          !(readsBatchedGemm(producer) || readsBatchedGemm(consumer)) ||
          !consumer.getMatchingIndexingMap(in).isPermutation() ||
          !llvm::all_of(
              producer.getIndexingMapsArray(),
              [](AffineMap m) { return m.isProjectedPermutation(); }) ||
          !linalg::areElementwiseOpsFusable(in))
        continue;
      FailureOr<linalg::ElementwiseOpFusionResult> fused =
          linalg::fuseElementwiseOps(rewriter, in);
      if (failed(fused))
        continue;
      // The consumer's results, and the producer's for users that remain
      // (none: it had one), come from the fused op; the producer is dead.
      for (auto [from, to] : fused->replacements)
        rewriter.replaceUsesWithIf(from, to, [&](OpOperand &use) {
          return use.getOwner() != producer;
        });
      rewriter.eraseOp(consumer);
      return success();
    }
    return failure();
  }
};

struct ConvToGemmPass : dlc::impl::GpuConvToGemmBase<ConvToGemmPass> {
  using Base::Base;
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    patterns.add<ConvToGemm>(ctx, imagePixelTile);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    // The flattened pixels' reshapes move through the elementwise ops
    // around the contractions (the bias that initializes them, the
    // activations and residual adds after them), so that those fuse into
    // their kernels; not into ops reading strided slices, whose collapsed
    // slices would be copies.
    RewritePatternSet reshapes(ctx);
    linalg::populateFoldReshapeOpsByCollapsingPatterns(
        reshapes, [](OpOperand *operand) {
          auto generic = dyn_cast<linalg::GenericOp>(operand->getOwner());
          if (!generic)
            generic = operand->get().getDefiningOp<linalg::GenericOp>();
          return generic && generic.getNumReductionLoops() == 0 &&
                 llvm::none_of(generic->getOperands(), [](Value v) {
                   return v.getDefiningOp<tensor::ExtractSliceOp>();
                 });
        });
    tensor::populateReassociativeReshapeFoldingPatterns(reshapes);
    linalg::FillOp::getCanonicalizationPatterns(reshapes, ctx);
    if (failed(applyPatternsGreedily(getOperation(), std::move(reshapes))))
      return signalPassFailure();
    // The elementwise op that writes a batched GEMM's result back to NCHW
    // takes the bias broadcast it adds and the epilogues after it (single
    // uses, read element for element), so that they are one kernel.
    RewritePatternSet fusion(ctx);
    fusion.add<FuseIntoBatchedGemmOutput>(ctx);
    if (failed(applyPatternsGreedily(getOperation(), std::move(fusion))))
      signalPassFailure();
  }
};

} // namespace
