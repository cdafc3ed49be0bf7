//===- CopyToLinalg.cpp - memref.copy -> linalg.copy ----------------------===//
#include "codegen/common/CopyRows.h"
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
  memref::CopyOp::create(rewriter, loc,
                         dlc::rowOf(rewriter, loc, op.getSource(), ivs),
                         dlc::rowOf(rewriter, loc, op.getTarget(), ivs));
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
    if (keepContiguous &&
        dlc::hasContiguousRows(op.getSource().getType(), kMinCopiedRow) &&
        dlc::hasContiguousRows(op.getTarget().getType(), kMinCopiedRow)) {
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
