//===- ScalarElementLoads.cpp - extracted vector elements as loads --------===//
//
// A convolution tile reads its input columns as one vector and broadcasts
// them element by element. On x86 a scalar load is broadcast straight from
// memory (vbroadcastss), while LLVM splits a read of 6 lanes into 4 + 2 and
// broadcasts the last two from a register through a permute. The loads are
// placed where the read was, not at the extracts (upstream's scalar
// transfer lowering loads at each extract, which is wrong when a store to
// the same memory comes in between: a workspace buffer reused by the
// memory plan).
//
//===----------------------------------------------------------------------===//
#include "codegen/cpu/ScalarElementLoads.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;

namespace {
struct ReadOfExtractedElements : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::TransferReadOp read,
                                PatternRewriter &rewriter) const override {
    auto memref = dyn_cast<MemRefType>(read.getBase().getType());
    VectorType type = read.getVectorType();
    if (!memref || read.getMask() || type.isScalable() ||
        type.getRank() == 0 || !read.getPermutationMap().isMinorIdentity() ||
        read.hasOutOfBoundsDim() || read->use_empty())
      return failure();
    SmallVector<vector::ExtractOp> extracts;
    for (Operation *user : read->getUsers()) {
      auto extract = dyn_cast<vector::ExtractOp>(user);
      if (!extract || !extract.getDynamicPosition().empty() ||
          isa<VectorType>(extract.getType()))
        return failure();
      extracts.push_back(extract);
    }
    // In element order (users come in no particular order).
    llvm::sort(extracts, [](vector::ExtractOp a, vector::ExtractOp b) {
      return a.getStaticPosition() < b.getStaticPosition();
    });
    Location loc = read.getLoc();
    rewriter.setInsertionPoint(read);
    SmallVector<Value> base(read.getIndices());
    int64_t lead = static_cast<int64_t>(base.size()) - type.getRank();
    for (vector::ExtractOp extract : extracts) {
      SmallVector<Value> indices(base);
      for (auto [d, pos] : llvm::enumerate(extract.getStaticPosition()))
        if (pos != 0)
          indices[lead + d] = arith::AddIOp::create(
              rewriter, loc, base[lead + d],
              arith::ConstantIndexOp::create(rewriter, loc, pos));
      Value load =
          memref::LoadOp::create(rewriter, loc, read.getBase(), indices);
      rewriter.replaceOp(extract, load);
    }
    rewriter.eraseOp(read);
    return success();
  }
};
} // namespace

void dlc::populateScalarElementLoadPatterns(RewritePatternSet &patterns) {
  // Before the transfer lowering turns the read into a vector.load.
  patterns.add<ReadOfExtractedElements>(patterns.getContext(), /*benefit=*/2);
}
