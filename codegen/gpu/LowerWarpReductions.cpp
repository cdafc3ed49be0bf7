//===- LowerWarpReductions.cpp - one output per warp, lanes by shuffles ---===//
#include "codegen/gpu/KernelUtils.h"
#include "codegen/gpu/Passes.h"
#include "ir/DlcAttrs.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace dlc {
#define GEN_PASS_DEF_GPULOWERWARPREDUCTIONS
#include "codegen/gpu/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;

static constexpr int64_t kWarpSize = 32;

static bool isPrivate(MemRefType type) {
  return inAddressSpace(type, gpu::AddressSpace::Private);
}

/// The indices of `op`'s loops for element `linear` of the loops `dims`
/// taken together (row-major), 0 for the other loops.
static SmallVector<Value> loopIndices(RewriterBase &rewriter,
                                      linalg::GenericOp op, Value linear,
                                      ArrayRef<unsigned> dims, Value zero) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<Value> idx(ranges.size(), zero);
  if (dims.size() == 1) {
    idx[dims.front()] = linear;
    return idx;
  }
  SmallVector<int64_t> sizes;
  for (unsigned d : dims)
    sizes.push_back(ranges[d]);
  auto delin = affine::AffineDelinearizeIndexOp::create(rewriter, op.getLoc(),
                                                        linear, sizes);
  for (auto [d, v] : llvm::zip(dims, delin.getResults()))
    idx[d] = v;
  return idx;
}

/// `operand`'s indices at the loop indices `idx`.
static SmallVector<Value> operandIndices(linalg::GenericOp op,
                                         OpOperand &operand,
                                         ArrayRef<Value> idx, Value zero) {
  SmallVector<Value> at;
  for (AffineExpr e : op.getMatchingIndexingMap(&operand).getResults())
    at.push_back(isa<AffineConstantExpr>(e)
                     ? zero
                     : idx[cast<AffineDimExpr>(e).getPosition()]);
  return at;
}

/// Clones `op`'s body at the loop indices `idx` (`map` gives its block
/// arguments' values); returns the values it yields.
static SmallVector<Value> inlineBody(RewriterBase &rewriter,
                                     linalg::GenericOp op, ArrayRef<Value> idx,
                                     IRMapping &map) {
  Block *body = op.getBody();
  for (Operation &bodyOp : body->without_terminator()) {
    if (auto index = dyn_cast<linalg::IndexOp>(bodyOp)) {
      map.map(index.getResult(), idx[index.getDim()]);
      continue;
    }
    rewriter.clone(bodyOp, map);
  }
  SmallVector<Value> yielded;
  for (Value v : body->getTerminator()->getOperands())
    yielded.push_back(map.lookupOrDefault(v));
  return yielded;
}

/// Lowers an elementwise op over one row of a row kernel (a linalg.generic
/// on memrefs run by every lane of the warp): lane l computes the elements
/// l, l + 32, ... (neighbouring lanes neighbouring elements).
static LogicalResult lowerWarpElementwise(RewriterBase &rewriter,
                                          linalg::GenericOp op) {
  Location loc = op.getLoc();
  if (op.hasDynamicShape() || op.getNumReductionLoops() != 0)
    return op.emitError("expected a static elementwise op for a warp");
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<unsigned> spread;
  int64_t count = 1;
  for (auto [d, r] : llvm::enumerate(ranges))
    if (r != 1) {
      spread.push_back(d);
      count *= r;
    }
  if (spread.empty())
    spread.push_back(0);
  rewriter.setInsertionPoint(op);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value lane = gpu::LaneIdOp::create(rewriter, loc, /*upperBound=*/nullptr);
  auto loop = scf::ForOp::create(
      rewriter, loc, lane, arith::ConstantIndexOp::create(rewriter, loc, count),
      arith::ConstantIndexOp::create(rewriter, loc, kWarpSize));
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(loop.getBody());
  SmallVector<Value> idx =
      loopIndices(rewriter, op, loop.getInductionVar(), spread, zero);
  IRMapping map;
  for (OpOperand &operand : op->getOpOperands()) {
    BlockArgument arg = op.getMatchingBlockArgument(&operand);
    if (!arg.use_empty())
      map.map(arg, memref::LoadOp::create(rewriter, loc, operand.get(),
                                          operandIndices(op, operand, idx,
                                                         zero)));
  }
  SmallVector<Value> yielded = inlineBody(rewriter, op, idx, map);
  for (auto [operand, value] : llvm::zip(op.getDpsInitsMutable(), yielded))
    memref::StoreOp::create(rewriter, loc, value, operand.get(),
                            operandIndices(op, operand, idx, zero));
  rewriter.eraseOp(op);
  return success();
}

/// Lowers one warp's reduction (a linalg.generic on memrefs, the tile of a
/// `reduction` kernel, run by every lane of the warp): lane l folds the
/// elements l, l + 32, ... into a partial result starting from the
/// combiner's neutral element, five xor shuffles combine the lanes' partial
/// results, and lane 0 combines the total with the output's initial value
/// and stores it.
static LogicalResult lowerWarpReduction(RewriterBase &rewriter,
                                        linalg::GenericOp op) {
  Location loc = op.getLoc();
  SmallVector<Operation *> combiners;
  Value reduced =
      matchReduction(op.getRegionOutputArgs(), 0, combiners);
  std::optional<TypedAttr> neutral =
      combiners.size() == 1 ? arith::getNeutralElement(combiners[0])
                            : std::nullopt;
  if (!reduced || !neutral || op.getNumDpsInits() != 1 ||
      op.hasDynamicShape())
    return op.emitError("expected a single-combiner reduction for a warp");
  Operation *combiner = combiners[0];
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iters = op.getIteratorTypesArray();
  SmallVector<unsigned> reducedDims;
  int64_t count = 1;
  for (auto [d, r, it] : llvm::enumerate(ranges, iters)) {
    if (linalg::isReductionIterator(it)) {
      reducedDims.push_back(d);
      count *= r;
    } else if (r != 1) {
      return op.emitError("a warp reduces one output, not ") << r;
    }
  }

  // Read now, before ops are inserted between the two.
  auto fill = dyn_cast_or_null<linalg::FillOp>(op->getPrevNode());
  if (fill && (fill.getOutputs()[0] != op.getDpsInits()[0] ||
               fill->getNumResults() != 0))
    fill = nullptr;
  rewriter.setInsertionPoint(op);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value lane = gpu::LaneIdOp::create(rewriter, loc, /*upperBound=*/nullptr);
  Value init = arith::ConstantOp::create(rewriter, loc, *neutral);
  auto loop = scf::ForOp::create(
      rewriter, loc, lane, arith::ConstantIndexOp::create(rewriter, loc, count),
      arith::ConstantIndexOp::create(rewriter, loc, kWarpSize),
      ValueRange{init});
  {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(loop.getBody());
    // The loops' indices: 0 for the unit parallel loops, the element's
    // position for the reduction loops.
    SmallVector<Value> idx =
        loopIndices(rewriter, op, loop.getInductionVar(), reducedDims, zero);
    IRMapping map;
    for (OpOperand *in : op.getDpsInputOperands())
      map.map(op.getMatchingBlockArgument(in),
              memref::LoadOp::create(rewriter, loc, in->get(),
                                     operandIndices(op, *in, idx, zero)));
    map.map(op.getRegionOutputArgs()[0], loop.getRegionIterArgs()[0]);
    scf::YieldOp::create(rewriter, loc, inlineBody(rewriter, op, idx, map));
  }
  // The lanes' partial results: a butterfly of xor shuffles.
  auto combine = [&](Value a, Value b) {
    IRMapping m;
    m.map(combiner->getOperand(0), a);
    m.map(combiner->getOperand(1), b);
    return rewriter.clone(*combiner, m)->getResult(0);
  };
  Value acc = loop.getResult(0);
  Value width = arith::ConstantIntOp::create(rewriter, loc,
                                             rewriter.getI32Type(), kWarpSize);
  for (int64_t offset = kWarpSize / 2; offset > 0; offset /= 2) {
    Value off = arith::ConstantIntOp::create(rewriter, loc,
                                             rewriter.getI32Type(), offset);
    auto shuffle = gpu::ShuffleOp::create(rewriter, loc, acc, off, width,
                                          gpu::ShuffleMode::XOR);
    acc = combine(acc, shuffle.getShuffleResult());
  }
  // Lane 0 stores the output's initial value combined with the total; into
  // a private buffer (a row kernel's reduced value), every lane (each has
  // the total after the butterfly).
  Value output = op.getDpsInits()[0];
  auto outType = cast<MemRefType>(output.getType());
  SmallVector<Value> at(outType.getRank(), zero);
  if (!isPrivate(outType)) {
    Value isFirst = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::eq, lane, zero);
    auto ifOp = scf::IfOp::create(rewriter, loc, isFirst, /*withElse=*/false);
    rewriter.setInsertionPointToStart(&ifOp.getThenRegion().front());
  }
  // The initial value: a fill of the output just before (every lane would
  // store it, and a late lane's store could land after lane 0's result) is
  // folded in; anything else is loaded.
  Value before;
  if (fill) {
    before = fill.getInputs()[0];
    rewriter.eraseOp(fill);
  } else {
    before = memref::LoadOp::create(rewriter, loc, output, at);
  }
  IRMapping m;
  for (Value operand : combiner->getOperands())
    m.map(operand, operand == reduced ? acc : before);
  Value total = rewriter.clone(*combiner, m)->getResult(0);
  memref::StoreOp::create(rewriter, loc, total, output, at);
  rewriter.eraseOp(op);
  return success();
}

namespace {
struct LowerWarpReductionsPass
    : dlc::impl::GpuLowerWarpReductionsBase<LowerWarpReductionsPass> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> ops;
    getOperation().walk([&](linalg::GenericOp op) {
      auto config = op->getAttrOfType<GpuConfigAttr>(kGpuConfigAttrName);
      if (config && config.getKind() == GpuKernelKind::Reduction &&
          op->getParentOfType<gpu::LaunchOp>())
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp op : ops)
      if (failed(op.getNumReductionLoops() != 0
                     ? lowerWarpReduction(rewriter, op)
                     : lowerWarpElementwise(rewriter, op)))
        return signalPassFailure();
    // 64-bit shuffles as pairs of 32-bit ones (what PTX and the emulator
    // exchange).
    RewritePatternSet patterns(&getContext());
    populateGpuShufflePatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
