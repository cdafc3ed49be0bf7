//===- Vectorize.cpp - vectorize the threads' tiles of GPU kernels --------===//
#include "codegen/gpu/Passes.h"
#include "codegen/gpu/Tiling.h"
#include "ir/DlcAttrs.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace dlc {
#define GEN_PASS_DEF_GPUVECTORIZE
#include "codegen/gpu/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;

/// The tensor-core instruction shape of `contract`'s iterations: the
/// config's `mma` sizes on the innermost m, n and k dims of the contraction
/// (dims in the lhs and the accumulator, the rhs and the accumulator, the
/// reductions), 1 on the others.
static std::optional<SmallVector<int64_t>>
instructionShape(vector::ContractionOp contract, GpuConfigAttr config) {
  SmallVector<AffineMap> maps = contract.getIndexingMapsArray();
  unsigned n = contract.getIteratorTypes().size();
  auto uses = [&](AffineMap map, unsigned d) { return map.isFunctionOfDim(d); };
  std::optional<unsigned> m, nn, k;
  for (unsigned d = 0; d < n; ++d) {
    if (vector::isReductionIterator(contract.getIteratorTypes()[d]))
      k = d;
    else if (uses(maps[0], d) && !uses(maps[1], d))
      m = d;
    else if (uses(maps[1], d) && !uses(maps[0], d))
      nn = d;
  }
  if (!m || !nn || !k)
    return std::nullopt;
  // The config's m, n and k sizes (over the linalg op's loops, in order).
  SmallVector<int64_t> nonZero;
  for (int64_t s : config.getMma())
    if (s)
      nonZero.push_back(s);
  if (nonZero.size() != 3)
    return std::nullopt;
  SmallVector<int64_t> shape(n, 1);
  // A warpgroup instruction's 64 rows are four warps' 16.
  shape[*m] = nonZero[0] == 64 ? 16 : nonZero[0];
  shape[*nn] = nonZero[1];
  shape[*k] = nonZero[2];
  return shape;
}

/// A warp's K step on tensor cores: its contraction, the reads of its
/// operands and accumulator and the write of its result unrolled into
/// instruction-sized pieces, so that each accumulator piece becomes a
/// register fragment of its own once hoisted out of the K loop.
/// The config of the tensor-core K loop whose warp step `op` is, if it is
/// one.
static GpuConfigAttr tensorCoreConfig(Operation *op) {
  auto forall = op->getParentOfType<scf::ForallOp>();
  if (!forall || !gpu_tiling::isWarpForall(forall))
    return {};
  for (auto loop = op->getParentOfType<scf::ForOp>(); loop;
       loop = loop->getParentOfType<scf::ForOp>())
    if (auto config = loop->getAttrOfType<GpuConfigAttr>(kGpuConfigAttrName))
      return config.usesMma() ? config : GpuConfigAttr();
  return {};
}

static void unrollWarpContractions(func::FuncOp func) {
  // The pieces' shapes ride on the ops as an attribute (the unrolled
  // pieces inherit it and are already of that shape).
  constexpr StringLiteral kNative = "dlc.mma_piece";
  MLIRContext *ctx = func.getContext();
  // Half-precision operands are extended to f32 after the vectorizer's
  // broadcasts and transposes: moved before them, so that those fold into
  // the contraction's maps as they do for f32 operands.
  SmallVector<scf::ForallOp> warps;
  func.walk([&](scf::ForallOp forall) {
    if (gpu_tiling::isWarpForall(forall) &&
        forall.getBody()
            ->walk([](vector::ContractionOp contract) {
              return tensorCoreConfig(contract) ? WalkResult::interrupt()
                                                : WalkResult::advance();
            })
            .wasInterrupted())
      warps.push_back(forall);
  });
  for (scf::ForallOp forall : warps) {
    RewritePatternSet patterns(ctx);
    vector::populateSinkVectorOpsPatterns(patterns);
    vector::populateVectorReductionToContractPatterns(patterns);
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    (void)applyPatternsGreedily(forall, std::move(patterns));
  }
  bool any = false;
  func.walk([&](vector::ContractionOp contract) {
    GpuConfigAttr config = tensorCoreConfig(contract);
    if (!config)
      return;
    std::optional<SmallVector<int64_t>> shape =
        instructionShape(contract, config);
    if (!shape)
      return;
    any = true;
    contract->setAttr(kNative, DenseI64ArrayAttr::get(ctx, *shape));
    // The pieces keep the config: the K loop that holds it folds away
    // when it has one step, and dlc-gpu-vector-to-mma must find them.
    contract->setAttr(kGpuConfigAttrName, config);
    SmallVector<AffineMap> maps = contract.getIndexingMapsArray();
    auto project = [&](AffineMap map) {
      SmallVector<int64_t> s;
      for (AffineExpr e : map.getResults())
        s.push_back((*shape)[cast<AffineDimExpr>(e).getPosition()]);
      return DenseI64ArrayAttr::get(ctx, s);
    };
    // (An operand staged in half precision is extended to f32 between its
    // read and the contraction.)
    for (auto [i, v] : llvm::enumerate(contract->getOperands().take_front(3))) {
      if (auto ext = v.getDefiningOp<arith::ExtFOp>()) {
        ext->setAttr(kNative, project(maps[i]));
        v = ext.getIn();
      }
      if (auto read = v.getDefiningOp<vector::TransferReadOp>())
        read->setAttr(kNative, project(maps[i]));
    }
    for (Operation *user : contract->getUsers())
      if (isa<vector::TransferWriteOp>(user))
        user->setAttr(kNative, project(maps[2]));
  });
  if (!any)
    return;
  RewritePatternSet patterns(ctx);
  vector::populateVectorUnrollPatterns(
      patterns, vector::UnrollVectorOptions().setNativeShapeFn(
                    [&](Operation *op) -> std::optional<SmallVector<int64_t>> {
                      auto piece =
                          op->getAttrOfType<DenseI64ArrayAttr>(kNative);
                      if (!piece)
                        return std::nullopt;
                      return llvm::to_vector(piece.asArrayRef());
                    }));
  (void)applyPatternsGreedily(func, std::move(patterns));
  func.walk([&](Operation *op) { op->removeAttr(kNative); });
}

namespace {
struct VectorizePass : dlc::impl::GpuVectorizeBase<VectorizePass> {
  using Base::Base;
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    SmallVector<linalg::LinalgOp> candidates;
    getOperation().walk([&](linalg::LinalgOp op) {
      // (A warp forall's op is a tensor-core contraction's K step or a
      // reduction's warp, which dlc-gpu-lower-warp-reductions spreads.)
      auto thread = op->getParentOfType<scf::ForallOp>();
      if (!thread ||
          !(gpu_tiling::isThreadForall(thread) || tensorCoreConfig(op)) ||
          !op.hasPureTensorSemantics() || op.hasDynamicShape())
        return;
      // Vectors of i1 are bit-packed in memory while i1 tensors are stored
      // one byte per element (as on the CPU): keep boolean ops scalar.
      auto isBool = [](Type t) { return getElementTypeOrSelf(t).isInteger(1); };
      if (llvm::any_of(op->getOperandTypes(), isBool) ||
          llvm::any_of(op->getResultTypes(), isBool))
        return;
      candidates.push_back(op);
    });
    for (linalg::LinalgOp op : candidates) {
      // Ops the vectorizer does not take (gathers with computed indices,
      // convolution windows) stay and become loops, as do a thread's long
      // reductions (a whole 112 x 112 window would be one vector); a
      // contraction's K step is its register block.
      if (failed(linalg::vectorizeOpPrecondition(op)))
        continue;
      int64_t volume = 1, reduced = 1;
      for (auto [r, it] : llvm::zip(op.getStaticLoopRanges(),
                                    op.getIteratorTypesArray())) {
        volume *= r;
        if (linalg::isReductionIterator(it))
          reduced *= r;
      }
      // A warp's K step is spread over its lanes by the mma conversion.
      bool contraction = linalg::isaContractionOpInterface(op);
      bool warp = static_cast<bool>(tensorCoreConfig(op));
      if (!warp && (reduced > maxVolume ||
                    volume > (contraction ? maxContractionVolume : maxVolume)))
        continue;
      // A warp's step as a plain matmul (its unit batch dims dropped, the
      // operands rank-reduced slices): tensor cores take 2-D fragments.
      if (warp && op.getNumLoops() > 3)
        if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation())) {
          linalg::ControlDropUnitDims control;
          control.rankReductionStrategy = linalg::ControlDropUnitDims::
              RankReductionStrategy::ExtractInsertSlice;
          rewriter.setInsertionPoint(generic);
          FailureOr<linalg::DropUnitDimsResult> dropped =
              linalg::dropUnitDims(rewriter, generic, control);
          if (succeeded(dropped)) {
            rewriter.replaceOp(generic, dropped->replacements);
            op = cast<linalg::LinalgOp>(dropped->resultOp.getOperation());
          }
        }
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::VectorizationResult> result =
          linalg::vectorize(rewriter, op);
      if (succeeded(result))
        rewriter.replaceOp(op, result->replacements);
    }
    RewritePatternSet patterns(&getContext());
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    vector::populateVectorReductionToContractPatterns(patterns);
    vector::TransferReadOp::getCanonicalizationPatterns(patterns,
                                                        &getContext());
    vector::TransferWriteOp::getCanonicalizationPatterns(patterns,
                                                         &getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    unrollWarpContractions(getOperation());
  }
};
} // namespace
