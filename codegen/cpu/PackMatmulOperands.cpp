//===- PackMatmulOperands.cpp - B in panels of the register block ---------===//
//
// A matmul's B operand, read one row of `nr` columns per step, is walked
// down a column panel whose rows are a whole row of B apart: for a power of
// two row length (1024 floats, 4 KiB) every row of the panel falls into the
// same few cache sets, and the panel does not stay in L1 or L2 between the
// tiles that reuse it. Constant B operands are stored blocked at compile time
// (dlc-cpu-pack-constant-reads); this pass packs a computed B at run time:
//
//   C[m, n] += A[m, k] * B[k, n]
// ==>
//   Bp = transpose(expand_shape(B) : [K, N/nr, nr] -> [N/nr, K, nr])
//   C3 = expand_shape(C) : [M, N/nr, nr]
//   C3[m, nb, nl] += A[m, k] * Bp[nb, k, nl]
//   C = collapse_shape(C3)
//
// so that each tile's panel of B is contiguous. The copy is one pass over B,
// paid back by matmuls that re-read B from memory many times: only B larger
// than kMinPackedBytes, with enough rows of A to reuse it, is packed.
//
//===----------------------------------------------------------------------===//
#include "codegen/cpu/Passes.h"
#include "codegen/cpu/RegisterBlock.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace dlc {
#define GEN_PASS_DEF_PACKMATMULOPERANDS
#include "codegen/cpu/Passes.h.inc"
} // namespace dlc

using namespace mlir;

/// B operands smaller than this stay in L2 and are read in place.
static constexpr int64_t kMinPackedBytes = 512 << 10;
/// Fewer rows of A than this do not reuse a packed B enough.
static constexpr int64_t kMinRows = 64;

namespace {
struct PackMatmulRhs : OpRewritePattern<linalg::MatmulOp> {
  PackMatmulRhs(MLIRContext *ctx, int64_t panel)
      : OpRewritePattern(ctx), panel(panel) {}

  LogicalResult matchAndRewrite(linalg::MatmulOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || op.getInputs().size() != 2 ||
        op.hasUserDefinedMaps())
      return failure();
    Value a = op.getInputs()[0], b = op.getInputs()[1];
    Value c = op.getOutputs()[0];
    auto aType = dyn_cast<RankedTensorType>(a.getType());
    auto bType = dyn_cast<RankedTensorType>(b.getType());
    auto cType = dyn_cast<RankedTensorType>(c.getType());
    if (!aType || !bType || !cType || !aType.hasStaticShape() ||
        !bType.hasStaticShape() || !cType.hasStaticShape() ||
        !bType.getElementType().isF32() || !cType.getElementType().isF32() ||
        !aType.getElementType().isF32())
      return failure();
    // Constants are packed at compile time.
    if (matchPattern(b, m_Constant()))
      return failure();
    int64_t m = aType.getDimSize(0), k = bType.getDimSize(0),
            n = bType.getDimSize(1);
    if (n % panel != 0 || n == panel || m < kMinRows ||
        k * n * 4 < kMinPackedBytes)
      return failure();

    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    Type f32 = rewriter.getF32Type();
    int64_t nb = n / panel;
    SmallVector<ReassociationIndices> split = {{0}, {1, 2}};
    auto b3 = tensor::ExpandShapeOp::create(
        rewriter, loc, RankedTensorType::get({k, nb, panel}, f32), b, split);
    Value packedInit = tensor::EmptyOp::create(
        rewriter, loc, ArrayRef<int64_t>{nb, k, panel}, f32);
    Value packed = linalg::TransposeOp::create(rewriter, loc, b3, packedInit,
                                               ArrayRef<int64_t>{1, 0, 2})
                       ->getResult(0);
    auto c3 = tensor::ExpandShapeOp::create(
        rewriter, loc, RankedTensorType::get({m, nb, panel}, f32), c, split);

    // (m, nb, nl, k)
    AffineExpr dm, dnb, dnl, dk;
    bindDims(ctx, dm, dnb, dnl, dk);
    SmallVector<AffineMap> maps = {
        AffineMap::get(4, 0, {dm, dk}, ctx),
        AffineMap::get(4, 0, {dnb, dk, dnl}, ctx),
        AffineMap::get(4, 0, {dm, dnb, dnl}, ctx)};
    SmallVector<utils::IteratorType> iters = {
        utils::IteratorType::parallel, utils::IteratorType::parallel,
        utils::IteratorType::parallel, utils::IteratorType::reduction};
    auto generic = linalg::GenericOp::create(
        rewriter, loc, c3.getResultType(), ValueRange{a, packed},
        ValueRange{c3}, maps, iters,
        [](OpBuilder &b, Location loc, ValueRange args) {
          Value mul = arith::MulFOp::create(b, loc, args[0], args[1]);
          Value add = arith::AddFOp::create(b, loc, args[2], mul);
          linalg::YieldOp::create(b, loc, add);
        });
    rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(
        op, cType, generic.getResult(0), split);
    return success();
  }

  int64_t panel;
};

struct PackMatmulOperandsPass
    : dlc::impl::PackMatmulOperandsBase<PackMatmulOperandsPass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    // Panels as wide as the register block's columns.
    patterns.add<PackMatmulRhs>(
        &getContext(),
        dlc::matmulRegisterBlock(vectorWidth, vectorRegisters).cols);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
