//===- DataMovement.cpp - lower constant, reshape, transpose, concat -------===//
#include "ir/DlcOps.h"
#include "passes/lowering/Patterns.h"
#include "passes/lowering/Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace {

struct ConstantLowering : OpRewritePattern<dlc::ConstantOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(dlc::ConstantOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        op, cast<TypedAttr>(op.getValue()));
    return success();
  }
};

struct ReshapeLowering : OpRewritePattern<dlc::ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(dlc::ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getSizes().empty() && op.getInput().getType().hasStaticShape()) {
      rewriter.replaceOp(op, dlc::buildReshape(rewriter, op.getLoc(),
                                               op.getInput(), op.getType()));
      return success();
    }
    // Dynamic: through the flat tensor, viewed at the result's sizes.
    Location loc = op.getLoc();
    auto in = op.getInput().getType();
    auto type = op.getType();
    Type et = type.getElementType();
    SmallVector<ReassociationIndices> inAll(1), outAll(1);
    for (int64_t d = 0; d < in.getRank(); ++d)
      inAll[0].push_back(d);
    for (int64_t d = 0; d < type.getRank(); ++d)
      outAll[0].push_back(d);
    Value flat = op.getInput();
    if (in.getRank() == 0)
      flat = tensor::ExpandShapeOp::create(
          rewriter, loc, RankedTensorType::get({1}, et), flat,
          SmallVector<ReassociationIndices>{});
    else if (in.getRank() > 1)
      flat = tensor::CollapseShapeOp::create(rewriter, loc, flat, inAll);
    int64_t numel = type.hasStaticShape() ? type.getNumElements()
                                          : ShapedType::kDynamic;
    auto flatType = RankedTensorType::get({numel}, et);
    if (flat.getType() != flatType)
      flat = tensor::CastOp::create(rewriter, loc, flatType, flat);
    if (type.getRank() == 0) {
      rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(
          op, type, flat, SmallVector<ReassociationIndices>{});
      return success();
    }
    if (type.getRank() == 1) {
      rewriter.replaceOp(op, flat);
      return success();
    }
    SmallVector<OpFoldResult> shape;
    unsigned next = 0;
    for (int64_t d = 0; d < type.getRank(); ++d)
      shape.push_back(type.isDynamicDim(d)
                          ? OpFoldResult(op.getSizes()[next++])
                          : OpFoldResult(rewriter.getIndexAttr(type.getDimSize(d))));
    rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(op, type, flat, outAll,
                                                       shape);
    return success();
  }
};

struct TransposeLowering : OpRewritePattern<dlc::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(dlc::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto type = op.getType();
    SmallVector<Value> sizes;
    for (auto [d, p] : llvm::enumerate(op.getPerm()))
      if (type.isDynamicDim(d))
        sizes.push_back(
            tensor::DimOp::create(rewriter, op.getLoc(), op.getInput(), p));
    Value init = tensor::EmptyOp::create(rewriter, op.getLoc(), type, sizes);
    rewriter.replaceOp(op, linalg::TransposeOp::create(rewriter, op.getLoc(),
                                                       op.getInput(), init,
                                                       op.getPerm())
                               .getResult());
    return success();
  }
};

struct ConcatLowering : OpRewritePattern<dlc::ConcatOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(dlc::ConcatOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = op.getType();
    int64_t axis = op.getAxis(), rank = type.getRank();
    // Sizes: along the axis the sum of the inputs' (at run time where
    // dynamic), elsewhere an input's.
    SmallVector<Value> dynamicSizes;
    for (int64_t d = 0; d < rank; ++d) {
      if (!type.isDynamicDim(d))
        continue;
      if (d == axis) {
        Value total;
        for (Value in : op.getInputs()) {
          Value n = tensor::DimOp::create(rewriter, loc, in, axis);
          total =
              total ? arith::AddIOp::create(rewriter, loc, total, n).getResult()
                    : n;
        }
        dynamicSizes.push_back(total);
        continue;
      }
      Value from = op.getInputs()[0];
      for (Value in : op.getInputs())
        if (cast<RankedTensorType>(in.getType()).isDynamicDim(d)) {
          from = in;
          break;
        }
      dynamicSizes.push_back(tensor::DimOp::create(rewriter, loc, from, d));
    }
    Value result = tensor::EmptyOp::create(rewriter, loc, type, dynamicSizes);
    OpFoldResult offset = rewriter.getIndexAttr(0);
    for (Value in : op.getInputs()) {
      auto inType = cast<RankedTensorType>(in.getType());
      if (inType.getDimSize(axis) == 0)
        continue;
      SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
      SmallVector<OpFoldResult> sizes, strides(rank, rewriter.getIndexAttr(1));
      for (int64_t d = 0; d < rank; ++d)
        sizes.push_back(
            inType.isDynamicDim(d)
                ? OpFoldResult(tensor::DimOp::create(rewriter, loc, in, d))
                : OpFoldResult(rewriter.getIndexAttr(inType.getDimSize(d))));
      offsets[axis] = offset;
      result = tensor::InsertSliceOp::create(rewriter, loc, in, result, offsets,
                                             sizes, strides);
      Value next = rewriter.createOrFold<arith::AddIOp>(
          loc, getValueOrCreateConstantIndexOp(rewriter, loc, offset),
          getValueOrCreateConstantIndexOp(rewriter, loc, sizes[axis]));
      // A run-time offset is opaque to the value-bounds analysis (a cast
      // through i64 that canonicalization keeps): bufferization compares
      // the slices of the concatenation pairwise, and over sums of many
      // run-time sizes each comparison grows with their number (minutes for
      // a detector's 90 per-class parts). The slices that must match use
      // the same offset values.
      if (!getConstantIntValue(next))
        next = arith::IndexCastUIOp::create(
            rewriter, loc, rewriter.getIndexType(),
            arith::IndexCastOp::create(rewriter, loc, rewriter.getI64Type(),
                                       next));
      offset = getAsOpFoldResult(next);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// out[i] = in[starts + i * steps], per dimension: a strided
/// tensor.extract_slice over the covered range, then a reversal of the
/// dimensions with negative steps.
struct SliceLowering : OpRewritePattern<dlc::SliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(dlc::SliceOp op,
                                PatternRewriter &rewriter) const override {
    auto type = op.getType();
    MLIRContext *ctx = rewriter.getContext();
    Location loc = op.getLoc();
    int64_t rank = type.getRank();
    // A slice without elements (a split of size 0 of an empty axis) reads
    // nothing: tensor.extract_slice would reject its offset.
    if (type.hasStaticShape() && type.getNumElements() == 0) {
      rewriter.replaceOpWithNewOp<tensor::EmptyOp>(op, type.getShape(),
                                                   type.getElementType());
      return success();
    }
    SmallVector<OpFoldResult> offsets, sizes, strides;
    SmallVector<AffineExpr> exprs;
    bool reverse = false;
    for (int64_t d = 0; d < rank; ++d) {
      int64_t n = type.getDimSize(d), start = op.getStarts()[d],
              step = op.getSteps()[d];
      if (ShapedType::isDynamic(n)) {
        // A dimension of run-time size is taken whole (the importers slice
        // only static ones).
        if (start != 0 || step != 1)
          return rewriter.notifyMatchFailure(
              op, "a dynamic dimension must be taken whole");
        offsets.push_back(rewriter.getIndexAttr(0));
        sizes.push_back(
            tensor::DimOp::create(rewriter, loc, op.getInput(), d).getResult());
        strides.push_back(rewriter.getIndexAttr(1));
        exprs.push_back(getAffineDimExpr(d, ctx));
        continue;
      }
      int64_t first = step > 0 || n == 0 ? start : start + (n - 1) * step;
      offsets.push_back(rewriter.getIndexAttr(first));
      sizes.push_back(rewriter.getIndexAttr(n));
      strides.push_back(rewriter.getIndexAttr(std::abs(step)));
      AffineExpr dim = getAffineDimExpr(d, ctx);
      if (step < 0 && n > 1) {
        exprs.push_back(getAffineConstantExpr(n - 1, ctx) - dim);
        reverse = true;
      } else {
        exprs.push_back(dim);
      }
    }
    Value slice = tensor::ExtractSliceOp::create(rewriter, loc, type,
                                                 op.getInput(), offsets, sizes,
                                                 strides);
    if (!reverse) {
      rewriter.replaceOp(op, slice);
      return success();
    }
    Value init =
        tensor::EmptyOp::create(rewriter, loc, sizes, type.getElementType());
    SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::parallel);
    rewriter.replaceOp(
        op, linalg::GenericOp::create(
                rewriter, loc, type, slice, init,
                ArrayRef<AffineMap>{AffineMap::get(rank, 0, exprs, ctx),
                                    rewriter.getMultiDimIdentityMap(rank)},
                iters,
                [](OpBuilder &b, Location l, ValueRange args) {
                  linalg::YieldOp::create(b, l, args[0]);
                })
                .getResult(0));
    return success();
  }
};

/// The position in [0, size) of the ONNX index `index` (an integer;
/// negative ones count from the end). Indices out of [-size, size) are
/// clamped into it, so that no read leaves the data: ONNX leaves their
/// result undefined (with index checks, a dlc.report also fails the run:
/// docs/design.md).
static Value indexWithin(OpBuilder &b, Location l, Value index, Value size) {
  Value idx = arith::IndexCastOp::create(b, l, b.getIndexType(), index);
  Value zero = arith::ConstantIndexOp::create(b, l, 0);
  Value one = arith::ConstantIndexOp::create(b, l, 1);
  Value neg = arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, idx, zero);
  idx = arith::SelectOp::create(b, l, neg,
                                arith::AddIOp::create(b, l, idx, size), idx);
  Value last = arith::SubIOp::create(b, l, size, one);
  return arith::MaxSIOp::create(b, l, arith::MinSIOp::create(b, l, idx, last),
                                zero);
}

/// The ONNX node a location names ("" when none).
static std::string nodeName(Location loc) {
  std::string name;
  loc->walk([&](Location l) {
    if (auto n = dyn_cast<NameLoc>(l)) {
      name = n.getName().str();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return name;
}

/// True when the index `idx` (an index value) lies outside [-n, n).
static Value outsideBounds(OpBuilder &b, Location l, Value idx, Value n) {
  Value lo =
      arith::SubIOp::create(b, l, arith::ConstantIndexOp::create(b, l, 0), n);
  return arith::OrIOp::create(
      b, l, arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, idx, lo),
      arith::CmpIOp::create(b, l, arith::CmpIPredicate::sge, idx, n));
}

/// The start of a check's message: "node 'NAME' (OP): an index is outside ".
static void writeReportPrefix(llvm::raw_ostream &os, Location loc,
                              StringRef opName) {
  std::string node = nodeName(loc);
  if (!node.empty())
    os << "node '" << node << "' ";
  os << "(" << opName << "): an index is outside ";
}

/// With index checks, a dlc.report that fails the run when some element of
/// `indices` lies outside [-n, n) (`n` the axis' size; `axisSize` its value
/// when dynamic, else null): one reduction over the indices. Constant
/// indices are not checked at run time.
static void reportIndicesOutside(PatternRewriter &rewriter, Operation *op,
                                 Value indices, Value axisSize, int64_t n,
                                 StringRef opName) {
  if (matchPattern(indices, m_Constant()))
    return;
  Location loc = op->getLoc();
  auto type = cast<RankedTensorType>(indices.getType());
  int64_t rank = type.getRank();
  auto flagType = RankedTensorType::get({}, rewriter.getI1Type());
  Value init =
      dlc::buildFilled(rewriter, loc, flagType, rewriter.getBoolAttr(false));
  SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::reduction);
  MLIRContext *ctx = rewriter.getContext();
  Value flag =
      linalg::GenericOp::create(
          rewriter, loc, flagType, indices, init,
          ArrayRef<AffineMap>{rewriter.getMultiDimIdentityMap(rank),
                              AffineMap::get(rank, 0, {}, ctx)},
          iters,
          [&](OpBuilder &b, Location l, ValueRange args) {
            Value idx =
                arith::IndexCastOp::create(b, l, b.getIndexType(), args[0]);
            Value hi =
                axisSize ? axisSize : arith::ConstantIndexOp::create(b, l, n);
            Value bad = outsideBounds(b, l, idx, hi);
            linalg::YieldOp::create(
                b, l, Value(arith::OrIOp::create(b, l, args[1], bad)));
          })
          .getResult(0);
  Value failed = tensor::ExtractOp::create(rewriter, loc, flag, ValueRange{});
  std::string message;
  llvm::raw_string_ostream os(message);
  writeReportPrefix(os, loc, opName);
  if (ShapedType::isDynamic(n))
    os << "its axis";
  else
    os << "[" << -n << ", " << n << ")";
  dlc::ReportOp::create(rewriter, loc, failed, message);
}

/// dlc.check_indices is its indices; with index checks, also a reduction
/// that compares each index with its bound (the bounds' one element, or
/// the one at the index's position along the last dimension) and a
/// dlc.report naming the node.
struct CheckIndicesLowering : OpRewritePattern<dlc::CheckIndicesOp> {
  CheckIndicesLowering(MLIRContext *ctx, bool checks)
      : OpRewritePattern(ctx), checks(checks) {}
  bool checks;
  LogicalResult matchAndRewrite(dlc::CheckIndicesOp op,
                                PatternRewriter &rewriter) const override {
    Value indices = op.getIndices(), bounds = op.getBounds();
    // Constant indices within constant bounds are checked at compile time
    // (dlc-lower-to-linalg).
    if (checks && !(matchPattern(indices, m_Constant()) &&
                    matchPattern(bounds, m_Constant())))
      report(rewriter, op, indices, bounds);
    rewriter.replaceOp(op, indices);
    return success();
  }

  static void report(PatternRewriter &rewriter, dlc::CheckIndicesOp op,
                     Value indices, Value bounds) {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    int64_t rank = cast<RankedTensorType>(indices.getType()).getRank();
    bool one = cast<RankedTensorType>(bounds.getType()).getDimSize(0) == 1;
    AffineMap boundsMap = AffineMap::get(rank, 0,
                                         one ? getAffineConstantExpr(0, ctx)
                                             : getAffineDimExpr(rank - 1, ctx));
    auto flagType = RankedTensorType::get({}, rewriter.getI1Type());
    Value init =
        dlc::buildFilled(rewriter, loc, flagType, rewriter.getBoolAttr(false));
    SmallVector<utils::IteratorType> iters(rank,
                                           utils::IteratorType::reduction);
    Value flag =
        linalg::GenericOp::create(
            rewriter, loc, flagType, ValueRange{indices, bounds}, init,
            ArrayRef<AffineMap>{rewriter.getMultiDimIdentityMap(rank),
                                boundsMap, AffineMap::get(rank, 0, {}, ctx)},
            iters,
            [&](OpBuilder &b, Location l, ValueRange args) {
              Type index = b.getIndexType();
              Value idx = arith::IndexCastOp::create(b, l, index, args[0]);
              Value hi = arith::IndexCastOp::create(b, l, index, args[1]);
              Value bad = outsideBounds(b, l, idx, hi);
              linalg::YieldOp::create(
                  b, l, Value(arith::OrIOp::create(b, l, args[2], bad)));
            })
            .getResult(0);
    Value failed = tensor::ExtractOp::create(rewriter, loc, flag, ValueRange{});
    std::string message;
    llvm::raw_string_ostream os(message);
    writeReportPrefix(os, loc, op.getOpType());
    DenseIntElementsAttr sizes;
    if (!matchPattern(bounds, m_Constant(&sizes))) {
      os << "the data dimension it addresses";
    } else if (sizes.isSplat()) {
      int64_t n = sizes.getSplatValue<APInt>().getSExtValue();
      os << "[" << -n << ", " << n << ")";
    } else {
      os << "the data dimension it addresses (sizes ";
      llvm::interleaveComma(sizes.getValues<APInt>(), os,
                            [&](const APInt &v) { os << v.getSExtValue(); });
      os << ")";
    }
    dlc::ReportOp::create(rewriter, loc, failed, message);
  }
};

/// out[pre, i..., post] = data[pre, wrap(indices[i...]), post].
struct GatherLowering : OpRewritePattern<dlc::GatherOp> {
  GatherLowering(MLIRContext *ctx, bool checks)
      : OpRewritePattern(ctx), checks(checks) {}
  bool checks;
  LogicalResult matchAndRewrite(dlc::GatherOp op,
                                PatternRewriter &rewriter) const override {
    auto type = op.getType();
    auto dataType = op.getInput().getType();
    auto idxType = op.getIndices().getType();
    MLIRContext *ctx = rewriter.getContext();
    int64_t rank = type.getRank(), axis = op.getAxis();
    int64_t ri = idxType.getRank();
    SmallVector<AffineExpr> idxExprs;
    for (int64_t i = 0; i < ri; ++i)
      idxExprs.push_back(getAffineDimExpr(axis + i, ctx));
    Value data = op.getInput();
    Location loc = op.getLoc();
    // Dynamic result dimensions come from the data's dimensions before and
    // after the axis and from the indices' in between.
    SmallVector<Value> sizes;
    for (int64_t d = 0; d < rank; ++d) {
      if (!type.isDynamicDim(d))
        continue;
      if (d < axis)
        sizes.push_back(tensor::DimOp::create(rewriter, loc, data, d));
      else if (d < axis + ri)
        sizes.push_back(
            tensor::DimOp::create(rewriter, loc, op.getIndices(), d - axis));
      else
        sizes.push_back(tensor::DimOp::create(rewriter, loc, data, d - ri + 1));
    }
    Value init = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                         type.getElementType(), sizes);
    SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::parallel);
    // The axis' size, for negative indices.
    Value axisSize =
        dataType.isDynamicDim(axis)
            ? Value(tensor::DimOp::create(rewriter, loc, data, axis))
            : Value();
    int64_t n = dataType.getDimSize(axis);
    if (checks)
      reportIndicesOutside(rewriter, op, op.getIndices(), axisSize, n,
                           "Gather");
    rewriter.replaceOp(
        op, linalg::GenericOp::create(
                rewriter, op.getLoc(), type, op.getIndices(), init,
                ArrayRef<AffineMap>{AffineMap::get(rank, 0, idxExprs, ctx),
                                    rewriter.getMultiDimIdentityMap(rank)},
                iters,
                [&](OpBuilder &b, Location l, ValueRange args) {
                  Value idx = indexWithin(
                      b, l, args[0],
                      axisSize ? axisSize
                               : arith::ConstantIndexOp::create(b, l, n));
                  SmallVector<Value> coords;
                  for (int64_t d = 0; d < axis; ++d)
                    coords.push_back(linalg::IndexOp::create(b, l, d));
                  coords.push_back(idx);
                  for (int64_t d = axis + ri; d < rank; ++d)
                    coords.push_back(linalg::IndexOp::create(b, l, d));
                  linalg::YieldOp::create(
                      b, l, Value(tensor::ExtractOp::create(b, l, data, coords)));
                })
                .getResult(0));
    return success();
  }
};

struct GatherElementsLowering : OpRewritePattern<dlc::GatherElementsOp> {
  GatherElementsLowering(MLIRContext *ctx, bool checks)
      : OpRewritePattern(ctx), checks(checks) {}
  bool checks;
  LogicalResult matchAndRewrite(dlc::GatherElementsOp op,
                                PatternRewriter &rewriter) const override {
    auto type = op.getType();
    int64_t rank = type.getRank(), axis = op.getAxis();
    int64_t n = op.getInput().getType().getDimSize(axis);
    Value data = op.getInput();
    Location loc = op.getLoc();
    // The result has the indices' shape; the axis' size for negative
    // indices is read at run time when dynamic.
    SmallVector<Value> sizes;
    for (int64_t d = 0; d < rank; ++d)
      if (type.isDynamicDim(d))
        sizes.push_back(
            tensor::DimOp::create(rewriter, loc, op.getIndices(), d));
    Value init = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                         type.getElementType(), sizes);
    Value axisSize =
        ShapedType::isDynamic(n)
            ? Value(tensor::DimOp::create(rewriter, loc, data, axis))
            : Value();
    if (checks)
      reportIndicesOutside(rewriter, op, op.getIndices(), axisSize, n,
                           "GatherElements");
    SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::parallel);
    AffineMap id = rewriter.getMultiDimIdentityMap(rank);
    rewriter.replaceOp(
        op, linalg::GenericOp::create(
                rewriter, op.getLoc(), type, op.getIndices(), init,
                ArrayRef<AffineMap>{id, id}, iters,
                [&](OpBuilder &b, Location l, ValueRange args) {
                  Value idx = indexWithin(
                      b, l, args[0],
                      axisSize ? axisSize
                               : arith::ConstantIndexOp::create(b, l, n));
                  SmallVector<Value> coords;
                  for (int64_t d = 0; d < rank; ++d)
                    coords.push_back(d == axis ? idx
                                               : Value(linalg::IndexOp::create(
                                                     b, l, d)));
                  linalg::YieldOp::create(
                      b, l, Value(tensor::ExtractOp::create(b, l, data, coords)));
                })
                .getResult(0));
    return success();
  }
};

struct ExpandLowering : OpRewritePattern<dlc::ExpandOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(dlc::ExpandOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, dlc::buildElementwise(
                               rewriter, op.getLoc(), op.getType(),
                               {op.getInput()},
                               [](OpBuilder &, Location, ValueRange args) {
                                 return args[0];
                               }));
    return success();
  }
};

/// [a, b] tiled by [r, s]: broadcast to [r, a, s, b], then reshape.
struct TileLowering : OpRewritePattern<dlc::TileOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(dlc::TileOp op,
                                PatternRewriter &rewriter) const override {
    auto in = op.getInput().getType();
    auto out = op.getType();
    MLIRContext *ctx = rewriter.getContext();
    int64_t rank = in.getRank();
    SmallVector<int64_t> wide;
    SmallVector<AffineExpr> exprs;
    for (int64_t d = 0; d < rank; ++d) {
      int64_t reps = in.getDimSize(d) ? out.getDimSize(d) / in.getDimSize(d) : 0;
      wide.push_back(reps);
      wide.push_back(in.getDimSize(d));
      exprs.push_back(getAffineDimExpr(2 * d + 1, ctx));
    }
    auto wideType = RankedTensorType::get(wide, in.getElementType());
    Value init = tensor::EmptyOp::create(rewriter, op.getLoc(), wide,
                                         in.getElementType());
    SmallVector<utils::IteratorType> iters(2 * rank,
                                           utils::IteratorType::parallel);
    Value broadcast =
        linalg::GenericOp::create(
            rewriter, op.getLoc(), wideType, op.getInput(), init,
            ArrayRef<AffineMap>{AffineMap::get(2 * rank, 0, exprs, ctx),
                                rewriter.getMultiDimIdentityMap(2 * rank)},
            iters,
            [](OpBuilder &b, Location l, ValueRange args) {
              linalg::YieldOp::create(b, l, args[0]);
            })
            .getResult(0);
    rewriter.replaceOp(op, dlc::buildReshape(rewriter, op.getLoc(), broadcast,
                                             out));
    return success();
  }
};

struct PadLowering : OpRewritePattern<dlc::PadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(dlc::PadOp op,
                                PatternRewriter &rewriter) const override {
    Type et = op.getType().getElementType();
    double v = op.getValue().convertToDouble();
    TypedAttr value = isa<FloatType>(et)
                          ? TypedAttr(rewriter.getFloatAttr(et, v))
                          : TypedAttr(rewriter.getIntegerAttr(et, (int64_t)v));
    int64_t rank = op.getType().getRank();
    ArrayRef<int64_t> pads = op.getPads();
    rewriter.replaceOp(op, dlc::buildPad(rewriter, op.getLoc(), op.getInput(),
                                         pads.take_front(rank),
                                         pads.drop_front(rank), value));
    return success();
  }
};

} // namespace

void dlc::populateDataMovementLoweringPatterns(RewritePatternSet &patterns,
                                               bool indexChecks) {
  patterns
      .add<ConstantLowering, ReshapeLowering, TransposeLowering, ConcatLowering,
           SliceLowering, ExpandLowering, TileLowering, PadLowering>(
          patterns.getContext());
  patterns.add<GatherLowering, GatherElementsLowering, CheckIndicesLowering>(
      patterns.getContext(), indexChecks);
}
