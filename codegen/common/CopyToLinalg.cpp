//===- CopyToLinalg.cpp - memref.copy -> linalg.copy ----------------------===//
#include "codegen/common/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace dlc {
#define GEN_PASS_DEF_COPYTOLINALG
#include "codegen/common/Passes.h.inc"
} // namespace dlc

using namespace mlir;

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
