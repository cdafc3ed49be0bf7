//===- DataDependent.cpp - lowering of ops with data-dependent shapes -----===//
//
// NonZero, Compress, Unique and NonMaxSuppression. Each computes its results
// into tensors of their upper-bound shape (static, so that the memory plan
// still places them) with sequential scf loops, then returns the leading
// `tensor.extract_slice` of the actual size: the only dynamic values in the
// function. dlc-bounded-results copies such function results densely into
// the caller's buffers.
//
//===----------------------------------------------------------------------===//
#include "ir/DlcOps.h"
#include "passes/lowering/LoopBuilder.h"
#include "passes/lowering/Patterns.h"
#include "passes/lowering/Utils.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using dlc::LoopBuilder;

/// `count` (an index a loop computed, never negative) clamped to [0,
/// bound]: it never leaves that range, and the bounds analyses then bound
/// the sizes computed from it on both sides (dlc-bound-dynamic-tensors; a
/// sum of such counts, a concatenation's size, needs their lower bounds).
static Value clamped(OpBuilder &b, Location loc, Value count, Value bound) {
  MLIRContext *ctx = b.getContext();
  AffineExpr s0 = getAffineSymbolExpr(0, ctx), s1 = getAffineSymbolExpr(1, ctx);
  Value below = affine::AffineMinOp::create(
      b, loc, AffineMap::get(0, 2, {s0, s1}, ctx), ValueRange{count, bound});
  return affine::AffineMaxOp::create(
      b, loc, AffineMap::get(0, 1, {s0, getAffineConstantExpr(0, ctx)}, ctx),
      ValueRange{below});
}

/// min(x, y) as affine.min: folded when both are constants, bounded by the
/// value-bounds analysis otherwise.
static Value minOf(OpBuilder &b, Location loc, Value x, Value y) {
  MLIRContext *ctx = b.getContext();
  AffineMap map = AffineMap::get(
      0, 2, {getAffineSymbolExpr(0, ctx), getAffineSymbolExpr(1, ctx)}, ctx);
  return b.createOrFold<affine::AffineMinOp>(loc, map, ValueRange{x, y});
}

/// Zeros of `et` in [static dims..., `size`] (the last dimension `size`,
/// static when it is a constant).
static Value zerosSized(OpBuilder &b, Location loc, ArrayRef<int64_t> leading,
                        Value size, Type et) {
  SmallVector<int64_t> shape(leading);
  std::optional<int64_t> n = getConstantIntValue(size);
  shape.push_back(n.value_or(ShapedType::kDynamic));
  return dlc::buildFilledSized(b, loc, RankedTensorType::get(shape, et),
                               b.getZeroAttr(et),
                               n ? ValueRange{} : ValueRange{size});
}

namespace {

/// The sizes of `t` (tensor.dim where dynamic, constants otherwise).
SmallVector<Value> sizesOf(OpBuilder &b, Location loc, Value t) {
  SmallVector<Value> sizes;
  for (int64_t d = 0; d < cast<RankedTensorType>(t.getType()).getRank(); ++d)
    sizes.push_back(b.createOrFold<tensor::DimOp>(loc, t, d));
  return sizes;
}

/// `out[.., p, ..] = input[.., indices[p], ..]` along `axis` (indices of
/// i64 in range): the slices a Compress or Unique keeps, gathered into the
/// input's shape with `indices`' length along the axis.
Value gatherSlices(OpBuilder &b, Location loc, Value input, Value indices,
                   int64_t axis) {
  auto in = cast<RankedTensorType>(input.getType());
  auto it = cast<RankedTensorType>(indices.getType());
  SmallVector<int64_t> shape(in.getShape());
  shape[axis] = it.getDimSize(0);
  SmallVector<Value> sizes = sizesOf(b, loc, input), dynamic;
  sizes[axis] = b.createOrFold<tensor::DimOp>(loc, indices, 0);
  for (auto [d, size] : llvm::enumerate(sizes))
    if (ShapedType::isDynamic(shape[d]))
      dynamic.push_back(size);
  auto type = RankedTensorType::get(shape, in.getElementType());
  MLIRContext *ctx = b.getContext();
  int64_t rank = in.getRank();
  Value init =
      tensor::EmptyOp::create(b, loc, shape, type.getElementType(), dynamic);
  SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, type, indices, init,
             ArrayRef<AffineMap>{
                 AffineMap::get(rank, 0, getAffineDimExpr(axis, ctx)),
                 b.getMultiDimIdentityMap(rank)},
             iters,
             [&](OpBuilder &nb, Location l, ValueRange args) {
               SmallVector<Value> at;
               for (int64_t d = 0; d < rank; ++d)
                 at.push_back(d == axis
                                  ? Value(arith::IndexCastOp::create(
                                        nb, l, nb.getIndexType(), args[0]))
                                  : Value(linalg::IndexOp::create(nb, l, d)));
               linalg::YieldOp::create(
                   nb, l, Value(tensor::ExtractOp::create(nb, l, input, at)));
             })
      .getResult(0);
}

struct NonZeroLowering : OpRewritePattern<dlc::NonZeroOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(dlc::NonZeroOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    LoopBuilder lb{rewriter, loc};
    RankedTensorType in = op.getInput().getType();
    // The input's sizes (read at run time where dynamic) and its number of
    // elements, the most columns.
    SmallVector<Value> sizes;
    Value numel = lb.idx(1);
    for (int64_t d = 0; d < in.getRank(); ++d) {
      sizes.push_back(
          rewriter.createOrFold<tensor::DimOp>(loc, op.getInput(), d));
      numel = rewriter.createOrFold<arith::MulIOp>(loc, numel, sizes.back());
    }
    Value out =
        zerosSized(rewriter, loc, {in.getRank()}, numel, rewriter.getI64Type());
    // Row-major over the input: each non-zero element appends its
    // coordinates as column k.
    SmallVector<Value> res = lb.nest(
        ValueRange(sizes), {out, lb.idx(0)},
        [&](ValueRange ivs, ValueRange args) -> SmallVector<Value> {
          Value x = lb.extract(op.getInput(), ivs);
          return lb.ifThen(lb.isNonZero(x), args, [&]() -> SmallVector<Value> {
            Value t = args[0];
            for (auto [d, iv] : llvm::enumerate(ivs))
              t = lb.insert(lb.i64(iv), t, {lb.idx(d), args[1]});
            return {t, lb.add(args[1], lb.idx(1))};
          });
        });
    Value count = clamped(rewriter, loc, res[1], numel);
    rewriter.replaceOp(op, lb.prefix(res[0], {Value(), count}));
    return success();
  }
};

struct CompressLowering : OpRewritePattern<dlc::CompressOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(dlc::CompressOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    LoopBuilder lb{rewriter, loc};
    int64_t axis = op.getAxis();
    // The axis' size and the condition's length (read at run time where
    // dynamic): only the entries of both are read.
    Value size = rewriter.createOrFold<tensor::DimOp>(loc, op.getInput(), axis);
    Value len =
        minOf(rewriter, loc, size,
              rewriter.createOrFold<tensor::DimOp>(loc, op.getCondition(), 0));
    // The indices of the kept slices, in order (zeros past the count, so
    // that the gather below stays in bounds).
    Value kept = zerosSized(rewriter, loc, {}, size, rewriter.getI64Type());
    SmallVector<Value> res =
        lb.loop(lb.idx(0), len, {kept, lb.idx(0)},
                [&](Value j, ValueRange args) -> SmallVector<Value> {
                  Value keep = lb.extract(op.getCondition(), j);
                  return lb.ifThen(keep, args, [&]() -> SmallVector<Value> {
                    return {lb.insert(lb.i64(j), args[0], args[1]),
                            lb.add(args[1], lb.idx(1))};
                  });
                });
    Value full = gatherSlices(rewriter, loc, op.getInput(), res[0], axis);
    SmallVector<Value> sizes(op.getInput().getType().getRank());
    sizes[axis] = clamped(rewriter, loc, res[1], size);
    rewriter.replaceOp(op, lb.prefix(full, sizes));
    return success();
  }
};

/// Compares slices `a` and `b` of `x` along `axis` in row-major order:
/// (equal, a < b lexicographically). `sizes` are x's sizes.
std::pair<Value, Value> compareSlices(LoopBuilder &lb, Value x, int64_t axis,
                                      ArrayRef<Value> sizes, Value a, Value b,
                                      bool isUnsigned = false) {
  SmallVector<Value> others(sizes);
  others.erase(others.begin() + axis);
  SmallVector<Value> res =
      lb.nest(ValueRange(others), {lb.boolean(false), lb.boolean(false)},
              [&](ValueRange ivs, ValueRange args) -> SmallVector<Value> {
                SmallVector<Value> at(ivs), bt(ivs);
                at.insert(at.begin() + axis, a);
                bt.insert(bt.begin() + axis, b);
                Value va = lb.extract(x, at);
                Value vb = lb.extract(x, bt);
                Value differ = lb.notI(lb.equal(va, vb));
                // The first difference decides.
                Value lt =
                    lb.select(args[0], args[1],
                              lb.andI(differ, lb.less(va, vb, isUnsigned)));
                return {lb.orI(args[0], differ), lt};
              });
  return {lb.notI(res[0]), res[1]};
}

struct UniqueLowering : OpRewritePattern<dlc::UniqueOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(dlc::UniqueOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    LoopBuilder lb{rewriter, loc};
    using P = arith::CmpIPredicate;
    int64_t axis = op.getAxis();
    Type i64 = rewriter.getI64Type();
    Value x = op.getInput();
    // The input's sizes (read at run time where dynamic); n slices along
    // the axis.
    SmallVector<Value> sizes = sizesOf(rewriter, loc, x);
    Value n = sizes[axis], zero = lb.idx(0);
    auto indexVector = [&]() { return zerosSized(rewriter, loc, {}, n, i64); };
    auto same = [&](Value a, Value b) {
      return compareSlices(lb, x, axis, sizes, a, b).first;
    };
    // first[i]: the first slice equal to slice i.
    Value first =
        lb.loop(zero, n, {indexVector()},
                [&](Value i, ValueRange args) -> SmallVector<Value> {
                  Value end = lb.add(i, lb.idx(1));
                  Value found =
                      lb.loop(lb.idx(0), end, {i},
                              [&](Value j, ValueRange f) -> SmallVector<Value> {
                                Value unset = lb.cmp(P::eq, f[0], i);
                                Value eq = same(j, i);
                                return {lb.select(lb.andI(unset, eq), j, f[0])};
                              })[0];
                  return {lb.insert(lb.i64(found), args[0], i)};
                })[0];
    // The distinct slices in order of first occurrence.
    SmallVector<Value> distinct =
        lb.loop(zero, n, {indexVector(), lb.idx(0)},
                [&](Value i, ValueRange args) -> SmallVector<Value> {
                  Value isFirst =
                      lb.cmp(P::eq, lb.index(lb.extract(first, i)), i);
                  return lb.ifThen(isFirst, args, [&]() -> SmallVector<Value> {
                    return {lb.insert(lb.i64(i), args[0], args[1]),
                            lb.add(args[1], lb.idx(1))};
                  });
                });
    Value order = distinct[0], count = clamped(rewriter, loc, distinct[1], n);
    if (op.getSorted()) {
      // Each distinct slice goes to the number of distinct slices below it.
      order = lb.loop(
          lb.idx(0), count, {indexVector()},
          [&](Value t, ValueRange args) -> SmallVector<Value> {
            Value u = lb.index(lb.extract(distinct[0], t));
            Value rank = lb.loop(
                lb.idx(0), count, {lb.idx(0)},
                [&](Value s, ValueRange r) -> SmallVector<Value> {
                  Value v = lb.index(lb.extract(distinct[0], s));
                  Value below = compareSlices(lb, x, axis, sizes, v, u,
                                              op.getUnsignedOrder())
                                    .second;
                  return {lb.select(below, lb.add(r[0], lb.idx(1)), r[0])};
                })[0];
            return {lb.insert(lb.i64(u), args[0], rank)};
          })[0];
    }
    // position[u]: where distinct slice u goes in the output.
    Value position =
        lb.loop(lb.idx(0), count, {indexVector()},
                [&](Value t, ValueRange args) -> SmallVector<Value> {
                  Value u = lb.index(lb.extract(order, t));
                  return {lb.insert(lb.i64(t), args[0], u)};
                })[0];
    SmallVector<Value> inverseAndCounts =
        lb.loop(zero, n, {indexVector(), indexVector()},
                [&](Value i, ValueRange args) -> SmallVector<Value> {
                  Value p =
                      lb.extract(position, lb.index(lb.extract(first, i)));
                  Value pi = lb.index(p);
                  Value c = arith::AddIOp::create(
                      rewriter, loc, lb.extract(args[1], pi),
                      arith::ConstantIntOp::create(rewriter, loc, i64, 1));
                  return {lb.insert(p, args[0], i), lb.insert(c, args[1], pi)};
                });
    Value full = gatherSlices(rewriter, loc, x, order, axis);
    SmallVector<Value> extents(sizes.size());
    extents[axis] = count;
    rewriter.replaceOp(op, {lb.prefix(full, extents), lb.prefix(order, count),
                            inverseAndCounts[0],
                            lb.prefix(inverseAndCounts[1], count)});
    return success();
  }
};

struct NonMaxSuppressionLowering : OpRewritePattern<dlc::NonMaxSuppressionOp> {
  using OpRewritePattern::OpRewritePattern;

  /// (xmin, ymin, xmax, ymax) of box `j` of batch `b`.
  static std::array<Value, 4> corners(OpBuilder &rb, Location loc,
                                      LoopBuilder &lb, Value boxes, Value b,
                                      Value j, bool centered) {
    std::array<Value, 4> v;
    for (int64_t k = 0; k < 4; ++k)
      v[k] = lb.extract(boxes, {b, j, lb.idx(k)});
    auto minf = [&](Value x, Value y) {
      return arith::MinimumFOp::create(rb, loc, x, y).getResult();
    };
    auto maxf = [&](Value x, Value y) {
      return arith::MaximumFOp::create(rb, loc, x, y).getResult();
    };
    if (centered) {
      // [x_center, y_center, width, height]
      Value half = arith::ConstantOp::create(
          rb, loc, rb.getFloatAttr(v[0].getType(), 0.5));
      Value hw = arith::MulFOp::create(rb, loc, v[2], half);
      Value hh = arith::MulFOp::create(rb, loc, v[3], half);
      return {arith::SubFOp::create(rb, loc, v[0], hw),
              arith::SubFOp::create(rb, loc, v[1], hh),
              arith::AddFOp::create(rb, loc, v[0], hw),
              arith::AddFOp::create(rb, loc, v[1], hh)};
    }
    // [y1, x1, y2, x2], either diagonal.
    return {minf(v[1], v[3]), minf(v[0], v[2]), maxf(v[1], v[3]),
            maxf(v[0], v[2])};
  }

  /// Whether the intersection over union of `p` and `q` exceeds
  /// `threshold` (ONNX Runtime's rules: empty boxes never suppress).
  static Value iouExceeds(OpBuilder &rb, Location loc, std::array<Value, 4> p,
                          std::array<Value, 4> q, Value threshold) {
    auto minf = [&](Value x, Value y) -> Value {
      return arith::MinimumFOp::create(rb, loc, x, y);
    };
    auto maxf = [&](Value x, Value y) -> Value {
      return arith::MaximumFOp::create(rb, loc, x, y);
    };
    auto sub = [&](Value x, Value y) -> Value {
      return arith::SubFOp::create(rb, loc, x, y);
    };
    auto mul = [&](Value x, Value y) -> Value {
      return arith::MulFOp::create(rb, loc, x, y);
    };
    auto gt = [&](Value x, Value y) -> Value {
      return arith::CmpFOp::create(rb, loc, arith::CmpFPredicate::OGT, x, y);
    };
    Value zero =
        arith::ConstantOp::create(rb, loc, rb.getZeroAttr(p[0].getType()));
    Value iw = maxf(sub(minf(p[2], q[2]), maxf(p[0], q[0])), zero);
    Value ih = maxf(sub(minf(p[3], q[3]), maxf(p[1], q[1])), zero);
    Value inter = mul(iw, ih);
    Value areaP = mul(sub(p[2], p[0]), sub(p[3], p[1]));
    Value areaQ = mul(sub(q[2], q[0]), sub(q[3], q[1]));
    Value uni = sub(arith::AddFOp::create(rb, loc, areaP, areaQ), inter);
    Value valid = arith::AndIOp::create(
        rb, loc,
        arith::AndIOp::create(rb, loc, gt(inter, zero), gt(areaP, zero)),
        arith::AndIOp::create(rb, loc, gt(areaQ, zero), gt(uni, zero)));
    Value iou = arith::DivFOp::create(rb, loc, inter, uni);
    return arith::AndIOp::create(rb, loc, valid, gt(iou, threshold));
  }

  LogicalResult matchAndRewrite(dlc::NonMaxSuppressionOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    LoopBuilder lb{rewriter, loc};
    using P = arith::CmpIPredicate;
    RankedTensorType scores = op.getScores().getType();
    Type ft = scores.getElementType(), i64 = rewriter.getI64Type();
    auto dim = [&](Value t, int64_t d) -> Value {
      return rewriter.createOrFold<tensor::DimOp>(loc, t, d);
    };
    auto minOf = [&](Value x, Value y) { return ::minOf(rewriter, loc, x, y); };
    // The sizes (read at run time where dynamic; the smaller of the two
    // operands' where they differ, so that nothing is read out of bounds).
    Value batches = minOf(dim(op.getBoxes(), 0), dim(op.getScores(), 0));
    Value classes = dim(op.getScores(), 1);
    Value boxes = minOf(dim(op.getBoxes(), 1), dim(op.getScores(), 2));
    auto scalar = [&](Value t) {
      auto type = cast<RankedTensorType>(t.getType());
      SmallVector<Value> zeros(type.getRank(), lb.idx(0));
      return lb.extract(t, zeros);
    };
    // The per-class maximum, clamped to [0, max_boxes_bound].
    Value maxBoxes = lb.index(scalar(op.getMaxOutputBoxesPerClass()));
    maxBoxes = arith::MaxSIOp::create(
        rewriter, loc,
        arith::MinSIOp::create(rewriter, loc, maxBoxes,
                               lb.idx(op.getMaxBoxesBound())),
        lb.idx(0));
    Value iou = scalar(op.getIouThreshold());
    Value minScore = scalar(op.getScoreThreshold());
    bool centered = op.getCenterPointBox();
    // The result's rows: at most min(max_boxes_bound, boxes) per batch and
    // class.
    // (A bound as large as an index's range, a maximum that is data, is
    // no clamp.)
    Value perClass = op.getMaxBoxesBound() >= (uint64_t(1) << 40)
                         ? boxes
                         : minOf(boxes, lb.idx(op.getMaxBoxesBound()));
    Value rowsBound = rewriter.createOrFold<arith::MulIOp>(
        loc, rewriter.createOrFold<arith::MulIOp>(loc, batches, classes),
        perClass);
    std::optional<int64_t> staticRows = getConstantIntValue(rowsBound);
    Value out = staticRows
                    ? lb.zeros({*staticRows, 3}, i64)
                    : dlc::buildFilledSized(
                          rewriter, loc,
                          RankedTensorType::get({ShapedType::kDynamic, 3}, i64),
                          rewriter.getZeroAttr(i64), {rowsBound});
    // taken[j] holds the number (from 1) of the last class that took or
    // dropped box j, so that it needs no reset between classes.
    Value taken = zerosSized(rewriter, loc, {}, boxes, i64);
    Value negInf = arith::ConstantOp::create(
        rewriter, loc,
        rewriter.getFloatAttr(ft, -std::numeric_limits<double>::infinity()));
    Value zero = lb.idx(0);
    SmallVector<Value> res = lb.loop(
        zero, batches, {out, zero, taken},
        [&](Value b, ValueRange outer) -> SmallVector<Value> {
          return lb.loop(
              zero, classes, outer,
              [&](Value c, ValueRange state) -> SmallVector<Value> {
                Value tag = lb.i64(lb.add(
                    lb.add(arith::MulIOp::create(rewriter, loc, b, classes), c),
                    lb.idx(1)));
                Value start = state[1];
                // At most one box is taken or dropped per step.
                SmallVector<Value> steps = lb.loop(
                    zero, boxes,
                    {state[0], state[1], state[2], lb.boolean(false)},
                    [&](Value, ValueRange s) -> SmallVector<Value> {
                      Value full = lb.cmp(
                          P::sge,
                          arith::SubIOp::create(rewriter, loc, s[1], start),
                          maxBoxes);
                      Value active = lb.andI(lb.notI(s[3]), lb.notI(full));
                      SmallVector<Value> current(s.begin(), s.end());
                      current[3] = lb.orI(s[3], full);
                      return lb.ifThen(
                          active, current, [&]() -> SmallVector<Value> {
                            // The best remaining box: the highest score above
                            // the threshold, the lowest index among equals.
                            SmallVector<Value> best = lb.loop(
                                zero, boxes, {boxes, negInf},
                                [&](Value j,
                                    ValueRange bs) -> SmallVector<Value> {
                                  Value score =
                                      lb.extract(op.getScores(), {b, c, j});
                                  Value free =
                                      lb.cmp(P::ne, lb.extract(s[2], j), tag);
                                  auto gt = [&](Value x, Value y) -> Value {
                                    return arith::CmpFOp::create(
                                        rewriter, loc,
                                        arith::CmpFPredicate::OGT, x, y);
                                  };
                                  Value none = lb.cmp(P::eq, bs[0], boxes);
                                  Value better = lb.andI(
                                      lb.andI(free, gt(score, minScore)),
                                      lb.orI(none, gt(score, bs[1])));
                                  return {lb.select(better, j, bs[0]),
                                          lb.select(better, score, bs[1])};
                                });
                            Value found = lb.cmp(P::ne, best[0], boxes);
                            SmallVector<Value> next(s.begin(), s.end());
                            next[3] = lb.notI(found);
                            return lb.ifThen(
                                found, next, [&]() -> SmallVector<Value> {
                                  Value j = best[0];
                                  Value taken = lb.insert(tag, s[2], j);
                                  auto box =
                                      corners(rewriter, loc, lb, op.getBoxes(),
                                              b, j, centered);
                                  Value suppressed = lb.loop(
                                      start, s[1], {lb.boolean(false)},
                                      [&](Value q, ValueRange sup)
                                          -> SmallVector<Value> {
                                        Value other = lb.index(
                                            lb.extract(s[0], {q, lb.idx(2)}));
                                        auto obox = corners(rewriter, loc, lb,
                                                            op.getBoxes(), b,
                                                            other, centered);
                                        return {
                                            lb.orI(sup[0],
                                                   iouExceeds(rewriter, loc,
                                                              box, obox, iou))};
                                      })[0];
                                  SmallVector<Value> dropped = {
                                      s[0], s[1], taken, lb.boolean(false)};
                                  return lb.ifThen(
                                      lb.notI(suppressed), dropped,
                                      [&]() -> SmallVector<Value> {
                                        Value row = s[0];
                                        row = lb.insert(lb.i64(b), row,
                                                        {s[1], lb.idx(0)});
                                        row = lb.insert(lb.i64(c), row,
                                                        {s[1], lb.idx(1)});
                                        row = lb.insert(lb.i64(j), row,
                                                        {s[1], lb.idx(2)});
                                        return {row, lb.add(s[1], lb.idx(1)),
                                                taken, lb.boolean(false)};
                                      });
                                });
                          });
                    });
                return {steps[0], steps[1], steps[2]};
              });
        });
    Value rows = clamped(rewriter, loc, res[1], rowsBound);
    rewriter.replaceOp(op, lb.prefix(res[0], {rows, Value()}));
    return success();
  }
};

/// TopK along the last dimension: each row is scanned once, and an element
/// better than the last kept one (or any while fewer than k are kept) is
/// inserted in order, the worse ones shifted down (equal values keep the
/// order of their indices).
struct TopKLowering : OpRewritePattern<dlc::TopKOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(dlc::TopKOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    LoopBuilder lb{rewriter, loc};
    Value x = op.getInput();
    auto in = cast<RankedTensorType>(x.getType());
    int64_t rank = in.getRank();
    Type et = in.getElementType(), i64 = rewriter.getI64Type();
    auto dim = [&](Value t, int64_t d) -> Value {
      return rewriter.createOrFold<tensor::DimOp>(loc, t, d);
    };
    // The rows: [R, n], the leading dimensions collapsed.
    SmallVector<ReassociationIndices> groups;
    Value rowsOf = x;
    if (rank == 1) {
      rowsOf = tensor::ExpandShapeOp::create(
          rewriter, loc,
          RankedTensorType::get({1, in.getDimSize(0)}, et), x,
          ArrayRef<ReassociationIndices>{{0, 1}},
          ArrayRef<OpFoldResult>{rewriter.getIndexAttr(1),
                                 getAsOpFoldResult(dim(x, 0))});
    } else {
      ReassociationIndices lead;
      for (int64_t d = 0; d + 1 < rank; ++d)
        lead.push_back(d);
      groups = {lead, {rank - 1}};
      rowsOf = tensor::CollapseShapeOp::create(rewriter, loc, x, groups);
    }
    Value rows = dim(rowsOf, 0), n = dim(rowsOf, 1), k = op.getK();
    Value zero = lb.idx(0), one = lb.idx(1);
    if (isZeroInteger(getAsOpFoldResult(k)) || isZeroInteger(getAsOpFoldResult(n))) {
      // Nothing is kept (static sizes of 0 leave no element to read).
      SmallVector<Value> empty;
      for (Type type : op->getResultTypes()) {
        auto t = cast<RankedTensorType>(type);
        SmallVector<Value> sizes;
        for (int64_t d = 0; d < t.getRank(); ++d)
          if (t.isDynamicDim(d))
            sizes.push_back(d + 1 == t.getRank() ? zero : dim(x, d));
        empty.push_back(tensor::EmptyOp::create(rewriter, loc, t.getShape(),
                                                t.getElementType(), sizes));
      }
      rewriter.replaceOp(op, empty);
      return success();
    }
    SmallVector<OpFoldResult> outSizes = {getAsOpFoldResult(rows),
                                          getAsOpFoldResult(k)};
    Value vals = tensor::EmptyOp::create(rewriter, loc, outSizes, et);
    Value idxs = tensor::EmptyOp::create(rewriter, loc, outSizes, i64);
    bool largest = op.getLargest();
    // NaN counts as larger than every number (as in PyTorch): first among
    // the largest, last among the smallest.
    auto better = [&](Value a, Value b) -> Value {
      auto isNaN = [&](Value x) -> Value {
        return arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::UNO,
                                     x, x);
      };
      Value ordered = arith::CmpFOp::create(
          rewriter, loc,
          largest ? arith::CmpFPredicate::OGT : arith::CmpFPredicate::OLT, a,
          b);
      Value nan = largest ? lb.andI(isNaN(a), lb.notI(isNaN(b)))
                          : lb.andI(lb.notI(isNaN(a)), isNaN(b));
      return lb.orI(ordered, nan);
    };
    // No element is scanned when nothing is kept.
    Value scan = lb.select(lb.cmp(arith::CmpIPredicate::sgt, k, zero), n, zero);
    SmallVector<Value> out = lb.loop(
        zero, rows, {vals, idxs},
        [&](Value r, ValueRange acc) -> SmallVector<Value> {
          SmallVector<Value> row = lb.loop(
              zero, scan, {acc[0], acc[1], zero},
              [&](Value i, ValueRange c) -> SmallVector<Value> {
                Value v = lb.extract(rowsOf, {r, i});
                Value count = c[2];
                Value notFull = lb.cmp(arith::CmpIPredicate::ult, count, k);
                auto takeIf = scf::IfOp::create(rewriter, loc,
                                                rewriter.getI1Type(), notFull,
                                                /*withElseRegion=*/true);
                {
                  OpBuilder::InsertionGuard guard(rewriter);
                  rewriter.setInsertionPointToStart(takeIf.thenBlock());
                  scf::YieldOp::create(rewriter, loc, lb.boolean(true));
                  rewriter.setInsertionPointToStart(takeIf.elseBlock());
                  Value last = lb.extract(
                      c[0], {r, arith::SubIOp::create(rewriter, loc, k, one)});
                  scf::YieldOp::create(rewriter, loc, better(v, last));
                }
                return lb.ifThen(
                    takeIf.getResult(0), c, [&]() -> SmallVector<Value> {
                      Value kept = lb.select(notFull, lb.add(count, one), count);
                      Value start = arith::SubIOp::create(rewriter, loc, kept, one);
                      // Shift the worse elements down from the last slot.
                      SmallVector<Type> types = {rewriter.getIndexType(),
                                                 c[0].getType(), c[1].getType()};
                      auto shift = scf::WhileOp::create(
                          rewriter, loc, types,
                          ValueRange{start, c[0], c[1]});
                      OpBuilder::InsertionGuard guard(rewriter);
                      SmallVector<Location> locs(3, loc);
                      Block *before = rewriter.createBlock(
                          &shift.getBefore(), {}, types, locs);
                      Value j = before->getArgument(0);
                      Value positive = lb.cmp(arith::CmpIPredicate::sgt, j, zero);
                      Value prev = lb.select(
                          positive, arith::SubIOp::create(rewriter, loc, j, one),
                          zero);
                      Value go = lb.andI(
                          positive,
                          better(v, lb.extract(before->getArgument(1), {r, prev})));
                      scf::ConditionOp::create(rewriter, loc, go,
                                               before->getArguments());
                      Block *after = rewriter.createBlock(&shift.getAfter(), {},
                                                          types, locs);
                      Value at = after->getArgument(0);
                      Value from = arith::SubIOp::create(rewriter, loc, at, one);
                      Value tv = lb.insert(
                          lb.extract(after->getArgument(1), {r, from}),
                          after->getArgument(1), {r, at});
                      Value ti = lb.insert(
                          lb.extract(after->getArgument(2), {r, from}),
                          after->getArgument(2), {r, at});
                      scf::YieldOp::create(rewriter, loc, ValueRange{from, tv, ti});
                      rewriter.setInsertionPointAfter(shift);
                      Value slot = shift.getResult(0);
                      return {lb.insert(v, shift.getResult(1), {r, slot}),
                              lb.insert(lb.i64(i), shift.getResult(2), {r, slot}),
                              kept};
                    });
              });
          return {row[0], row[1]};
        });
    // The leading dimensions back.
    SmallVector<Value> results;
    for (auto [value, type] :
         llvm::zip(out, op->getResultTypes())) {
      auto resultType = cast<RankedTensorType>(type);
      SmallVector<int64_t> shape(in.getShape());
      shape.back() = ShapedType::kDynamic;
      auto flatType = cast<RankedTensorType>(value.getType());
      Value v;
      if (rank == 1) {
        v = tensor::CollapseShapeOp::create(
            rewriter, loc,
            RankedTensorType::get({ShapedType::kDynamic},
                                  flatType.getElementType()),
            value, ArrayRef<ReassociationIndices>{{0, 1}});
      } else {
        SmallVector<OpFoldResult> sizes;
        for (int64_t d = 0; d + 1 < rank; ++d)
          sizes.push_back(in.isDynamicDim(d)
                              ? OpFoldResult(dim(x, d))
                              : OpFoldResult(rewriter.getIndexAttr(
                                    in.getDimSize(d))));
        sizes.push_back(getAsOpFoldResult(k));
        v = tensor::ExpandShapeOp::create(
            rewriter, loc,
            RankedTensorType::get(shape, flatType.getElementType()), value,
            groups, sizes);
      }
      if (v.getType() != resultType)
        v = tensor::CastOp::create(rewriter, loc, resultType, v);
      results.push_back(v);
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void dlc::populateDataDependentLoweringPatterns(RewritePatternSet &patterns) {
  patterns.add<NonZeroLowering, CompressLowering, UniqueLowering,
               NonMaxSuppressionLowering, TopKLowering>(patterns.getContext());
}
