//===- LinearAlgebra.cpp - lowering of dlc.det ----------------------------===//
//
// Determinants by Gaussian elimination with partial pivoting (as LAPACK's
// getrf, which numpy.linalg.det calls), one matrix at a time in sequential
// scf loops over a copy of the input.
//
//===----------------------------------------------------------------------===//
#include "ir/DlcOps.h"
#include "passes/lowering/LoopBuilder.h"
#include "passes/lowering/Patterns.h"

#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using dlc::LoopBuilder;

namespace {
struct DetLowering : OpRewritePattern<dlc::DetOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(dlc::DetOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    LoopBuilder lb{rewriter, loc};
    using P = arith::CmpFPredicate;
    RankedTensorType in = op.getInput().getType();
    RankedTensorType out = op.getType();
    int64_t m = in.getShape().back(), batch = out.getNumElements();
    Type ft = in.getElementType();
    // [batch, M, M] and [batch] views of the operand and result.
    Value a = dlc::buildReshape(rewriter, loc, op.getInput(),
                                RankedTensorType::get({batch, m, m}, ft));
    auto cst = [&](double v) -> Value {
      return arith::ConstantOp::create(rewriter, loc,
                                       rewriter.getFloatAttr(ft, v));
    };
    auto mul = [&](Value x, Value y) -> Value {
      return arith::MulFOp::create(rewriter, loc, x, y);
    };
    Value dets = lb.loop(
        batch, {lb.zeros({batch}, ft)},
        [&](Value b, ValueRange res) -> SmallVector<Value> {
          // Steps k = 0..M-1 on a working copy w of matrix b, carrying
          // det.
          SmallVector<OpFoldResult> offsets{b, rewriter.getIndexAttr(0),
                                            rewriter.getIndexAttr(0)};
          SmallVector<OpFoldResult> sizes{rewriter.getIndexAttr(1),
                                          rewriter.getIndexAttr(m),
                                          rewriter.getIndexAttr(m)};
          SmallVector<OpFoldResult> strides(3, rewriter.getIndexAttr(1));
          Value matrix = tensor::ExtractSliceOp::create(
              rewriter, loc, RankedTensorType::get({m, m}, ft), a, offsets,
              sizes, strides);
          SmallVector<Value> state = lb.loop(
              m, {matrix, cst(1)},
              [&](Value k, ValueRange s) -> SmallVector<Value> {
                Value w = s[0], det = s[1];
                auto at = [&](Value t, Value i, Value j) {
                  return lb.extract(t, {i, j});
                };
                // The pivot: the largest magnitude in column k from row k.
                Value pivotRow = lb.loop(
                    k, lb.idx(m), {k},
                    [&](Value i, ValueRange p) -> SmallVector<Value> {
                      Value cand =
                          math::AbsFOp::create(rewriter, loc, at(w, i, k));
                      Value best =
                          math::AbsFOp::create(rewriter, loc, at(w, p[0], k));
                      Value larger = arith::CmpFOp::create(rewriter, loc,
                                                           P::OGT, cand, best);
                      return {lb.select(larger, i, p[0])};
                    })[0];
                // Swap rows k and the pivot's (columns k..M-1): the sign
                // flips.
                Value swap = lb.cmp(arith::CmpIPredicate::ne, pivotRow, k);
                SmallVector<Value> swapped =
                    lb.ifThen(swap, {w, det}, [&]() -> SmallVector<Value> {
                      Value t = lb.loop(
                          k, lb.idx(m), {w},
                          [&](Value j, ValueRange ws) -> SmallVector<Value> {
                            Value rk = at(ws[0], k, j);
                            Value rp = at(ws[0], pivotRow, j);
                            Value t = lb.insert(rp, ws[0], {k, j});
                            return {lb.insert(rk, t, {pivotRow, j})};
                          })[0];
                      return {t, arith::NegFOp::create(rewriter, loc, det)};
                    });
                w = swapped[0];
                Value pivot = at(w, k, k);
                det = mul(swapped[1], pivot);
                // Eliminate below the pivot (nothing to do when it is 0:
                // the determinant is 0 already).
                Value zero =
                    arith::CmpFOp::create(rewriter, loc, P::OEQ, pivot, cst(0));
                Value next =
                    lb.ifThen(lb.notI(zero), {w}, [&]() -> SmallVector<Value> {
                      Value k1 = lb.add(k, lb.idx(1));
                      return lb.loop(
                          k1, lb.idx(m), {w},
                          [&](Value i, ValueRange rows) -> SmallVector<Value> {
                            Value f = arith::DivFOp::create(
                                rewriter, loc, at(rows[0], i, k), pivot);
                            return lb.loop(
                                k1, lb.idx(m), {rows[0]},
                                [&](Value j,
                                    ValueRange cols) -> SmallVector<Value> {
                                  Value v = arith::SubFOp::create(
                                      rewriter, loc, at(cols[0], i, j),
                                      mul(f, at(cols[0], k, j)));
                                  return {lb.insert(v, cols[0], {i, j})};
                                });
                          });
                    })[0];
                return {next, det};
              });
          return {lb.insert(state[1], res[0], b)};
        })[0];
    rewriter.replaceOp(op, dlc::buildReshape(rewriter, loc, dets, out));
    return success();
  }
};
} // namespace

void dlc::populateLinearAlgebraLoweringPatterns(RewritePatternSet &patterns) {
  patterns.add<DetLowering>(patterns.getContext());
}
