//===- Pool.cpp - lower MaxPool, AveragePool and GlobalAveragePool ----------===//
#include "ir/DlcOps.h"
#include "passes/lowering/Patterns.h"
#include "passes/lowering/Utils.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <limits>

using namespace mlir;

namespace {

/// The most taps of a static 2-D window that is lowered tap by tap (larger
/// windows, such as 7 x 7 average pooling, use the named op).
constexpr int64_t kMaxPoolTaps = 25;

/// The largest of `values`, NaN if any is NaN: a chain of compares and
/// selects that x86 matches to one max instruction each (arith.maximumf also
/// orders -0 below +0 and tests for NaN at every step: four more
/// instructions per value, 2.6x the time of a 3 x 3 max pooling on AVX-512),
/// and one unordered compare per pair of values for the NaNs.
static Value nanPropagatingMax(OpBuilder &b, Location l, ValueRange values) {
  Value largest = values[0], anyNaN;
  for (Value v : values.drop_front())
    largest = arith::SelectOp::create(
        b, l,
        arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGT, v, largest), v,
        largest);
  for (size_t i = 0; i < values.size(); i += 2) {
    Value other = values[std::min(i + 1, values.size() - 1)];
    Value nan = arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNO,
                                      values[i], other);
    anyNaN = anyNaN ? arith::OrIOp::create(b, l, anyNaN, nan) : nan;
  }
  auto ft = cast<FloatType>(largest.getType());
  Value qnan = arith::ConstantOp::create(
      b, l, b.getFloatAttr(ft, APFloat::getQNaN(ft.getFloatSemantics())));
  return arith::SelectOp::create(b, l, anyNaN, qnan, largest);
}

/// The named linalg op a 2-D window reduction becomes.
enum class NamedPool { None, Max, Sum };

/// `op`'s input padded with `padValue` for its windows: the begin pads, and
/// at the end the pads or as far as ceil_mode windows reach.
template <typename PoolOp>
Value padForWindows(PatternRewriter &rewriter, PoolOp op, TypedAttr padValue) {
  auto inType = cast<RankedTensorType>(op.getInput().getType());
  auto resultType = cast<RankedTensorType>(op.getType());
  int64_t rank = inType.getRank(), spatial = rank - 2;
  ArrayRef<int64_t> k = op.getKernelShape(), s = op.getStrides(),
                    dil = op.getDilations(), pads = op.getPads();
  SmallVector<int64_t> low(rank, 0), high(rank, 0);
  for (int64_t i = 0; i < spatial; ++i) {
    int64_t in = inType.getDimSize(2 + i), out = resultType.getDimSize(2 + i);
    low[2 + i] = pads[i];
    // Windows of a dynamic size (floor mode) end within the end padding.
    if (ShapedType::isDynamic(in) || ShapedType::isDynamic(out)) {
      high[2 + i] = pads[spatial + i];
      continue;
    }
    // ceil_mode windows may reach past the end padding: pad those too.
    int64_t needed = (out - 1) * s[i] + (k[i] - 1) * dil[i] + 1 - in - pads[i];
    high[2 + i] = std::max(pads[spatial + i], needed);
  }
  return dlc::buildPad(rewriter, op.getLoc(), op.getInput(), low, high,
                       padValue);
}

/// Indexing maps (padded input, window, output) and iterators of a window
/// reduction over (n, c, output position..., window position...).
struct WindowLoops {
  AffineMap input, window, output;
  SmallVector<utils::IteratorType> iterators;
};
WindowLoops windowLoops(MLIRContext *ctx, int64_t rank,
                        ArrayRef<int64_t> strides,
                        ArrayRef<int64_t> dilations) {
  int64_t spatial = rank - 2;
  unsigned numLoops = rank + spatial;
  auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
  SmallVector<AffineExpr> inExprs{d(0), d(1)}, winExprs, outExprs{d(0), d(1)};
  for (int64_t i = 0; i < spatial; ++i) {
    AffineExpr o = d(2 + i), w = d(rank + i);
    inExprs.push_back(o * strides[i] + w * dilations[i]);
    winExprs.push_back(w);
    outExprs.push_back(o);
  }
  WindowLoops loops{AffineMap::get(numLoops, 0, inExprs, ctx),
                    AffineMap::get(numLoops, 0, winExprs, ctx),
                    AffineMap::get(numLoops, 0, outExprs, ctx),
                    SmallVector<utils::IteratorType>(
                        numLoops, utils::IteratorType::parallel)};
  for (unsigned i = rank; i < numLoops; ++i)
    loops.iterators[i] = utils::IteratorType::reduction;
  return loops;
}

/// The padded input and window reduction shared by max and average pooling.
/// `combine` reduces (input element, accumulator); 2-D windows reduce as
/// `namedKind` instead (tap by tap when small and static, else with the
/// named op), which must compute the same.
template <typename PoolOp>
Value buildWindowReduction(PatternRewriter &rewriter, PoolOp op,
                           TypedAttr padValue, TypedAttr initValue,
                           NamedPool namedKind,
                           function_ref<Value(OpBuilder &, Location, Value,
                                              Value)>
                               combine) {
  Location loc = op.getLoc();
  MLIRContext *ctx = rewriter.getContext();
  auto inType = cast<RankedTensorType>(op.getInput().getType());
  auto resultType = cast<RankedTensorType>(op.getType());
  int64_t rank = inType.getRank(), spatial = rank - 2;
  ArrayRef<int64_t> k = op.getKernelShape(), s = op.getStrides(),
                    dil = op.getDilations();
  Value input = padForWindows(rewriter, op, padValue);
  // Small static 2-D windows become one elementwise op over a strided
  // slice of the padded input per window tap, as depthwise convolutions
  // are: it vectorizes along the output columns (contiguous rows of the
  // NCHW tensors), where the named op vectorizes along the channels (a
  // gather per tap).
  if (spatial == 2 && namedKind != NamedPool::None &&
      resultType.hasStaticShape() &&
      cast<RankedTensorType>(input.getType()).hasStaticShape() &&
      k[0] * k[1] <= kMaxPoolTaps) {
    SmallVector<Value> taps;
    for (int64_t kh = 0; kh < k[0]; ++kh)
      for (int64_t kw = 0; kw < k[1]; ++kw)
        taps.push_back(dlc::buildWindowTap(rewriter, loc, input, resultType,
                                           kh * dil[0], kw * dil[1], s));
    return dlc::buildElementwise(
        rewriter, loc, resultType, taps,
        [&](OpBuilder &b, Location l, ValueRange x) -> Value {
          if (namedKind == NamedPool::Sum) {
            Value sum = x[0];
            for (Value v : x.drop_front())
              sum = arith::AddFOp::create(b, l, sum, v);
            return sum;
          }
          return nanPropagatingMax(b, l, x);
        });
  }

  // Sizes of the result's dynamic dimensions: batch and channels from the
  // input, each spatial size by ONNX's formula (floor mode) at run time.
  SmallVector<Value> sizes;
  for (int64_t d = 0; d < rank; ++d) {
    if (!resultType.isDynamicDim(d))
      continue;
    Value in = tensor::DimOp::create(rewriter, loc, op.getInput(), d);
    if (d < 2) {
      sizes.push_back(in);
      continue;
    }
    int64_t i = d - 2, window = (k[i] - 1) * dil[i] + 1;
    AffineExpr x = getAffineDimExpr(0, ctx);
    // (An input smaller than the window gives no output, not a negative
    // size.)
    sizes.push_back(affine::AffineMaxOp::create(
        rewriter, loc,
        AffineMap::get(
            1, 0,
            {(x + op.getPads()[i] + op.getPads()[spatial + i] - window)
                     .floorDiv(s[i]) +
                 1,
             getAffineConstantExpr(0, ctx)},
            ctx),
        ValueRange{in}));
  }
  Value init =
      dlc::buildFilledSized(rewriter, loc, resultType, initValue, sizes);
  Value window =
      tensor::EmptyOp::create(rewriter, loc, k, resultType.getElementType());

  // Other 2-D windows become linalg's named NCHW pooling ops, which the CPU
  // vectorizer handles (strided windows included) once tiled to one output
  // row; a generic with a strided read would stay scalar.
  if (spatial == 2 && namedKind != NamedPool::None) {
    SmallVector<NamedAttribute> attrs{
        rewriter.getNamedAttr("strides", rewriter.getI64TensorAttr(s)),
        rewriter.getNamedAttr("dilations", rewriter.getI64TensorAttr(dil))};
    SmallVector<Value> ins{input, window};
    if (namedKind == NamedPool::Max)
      return linalg::PoolingNchwMaxOp::create(rewriter, loc,
                                              TypeRange{resultType}, ins,
                                              ValueRange{init}, attrs)
          .getResult(0);
    return linalg::PoolingNchwSumOp::create(rewriter, loc,
                                            TypeRange{resultType}, ins,
                                            ValueRange{init}, attrs)
        .getResult(0);
  }

  WindowLoops loops = windowLoops(ctx, rank, s, dil);
  return linalg::GenericOp::create(
             rewriter, loc, resultType, ValueRange{input, window}, init,
             ArrayRef<AffineMap>{loops.input, loops.window, loops.output},
             loops.iterators,
             [&](OpBuilder &b, Location l, ValueRange args) {
               linalg::YieldOp::create(b, l, combine(b, l, args[0], args[2]));
             })
      .getResult(0);
}

struct MaxPoolLowering : OpRewritePattern<dlc::MaxPoolOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(dlc::MaxPoolOp op,
                                PatternRewriter &rewriter) const override {
    auto et = cast<FloatType>(op.getType().getElementType());
    auto negInf = rewriter.getFloatAttr(
        et, -std::numeric_limits<double>::infinity());
    Value result = buildWindowReduction(
        rewriter, op, negInf, negInf, NamedPool::Max,
        [](OpBuilder &b, Location l, Value x, Value acc) -> Value {
          return arith::MaximumFOp::create(b, l, acc, x);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// The flat input index of each window's first maximum: a window
/// reduction carrying (max, index) over the input padded with -inf.
struct MaxPoolIndicesLowering : OpRewritePattern<dlc::MaxPoolIndicesOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(dlc::MaxPoolIndicesOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    RankedTensorType inType = op.getInput().getType();
    auto resultType = cast<RankedTensorType>(op.getType());
    auto et = cast<FloatType>(inType.getElementType());
    int64_t rank = inType.getRank(), spatial = rank - 2;
    ArrayRef<int64_t> k = op.getKernelShape(), s = op.getStrides(),
                      dil = op.getDilations(), pads = op.getPads();
    auto negInf =
        rewriter.getFloatAttr(et, -std::numeric_limits<double>::infinity());
    Value input = padForWindows(rewriter, op, negInf);
    auto maxType = resultType.clone(et);
    Value maxInit = dlc::buildFilled(rewriter, loc, maxType, negInf);
    Value idxInit = dlc::buildFilled(rewriter, loc, resultType,
                                     rewriter.getI64IntegerAttr(0));
    Value window = tensor::EmptyOp::create(rewriter, loc, k, et);
    WindowLoops loops = windowLoops(ctx, rank, s, dil);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{maxType, resultType},
        ValueRange{input, window}, ValueRange{maxInit, idxInit},
        ArrayRef<AffineMap>{loops.input, loops.window, loops.output,
                            loops.output},
        loops.iterators, [&](OpBuilder &b, Location l, ValueRange args) {
          // Row-major index in the unpadded input.
          auto index = [&](int64_t v) -> Value {
            return arith::ConstantIndexOp::create(b, l, v);
          };
          Value flat = linalg::IndexOp::create(b, l, 0);
          flat = arith::AddIOp::create(
              b, l,
              arith::MulIOp::create(b, l, flat, index(inType.getDimSize(1))),
              linalg::IndexOp::create(b, l, 1));
          for (int64_t j = 0; j < spatial; ++j) {
            int64_t i = op.getColumnMajor() ? spatial - 1 - j : j;
            Value pos = arith::AddIOp::create(
                b, l,
                arith::MulIOp::create(
                    b, l, linalg::IndexOp::create(b, l, 2 + i), index(s[i])),
                arith::MulIOp::create(b, l,
                                      linalg::IndexOp::create(b, l, rank + i),
                                      index(dil[i])));
            pos = arith::SubIOp::create(b, l, pos, index(pads[i]));
            flat = arith::AddIOp::create(
                b, l,
                arith::MulIOp::create(b, l, flat,
                                      index(inType.getDimSize(2 + i))),
                pos);
          }
          Value take = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGT,
                                             args[0], args[2]);
          Value idx = arith::IndexCastOp::create(b, l, b.getI64Type(), flat);
          linalg::YieldOp::create(
              b, l,
              ValueRange{arith::SelectOp::create(b, l, take, args[0], args[2]),
                         arith::SelectOp::create(b, l, take, idx, args[3])});
        });
    rewriter.replaceOp(op, generic.getResult(1));
    return success();
  }
};

/// RoiAlign: a window reduction over (region, channel, bin row, bin column,
/// sample row, sample column) whose body finds the sample's position from
/// the region and reads its four bilinear neighbours (ONNX Runtime's
/// rules: samples more than a pixel outside read 0, others clamp to the
/// image).
struct RoiAlignLowering : OpRewritePattern<dlc::RoiAlignOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(dlc::RoiAlignOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    RankedTensorType x = op.getInput().getType();
    auto type = cast<RankedTensorType>(op.getType());
    auto ft = cast<FloatType>(type.getElementType());
    int64_t grid = op.getSamplingRatio();
    int64_t height = x.getDimSize(2), width = x.getDimSize(3);
    int64_t outH = type.getDimSize(2), outW = type.getDimSize(3);
    bool isMax = op.getMode() == "max";
    double scale = op.getSpatialScale().convertToDouble();
    bool halfPixel = op.getHalfPixel();
    Value init = dlc::buildFilled(
        rewriter, loc, type,
        rewriter.getFloatAttr(
            ft, isMax ? -std::numeric_limits<double>::infinity() : 0.0));
    Value window = tensor::EmptyOp::create(rewriter, loc,
                                           ArrayRef<int64_t>{grid, grid}, ft);
    auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
    SmallVector<utils::IteratorType> iters(6, utils::IteratorType::parallel);
    iters[4] = iters[5] = utils::IteratorType::reduction;
    Value input = op.getInput(), rois = op.getRois(),
          batchIndices = op.getBatchIndices();
    Value result = linalg::GenericOp::
                       create(
                           rewriter, loc, type, ValueRange{window}, init,
                           ArrayRef<AffineMap>{
                               AffineMap::get(6, 0, {d(4), d(5)}, ctx),
                               AffineMap::get(6, 0, {d(0), d(1), d(2), d(3)},
                                              ctx)},
                           iters,
                           [&](OpBuilder &b, Location l, ValueRange args) {
                             auto f = [&](double v) -> Value {
                               return arith::ConstantOp::create(
                                   b, l, b.getFloatAttr(ft, v));
                             };
                             auto idx = [&](int64_t v) -> Value {
                               return arith::ConstantIndexOp::create(b, l, v);
                             };
                             auto toF = [&](Value i) -> Value {
                               Value i64 = arith::IndexCastOp::create(
                                   b, l, b.getI64Type(), i);
                               return arith::SIToFPOp::create(b, l, ft, i64);
                             };
                             auto add = [&](Value p, Value q) -> Value {
                               return arith::AddFOp::create(b, l, p, q);
                             };
                             auto sub = [&](Value p, Value q) -> Value {
                               return arith::SubFOp::create(b, l, p, q);
                             };
                             auto mul = [&](Value p, Value q) -> Value {
                               return arith::MulFOp::create(b, l, p, q);
                             };
                             Value r = linalg::IndexOp::create(b, l, 0);
                             Value c = linalg::IndexOp::create(b, l, 1);
                             Value img = arith::IndexCastOp::create(
                                 b, l, b.getIndexType(),
                                 tensor::ExtractOp::create(b, l, batchIndices,
                                                           r));
                             // An image index out of range reads image 0
                             // rather than outside the input.
                             Value valid = arith::AndIOp::create(
                                 b, l,
                                 arith::CmpIOp::create(
                                     b, l, arith::CmpIPredicate::sge, img,
                                     idx(0)),
                                 arith::CmpIOp::create(
                                     b, l, arith::CmpIPredicate::slt, img,
                                     idx(x.getDimSize(0))));
                             img = arith::SelectOp::create(b, l, valid, img,
                                                           idx(0));
                             auto corner = [&](int64_t k) -> Value {
                               Value v = tensor::ExtractOp::create(
                                   b, l, rois, ValueRange{r, idx(k)});
                               return sub(mul(v, f(scale)),
                                          f(halfPixel ? 0.5 : 0.0));
                             };
                             // Along one axis: the sample's coordinate for bin
                             // `bin` and sample `s`.
                             auto coordinate = [&](Value start, Value end,
                                                   unsigned binDim,
                                                   unsigned sampleDim,
                                                   int64_t bins) {
                               Value extent = sub(end, start);
                               if (!halfPixel)
                                 extent = arith::MaximumFOp::create(
                                     b, l, extent, f(1.0));
                               Value binSize = arith::DivFOp::create(
                                   b, l, extent, f((double)bins));
                               Value bin =
                                   toF(linalg::IndexOp::create(b, l, binDim));
                               Value sample = add(toF(linalg::IndexOp::create(
                                                      b, l, sampleDim)),
                                                  f(0.5));
                               return add(add(start, mul(bin, binSize)),
                                          mul(sample, arith::DivFOp::create(
                                                          b, l, binSize,
                                                          f((double)grid))));
                             };
                             Value y =
                                 coordinate(corner(1), corner(3), 2, 4, outH);
                             Value xc =
                                 coordinate(corner(0), corner(2), 3, 5, outW);
                             auto olt = [&](Value p, Value q) -> Value {
                               return arith::CmpFOp::create(
                                   b, l, arith::CmpFPredicate::OLT, p, q);
                             };
                             Value outside = arith::OrIOp::create(
                                 b, l,
                                 arith::OrIOp::create(
                                     b, l, olt(y, f(-1.0)),
                                     olt(f((double)height), y)),
                                 arith::OrIOp::create(
                                     b, l, olt(xc, f(-1.0)),
                                     olt(f((double)width), xc)));
                             // (low, high, fraction) along one axis of `size`.
                             auto neighbours = [&](Value v, int64_t size) {
                               v = arith::MaximumFOp::create(b, l, v, f(0.0));
                               Value low = arith::FPToSIOp::create(
                                   b, l, b.getI64Type(), v);
                               low = arith::IndexCastOp::create(
                                   b, l, b.getIndexType(), low);
                               Value last = idx(size - 1);
                               Value atEnd = arith::CmpIOp::create(
                                   b, l, arith::CmpIPredicate::sge, low, last);
                               low = arith::SelectOp::create(b, l, atEnd, last,
                                                             low);
                               Value high = arith::SelectOp::create(
                                   b, l, atEnd, last,
                                   arith::AddIOp::create(b, l, low, idx(1)));
                               v = arith::SelectOp::create(b, l, atEnd,
                                                           toF(last), v);
                               return std::array<Value, 3>{low, high,
                                                           sub(v, toF(low))};
                             };
                             auto [yl, yh, ly] = neighbours(y, height);
                             auto [xl, xh, lx] = neighbours(xc, width);
                             Value hy = sub(f(1.0), ly), hx = sub(f(1.0), lx);
                             auto at = [&](Value i, Value j) -> Value {
                               return tensor::ExtractOp::create(
                                   b, l, input, ValueRange{img, c, i, j});
                             };
                             std::array<Value, 4> terms = {
                                 mul(mul(hy, hx), at(yl, xl)),
                                 mul(mul(hy, lx), at(yl, xh)),
                                 mul(mul(ly, hx), at(yh, xl)),
                                 mul(mul(ly, lx), at(yh, xh))};
                             Value sample;
                             if (isMax) {
                               // ONNX Runtime's max mode: the largest weighted
                               // term.
                               sample = terms[0];
                               for (int k = 1; k < 4; ++k)
                                 sample = arith::MaximumFOp::create(
                                     b, l, sample, terms[k]);
                             } else {
                               sample = add(add(terms[0], terms[1]),
                                            add(terms[2], terms[3]));
                             }
                             sample = arith::SelectOp::create(b, l, outside,
                                                              f(0.0), sample);
                             Value acc = isMax
                                             ? Value(arith::MaximumFOp::create(
                                                   b, l, args[1], sample))
                                             : add(args[1], sample);
                             linalg::YieldOp::create(b, l, acc);
                           })
                           .getResult(0);
    if (!isMax) {
      // The mean of the grid x grid samples.
      Value count = arith::ConstantOp::create(
          rewriter, loc, rewriter.getFloatAttr(ft, (double)(grid * grid)));
      result = dlc::buildElementwise(
          rewriter, loc, type, result,
          [&](OpBuilder &b, Location l, ValueRange v) -> Value {
            return arith::DivFOp::create(b, l, v[0], count);
          });
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Number of input (or padded, with count_include_pad) elements each output
/// position of one spatial dim averages.
SmallVector<int64_t> windowCounts(int64_t in, int64_t out, int64_t k,
                                  int64_t s, int64_t d, int64_t padBegin,
                                  int64_t padEnd, bool includePad) {
  SmallVector<int64_t> counts;
  int64_t lo = includePad ? -padBegin : 0;
  int64_t hi = includePad ? in + padEnd : in;
  for (int64_t o = 0; o < out; ++o) {
    int64_t n = 0;
    for (int64_t w = 0; w < k; ++w) {
      int64_t pos = o * s - padBegin + w * d;
      n += pos >= lo && pos < hi;
    }
    counts.push_back(std::max<int64_t>(n, 1));
  }
  return counts;
}

/// `sum` over the number of elements each window averages, computed per
/// output position at run time (spatial sizes known at run time only): per
/// spatial dimension, the window positions w in [0, k) whose input
/// position o*s - padBegin + w*d lies in [lo, hi), i.e.
/// min(k, ceil((hi - start) / d)) - max(0, ceil((lo - start) / d)).
Value divideByDynamicCounts(PatternRewriter &rewriter, dlc::AvgPoolOp op,
                            Value sum) {
  Location loc = op.getLoc();
  auto resultType = op.getType();
  auto inType = op.getInput().getType();
  int64_t spatial = resultType.getRank() - 2;
  SmallVector<Value> inSizes;
  for (int64_t i = 0; i < spatial; ++i)
    inSizes.push_back(
        tensor::DimOp::create(rewriter, loc, op.getInput(), 2 + i));
  (void)inType;
  ArrayRef<int64_t> k = op.getKernelShape(), s = op.getStrides(),
                    dil = op.getDilations(), pads = op.getPads();
  bool includePad = op.getCountIncludePad();
  return dlc::buildElementwise(
      rewriter, loc, resultType, {sum},
      [&](OpBuilder &b, Location l, ValueRange args) -> Value {
        auto c = [&](int64_t v) -> Value {
          return arith::ConstantIndexOp::create(b, l, v);
        };
        Value count = c(1);
        for (int64_t i = 0; i < spatial; ++i) {
          Value o = linalg::IndexOp::create(b, l, 2 + i);
          Value start = arith::SubIOp::create(
              b, l, arith::MulIOp::create(b, l, o, c(s[i])), c(pads[i]));
          Value lo = includePad ? c(-pads[i]) : c(0);
          Value hi = includePad ? Value(arith::AddIOp::create(
                                      b, l, inSizes[i], c(pads[spatial + i])))
                                : inSizes[i];
          Value first = arith::MaxSIOp::create(
              b, l, c(0),
              arith::CeilDivSIOp::create(
                  b, l, arith::SubIOp::create(b, l, lo, start), c(dil[i])));
          Value last = arith::MinSIOp::create(
              b, l, c(k[i]),
              arith::CeilDivSIOp::create(
                  b, l, arith::SubIOp::create(b, l, hi, start), c(dil[i])));
          Value n = arith::MaxSIOp::create(
              b, l, c(1), arith::SubIOp::create(b, l, last, first));
          count = arith::MulIOp::create(b, l, count, n);
        }
        Type et = args[0].getType();
        Value f = arith::SIToFPOp::create(
            b, l, et, arith::IndexCastOp::create(b, l, b.getI64Type(), count));
        return arith::DivFOp::create(b, l, args[0], f);
      });
}

struct AvgPoolLowering : OpRewritePattern<dlc::AvgPoolOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(dlc::AvgPoolOp op,
                                PatternRewriter &rewriter) const override {
    auto resultType = op.getType();
    auto et = cast<FloatType>(resultType.getElementType());
    auto zero = rewriter.getFloatAttr(et, 0.0);
    Value sum = buildWindowReduction(
        rewriter, op, zero, zero, NamedPool::Sum,
        [](OpBuilder &b, Location l, Value x, Value acc) -> Value {
          return arith::AddFOp::create(b, l, acc, x);
        });
    auto inType = op.getInput().getType();
    int64_t spatial = resultType.getRank() - 2;
    bool staticSpatial = true;
    for (int64_t i = 0; i < spatial; ++i)
      staticSpatial &=
          !inType.isDynamicDim(2 + i) && !resultType.isDynamicDim(2 + i);
    if (!staticSpatial) {
      rewriter.replaceOp(op, divideByDynamicCounts(rewriter, op, sum));
      return success();
    }
    // Divisors are static: a constant of the spatial output shape.
    SmallVector<SmallVector<int64_t>> perDim;
    SmallVector<int64_t> spatialShape;
    for (int64_t i = 0; i < spatial; ++i) {
      int64_t out = resultType.getDimSize(2 + i);
      spatialShape.push_back(out);
      perDim.push_back(windowCounts(
          inType.getDimSize(2 + i), out, op.getKernelShape()[i],
          op.getStrides()[i], op.getDilations()[i], op.getPads()[i],
          op.getPads()[spatial + i], op.getCountIncludePad()));
    }
    SmallVector<APFloat> divisors;
    int64_t total = 1;
    for (int64_t v : spatialShape)
      total *= v;
    for (int64_t flat = 0; flat < total; ++flat) {
      int64_t rem = flat, count = 1;
      for (int64_t i = spatial - 1; i >= 0; --i) {
        count *= perDim[i][rem % spatialShape[i]];
        rem /= spatialShape[i];
      }
      APFloat v((double)count);
      bool lost;
      v.convert(et.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
      divisors.push_back(v);
    }
    auto divType = RankedTensorType::get(spatialShape, et);
    Value div = arith::ConstantOp::create(
        rewriter, op.getLoc(), DenseElementsAttr::get(divType, divisors));
    Value result = dlc::buildElementwise(
        rewriter, op.getLoc(), resultType, {sum, div},
        [](OpBuilder &b, Location l, ValueRange args) -> Value {
          return arith::DivFOp::create(b, l, args[0], args[1]);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct GlobalAvgPoolLowering : OpRewritePattern<dlc::GlobalAvgPoolOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(dlc::GlobalAvgPoolOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto inType = op.getInput().getType();
    auto resultType = op.getType();
    Type et = resultType.getElementType();
    int64_t rank = inType.getRank();
    auto sumType = RankedTensorType::get(
        {inType.getDimSize(0), inType.getDimSize(1)}, et);
    Value acc = dlc::buildFilledSized(
        rewriter, loc, sumType, rewriter.getZeroAttr(et),
        dlc::dynamicDimsOf(rewriter, loc, op.getInput(), {0, 1}));
    SmallVector<utils::IteratorType> iters(rank,
                                           utils::IteratorType::reduction);
    iters[0] = iters[1] = utils::IteratorType::parallel;
    MLIRContext *ctx = rewriter.getContext();
    AffineMap outMap = AffineMap::get(
        rank, 0, {getAffineDimExpr(0, ctx), getAffineDimExpr(1, ctx)}, ctx);
    Value sum = linalg::GenericOp::create(
                    rewriter, loc, sumType, op.getInput(), acc,
                    ArrayRef<AffineMap>{rewriter.getMultiDimIdentityMap(rank),
                                        outMap},
                    iters,
                    [](OpBuilder &b, Location l, ValueRange args) {
                      linalg::YieldOp::create(
                          b, l, Value(arith::AddFOp::create(b, l, args[1], args[0])));
                    })
                    .getResult(0);
    // The number of spatial elements (at run time where dynamic).
    SmallVector<int64_t> spatialDims;
    for (int64_t d = 2; d < rank; ++d)
      spatialDims.push_back(d);
    // (A static count is a constant in the body.)
    Value count = inType.hasStaticShape()
                      ? Value()
                      : dlc::floatCountAlong(rewriter, loc, op.getInput(),
                                             spatialDims, et);
    Value mean = dlc::buildElementwise(
        rewriter, loc, sumType, {sum},
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          return arith::DivFOp::create(
              b, l, args[0],
              count
                  ? count
                  : dlc::floatCountAlong(b, l, op.getInput(), spatialDims, et));
        });
    rewriter.replaceOp(op, dlc::buildReshape(rewriter, loc, mean, resultType));
    return success();
  }
};

} // namespace

void dlc::populatePoolLoweringPatterns(RewritePatternSet &patterns) {
  patterns.add<MaxPoolLowering, MaxPoolIndicesLowering, AvgPoolLowering,
               GlobalAvgPoolLowering, RoiAlignLowering>(patterns.getContext());
}
