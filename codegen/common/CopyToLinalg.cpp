//===- CopyToLinalg.cpp - memref.copy -> linalg.copy ----------------------===//
#include "codegen/common/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace dlc {
#define GEN_PASS_DEF_COPYTOLINALG
#include "codegen/common/Passes.h.inc"
} // namespace dlc

using namespace mlir;

/// Rows shorter than this are not worth a memcpy each.
static constexpr int64_t kMinCopiedRow = 8;

/// Whether `t` is a static-shape memref whose innermost dimension is
/// contiguous (unit stride) and at least kMinCopiedRow long.
static bool hasContiguousRows(Type t) {
  auto type = dyn_cast<MemRefType>(t);
  if (!type || !type.hasStaticShape() || type.getRank() < 2 ||
      type.getShape().back() < kMinCopiedRow)
    return false;
  SmallVector<int64_t> strides;
  int64_t offset;
  return succeeded(type.getStridesAndOffset(strides, offset)) &&
         strides.back() == 1;
}

/// A copy between views whose rows are contiguous (an activation into the
/// interior of a padded buffer) as loops over the rows, each row a
/// contiguous copy (a memcpy): the elementwise loops of linalg.copy stay
/// scalar (LLVM cannot prove the buffers apart).
static void copyByRows(PatternRewriter &rewriter, memref::CopyOp op) {
  Location loc = op.getLoc();
  auto type = cast<MemRefType>(op.getSource().getType());
  int64_t rank = type.getRank();
  SmallVector<Value> ivs;
  auto zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  auto one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  for (int64_t d = 0; d + 1 < rank; ++d) {
    auto ub = arith::ConstantIndexOp::create(rewriter, loc, type.getDimSize(d));
    auto loop = scf::ForOp::create(rewriter, loc, zero, ub, one);
    ivs.push_back(loop.getInductionVar());
    rewriter.setInsertionPointToStart(loop.getBody());
  }
  SmallVector<OpFoldResult> offsets(ivs.begin(), ivs.end()),
      sizes(rank - 1, rewriter.getIndexAttr(1)),
      strides(rank, rewriter.getIndexAttr(1));
  offsets.push_back(rewriter.getIndexAttr(0));
  sizes.push_back(rewriter.getIndexAttr(type.getShape().back()));
  auto row = [&](Value v) -> Value {
    auto rowType = memref::SubViewOp::inferRankReducedResultType(
        {type.getShape().back()}, cast<MemRefType>(v.getType()), offsets, sizes,
        strides);
    return memref::SubViewOp::create(rewriter, loc, cast<MemRefType>(rowType),
                                     v, offsets, sizes, strides);
  };
  memref::CopyOp::create(rewriter, loc, row(op.getSource()),
                         row(op.getTarget()));
}

namespace {
struct CopyToLinalgPattern : OpRewritePattern<memref::CopyOp> {
  CopyToLinalgPattern(MLIRContext *context, bool keepContiguous)
      : OpRewritePattern(context), keepContiguous(keepContiguous) {}
  bool keepContiguous;
  LogicalResult matchAndRewrite(memref::CopyOp op,
                                PatternRewriter &rewriter) const override {
    // Contiguous buffers on both sides lower to one memcpy (which LLVM
    // makes a library call), far faster than the loops of linalg.copy,
    // which LLVM may vectorize with gathers and scatters.
    auto contiguous = [](Type t) {
      auto type = dyn_cast<MemRefType>(t);
      return type && (type.getLayout().isIdentity() ||
                      memref::isStaticShapeAndContiguousRowMajor(type));
    };
    if (keepContiguous && contiguous(op.getSource().getType()) &&
        contiguous(op.getTarget().getType()))
      return failure();
    if (keepContiguous && hasContiguousRows(op.getSource().getType()) &&
        hasContiguousRows(op.getTarget().getType())) {
      rewriter.setInsertionPoint(op);
      copyByRows(rewriter, op);
      rewriter.eraseOp(op);
      return success();
    }
    rewriter.replaceOpWithNewOp<linalg::CopyOp>(op, op.getSource(),
                                                op.getTarget());
    return success();
  }
};

struct CopyToLinalgPass : dlc::impl::CopyToLinalgBase<CopyToLinalgPass> {
  using Base::Base;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<CopyToLinalgPattern>(&getContext(), keepContiguous);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
