//===- Contraction.cpp - lower MatMul and Gemm ------------------------------===//
#include "ir/DlcOps.h"
#include "passes/lowering/Patterns.h"
#include "passes/lowering/Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

namespace {

/// A contraction `out[...] += lhs[...] * rhs[...]` as a linalg.generic whose
/// loops are `numLoops` dims; the last loop is the reduction.
Value buildContraction(OpBuilder &b, Location loc, RankedTensorType resultType,
                       Value lhs, Value rhs, AffineMap lhsMap, AffineMap rhsMap,
                       AffineMap outMap, ValueRange dynamicSizes) {
  Value acc = dlc::buildFilledSized(b, loc, resultType,
                                    b.getZeroAttr(resultType.getElementType()),
                                    dynamicSizes);
  SmallVector<utils::IteratorType> iters(lhsMap.getNumDims(),
                                         utils::IteratorType::parallel);
  iters.back() = utils::IteratorType::reduction;
  auto generic = linalg::GenericOp::create(
      b, loc, resultType, ValueRange{lhs, rhs}, acc,
      ArrayRef<AffineMap>{lhsMap, rhsMap, outMap}, iters,
      [](OpBuilder &nb, Location nl, ValueRange args) {
        Value mul = arith::MulFOp::create(nb, nl, args[0], args[1]);
        linalg::YieldOp::create(nb, nl,
                                Value(arith::AddFOp::create(nb, nl, args[2], mul)));
      });
  return generic.getResult(0);
}

struct MatMulLowering : OpRewritePattern<dlc::MatMulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(dlc::MatMulOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getType());
    Type et = resultType.getElementType();
    Value a = op.getLhs(), b = op.getRhs();
    auto at = cast<RankedTensorType>(a.getType());
    auto bt = cast<RankedTensorType>(b.getType());
    if (at.getRank() == 1) {
      at = RankedTensorType::get({1, at.getDimSize(0)}, et);
      a = dlc::buildReshape(rewriter, loc, a, at);
    }
    if (bt.getRank() == 1) {
      bt = RankedTensorType::get({bt.getDimSize(0), 1}, et);
      b = dlc::buildReshape(rewriter, loc, b, bt);
    }
    if (at.getRank() == 2 && bt.getRank() == 2) {
      auto outType = RankedTensorType::get(
          {at.getDimSize(0), bt.getDimSize(1)}, et);
      // Dynamic sizes: M from A, N from B (dynamicSizes aligns dims from
      // the right, so B's columns come first).
      SmallVector<Value> sizes;
      if (outType.isDynamicDim(0))
        sizes.push_back(tensor::DimOp::create(rewriter, loc, a, 0));
      if (outType.isDynamicDim(1))
        sizes.push_back(tensor::DimOp::create(rewriter, loc, b, 1));
      Value empty = tensor::EmptyOp::create(rewriter, loc, outType, sizes);
      Value zero =
          arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(et));
      Value acc =
          linalg::FillOp::create(rewriter, loc, zero, empty).getResult(0);
      Value mm = linalg::MatmulOp::create(rewriter, loc, ValueRange{a, b}, acc)
                     .getResult(0);
      rewriter.replaceOp(op, dlc::buildReshape(rewriter, loc, mm, resultType));
      return success();
    }
    // Batched, with numpy broadcasting of the batch dims.
    SmallVector<int64_t> batch;
    if (failed(dlc::broadcastShapes(at.getShape().drop_back(2),
                                    bt.getShape().drop_back(2), batch)))
      return rewriter.notifyMatchFailure(op, "batch dims do not broadcast");
    int64_t nb = batch.size();
    int64_t m = at.getDimSize(at.getRank() - 2), k = at.getShape().back();
    int64_t n = bt.getShape().back();
    MLIRContext *ctx = rewriter.getContext();
    unsigned numLoops = nb + 3;
    AffineExpr dm = getAffineDimExpr(nb, ctx), dn = getAffineDimExpr(nb + 1, ctx),
               dk = getAffineDimExpr(nb + 2, ctx);
    auto operandMap = [&](RankedTensorType t, AffineExpr r0, AffineExpr r1) {
      AffineMap bm = dlc::broadcastMap(ctx, t.getShape().drop_back(2), batch);
      SmallVector<AffineExpr> exprs(bm.getResults());
      exprs.push_back(r0);
      exprs.push_back(r1);
      return AffineMap::get(numLoops, 0, exprs, ctx);
    };
    SmallVector<AffineExpr> outExprs;
    for (int64_t i = 0; i < nb; ++i)
      outExprs.push_back(getAffineDimExpr(i, ctx));
    outExprs.push_back(dm);
    outExprs.push_back(dn);
    SmallVector<int64_t> outShape(batch);
    outShape.push_back(m);
    outShape.push_back(n);
    (void)k;
    // Dynamic sizes: a batch dimension from an operand that has it dynamic
    // (aligned from the right), M from A, N from B.
    SmallVector<Value> sizes;
    for (int64_t d = 0; d < nb; ++d) {
      if (!ShapedType::isDynamic(batch[d]))
        continue;
      for (auto [v, t] : {std::pair{a, at}, std::pair{b, bt}}) {
        int64_t od = d - (nb - (t.getRank() - 2));
        if (od >= 0 && t.isDynamicDim(od)) {
          sizes.push_back(tensor::DimOp::create(rewriter, loc, v, od));
          break;
        }
      }
    }
    if (ShapedType::isDynamic(m))
      sizes.push_back(tensor::DimOp::create(rewriter, loc, a, at.getRank() - 2));
    if (ShapedType::isDynamic(n))
      sizes.push_back(tensor::DimOp::create(rewriter, loc, b, bt.getRank() - 1));
    Value result = buildContraction(
        rewriter, loc, RankedTensorType::get(outShape, et), a, b,
        operandMap(at, dm, dk), operandMap(bt, dk, dn),
        AffineMap::get(numLoops, 0, outExprs, ctx), sizes);
    rewriter.replaceOp(op, dlc::buildReshape(rewriter, loc, result, resultType));
    return success();
  }
};

struct GemmLowering : OpRewritePattern<dlc::GemmOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(dlc::GemmOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getType());
    MLIRContext *ctx = rewriter.getContext();
    AffineExpr m = getAffineDimExpr(0, ctx), n = getAffineDimExpr(1, ctx),
               k = getAffineDimExpr(2, ctx);
    AffineMap aMap = AffineMap::get(3, 0, op.getTransA() ? ArrayRef{k, m}
                                                          : ArrayRef{m, k}, ctx);
    AffineMap bMap = AffineMap::get(3, 0, op.getTransB() ? ArrayRef{n, k}
                                                          : ArrayRef{k, n}, ctx);
    AffineMap outMap = AffineMap::get(3, 0, {m, n}, ctx);
    // Dynamic sizes: M from A, N from B.
    SmallVector<Value> sizes;
    if (resultType.isDynamicDim(0))
      sizes.push_back(tensor::DimOp::create(rewriter, loc, op.getA(),
                                            op.getTransA() ? 1 : 0));
    if (resultType.isDynamicDim(1))
      sizes.push_back(tensor::DimOp::create(rewriter, loc, op.getB(),
                                            op.getTransB() ? 0 : 1));
    Value result;
    if (!op.getTransA() && !op.getTransB()) {
      Value acc = dlc::buildFilledSized(
          rewriter, loc, resultType,
          rewriter.getZeroAttr(resultType.getElementType()), sizes);
      result = linalg::MatmulOp::create(rewriter, loc,
                                        ValueRange{op.getA(), op.getB()}, acc)
                   .getResult(0);
    } else {
      result = buildContraction(rewriter, loc, resultType, op.getA(), op.getB(),
                                aMap, bMap, outMap, sizes);
    }
    double alpha = op.getAlpha().convertToDouble();
    double beta = op.getBeta().convertToDouble();
    Value c = op.getC();
    if (c && beta == 0.0)
      c = nullptr;
    if (alpha != 1.0 || c) {
      SmallVector<Value> inputs{result};
      if (c)
        inputs.push_back(c);
      result = dlc::buildElementwise(
          rewriter, loc, resultType, inputs,
          [&](OpBuilder &b, Location l, ValueRange args) {
            Type et = args[0].getType();
            Value v = args[0];
            if (alpha != 1.0)
              v = arith::MulFOp::create(
                  b, l, v,
                  arith::ConstantOp::create(b, l, b.getFloatAttr(et, alpha)));
            if (args.size() > 1) {
              Value cv = args[1];
              if (beta != 1.0)
                cv = arith::MulFOp::create(
                    b, l, cv,
                    arith::ConstantOp::create(b, l, b.getFloatAttr(et, beta)));
              v = arith::AddFOp::create(b, l, v, cv);
            }
            return v;
          });
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// One loop per equation letter (output letters first, then the summed
/// ones); each operand reads its letters; the body multiplies and adds.
struct EinsumLowering : OpRewritePattern<dlc::EinsumOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(dlc::EinsumOp op,
                                PatternRewriter &rewriter) const override {
    MLIRContext *ctx = rewriter.getContext();
    auto [lhs, out] = op.getEquation().split("->");
    SmallVector<StringRef> ins;
    lhs.split(ins, ',');
    std::string letters = out.str();
    for (StringRef in : ins)
      for (char c : in)
        if (letters.find(c) == std::string::npos)
          letters.push_back(c);
    unsigned numLoops = letters.size();
    auto mapOf = [&](StringRef subs) {
      SmallVector<AffineExpr> exprs;
      for (char c : subs)
        exprs.push_back(getAffineDimExpr(letters.find(c), ctx));
      return AffineMap::get(numLoops, 0, exprs, ctx);
    };
    SmallVector<AffineMap> maps;
    for (StringRef in : ins)
      maps.push_back(mapOf(in));
    maps.push_back(mapOf(out));
    SmallVector<utils::IteratorType> iters(numLoops,
                                           utils::IteratorType::reduction);
    for (size_t i = 0; i < out.size(); ++i)
      iters[i] = utils::IteratorType::parallel;
    auto type = op.getType();
    Type et = type.getElementType();
    bool isFloat = isa<FloatType>(et);
    // Dynamic sizes: each output letter's from an input that has it dynamic.
    SmallVector<Value> sizes;
    for (auto [d, c] : llvm::enumerate(out)) {
      if (!type.isDynamicDim(d))
        continue;
      for (auto [in, subs] : llvm::zip(op.getInputs(), ins)) {
        size_t at = subs.find(c);
        if (at != StringRef::npos &&
            cast<RankedTensorType>(in.getType()).isDynamicDim(at)) {
          sizes.push_back(
              tensor::DimOp::create(rewriter, op.getLoc(), in, at));
          break;
        }
      }
    }
    if ((int64_t)sizes.size() != type.getNumDynamicDims())
      return rewriter.notifyMatchFailure(op, "an output size is unknown");
    Value init = dlc::buildFilledSized(rewriter, op.getLoc(), type,
                                       rewriter.getZeroAttr(et), sizes);
    rewriter.replaceOp(
        op, linalg::GenericOp::create(
                rewriter, op.getLoc(), type, op.getInputs(), init, maps, iters,
                [&](OpBuilder &b, Location l, ValueRange args) {
                  Value prod = args[0];
                  for (Value v : args.drop_front().drop_back())
                    prod = isFloat ? Value(arith::MulFOp::create(b, l, prod, v))
                                   : Value(arith::MulIOp::create(b, l, prod, v));
                  Value sum =
                      isFloat ? Value(arith::AddFOp::create(b, l, args.back(), prod))
                              : Value(arith::AddIOp::create(b, l, args.back(), prod));
                  linalg::YieldOp::create(b, l, sum);
                })
                .getResult(0));
    return success();
  }
};

} // namespace

void dlc::populateContractionLoweringPatterns(RewritePatternSet &patterns) {
  patterns.add<MatMulLowering, GemmLowering, EinsumLowering>(
      patterns.getContext());
}
