//===- TileAndFuse.cpp - GPU kernels as block and thread foralls ----------===//
//
// Reads the #dlc.gpu_config of each root op and builds its kernel on
// tensors: an scf.forall over the blocks' tiles (mapped to blocks) with the
// producers fused in, and inside it scf.foralls over the threads' tiles
// (mapped to threads).
//
//===----------------------------------------------------------------------===//
#include "codegen/gpu/Passes.h"
#include "codegen/gpu/Tiling.h"
#include "ir/DlcAttrs.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/TilingInterface.h"

namespace dlc {
#define GEN_PASS_DEF_GPUTILEANDFUSE
#include "codegen/gpu/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;

namespace {
struct TileAndFusePass : dlc::impl::GpuTileAndFuseBase<TileAndFusePass> {
  using Base::Base;

  LogicalResult tileRoot(IRRewriter &rewriter, TilingInterface root,
                         GpuConfigAttr config) {
    root->removeAttr(kGpuConfigAttrName);
    if (config.getKind() == GpuKernelKind::Reduction &&
        !llvm::is_contained(root.getLoopIteratorTypes(),
                            utils::IteratorType::reduction))
      return gpu_tiling::tileRows(rewriter, root, config);
    if (config.getKind() == GpuKernelKind::Reduction)
      return gpu_tiling::tileReduction(rewriter, root, config);
    if (config.getKind() == GpuKernelKind::Contraction)
      return gpu_tiling::tileContraction(
          rewriter, cast<linalg::LinalgOp>(root.getOperation()), config);
    FailureOr<gpu_tiling::BlockTiling> block =
        gpu_tiling::tileToBlocks(rewriter, root, config);
    if (failed(block))
      return root->emitError("failed to tile the op into GPU blocks");
    if (failed(gpu_tiling::distributeToThreads(rewriter, *block, config, maxThreads)))
      return failure();
    return success();
  }

  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    // Consumers first, so that producers fuse into their tiles. Each step
    // re-finds the last op still carrying a config: fusion erases ops.
    // Contractions first: the elementwise ops that consume them become
    // their epilogues (and lose their own configs).
    while (true) {
      TilingInterface last, lastContraction;
      getOperation().walk([&](TilingInterface op) {
        auto config = op->getAttrOfType<GpuConfigAttr>(kGpuConfigAttrName);
        if (!config)
          return;
        // A warp's tile of a reduction keeps its config for the lowering.
        if (op->getParentOfType<scf::ForallOp>())
          return;
        last = op;
        if (config.getKind() == GpuKernelKind::Contraction)
          lastContraction = op;
      });
      if (lastContraction)
        last = lastContraction;
      if (!last)
        return;
      auto config = last->getAttrOfType<GpuConfigAttr>(kGpuConfigAttrName);
      if (!config) {
        last.emitError("expected a #dlc.gpu_config");
        return signalPassFailure();
      }
      if (failed(tileRoot(rewriter, last, config)))
        return signalPassFailure();
    }
  }
};
} // namespace
