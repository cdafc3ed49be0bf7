//===- Tiling.h - block and thread tiling of GPU kernels on tensors -*- C++ -*-===//
#ifndef DLC_CODEGEN_GPU_TILING_H
#define DLC_CODEGEN_GPU_TILING_H

#include "ir/DlcAttrs.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/TilingInterface.h"

namespace dlc::gpu_tiling {

/// A root op tiled into blocks: the block forall and the root's tile in it.
struct BlockTiling {
  mlir::scf::ForallOp forall;
  mlir::Operation *tiledRoot = nullptr;
};

/// Whether `forall` iterates over thread blocks (its mapping is
/// #gpu.block) or over the threads of a block (#gpu.thread).
bool isBlockForall(mlir::scf::ForallOp forall);
bool isThreadForall(mlir::scf::ForallOp forall);

/// Tiles `root`'s loops by `config.workgroup` into an scf.forall mapped to
/// blocks, fusing fills and single-use elementwise producers into the tile
/// (only into the accumulator of ops with reductions).
mlir::FailureOr<BlockTiling> tileToBlocks(mlir::RewriterBase &rewriter,
                                          mlir::TilingInterface root,
                                          GpuConfigAttr config);

/// Distributes the block's work over its threads: the root's tile by
/// `config.thread` (the producers fused into the block fuse into each
/// thread's tile), then every other op left in the block by tiles of its
/// own, each an scf.forall mapped to threads.
mlir::LogicalResult distributeToThreads(mlir::RewriterBase &rewriter,
                                        BlockTiling &block,
                                        GpuConfigAttr config,
                                        int64_t maxThreads);

} // namespace dlc::gpu_tiling

#endif
