//===- Tiling.h - block and thread tiling of GPU kernels on tensors -*- C++ -*-===//
#ifndef DLC_CODEGEN_GPU_TILING_H
#define DLC_CODEGEN_GPU_TILING_H

#include "ir/DlcAttrs.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
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
/// Whether `forall` iterates over the warps of a block (#gpu.warp).
bool isWarpForall(mlir::scf::ForallOp forall);

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

/// A reduction kernel: the root is tiled into blocks as by tileToBlocks and
/// each block's tile into one warp per `thread` tile (an scf.forall mapped
/// to #gpu.warp), which keeps the config: dlc-gpu-lower-warp-reductions
/// spreads it over the warp's lanes once it is on memrefs.
mlir::LogicalResult tileReduction(mlir::RewriterBase &rewriter,
                                  mlir::TilingInterface root,
                                  GpuConfigAttr config);

/// A row kernel (softmax, layer norm): `root` is an elementwise op over
/// rows whose inputs come, through elementwise ops, from reductions over
/// the same rows. It is tiled into blocks of rows and each row into one
/// warp as a reduction is, with its chain (gpu_rows::findRowChain)
/// recomputed in the warp's tile (producers used twice are computed
/// twice: a row is read again rather than stored), elementwise
/// producers fused into their consumers, and the reduced values of a row
/// in private buffers of each lane. The warp's reductions and its
/// elementwise ops over the row keep the config:
/// dlc-gpu-lower-warp-reductions spreads them over the lanes.
mlir::LogicalResult tileRows(mlir::RewriterBase &rewriter,
                             mlir::TilingInterface root, GpuConfigAttr config);

/// A contraction kernel: the elementwise ops that consume `root`'s result
/// update it in place (their init becomes the result they read), the last
/// of them is tiled by the config's `workgroup` sizes into a block forall
/// with the contraction and its accumulator's producers (fill, bias) fused
/// in; the contraction's reduction is tiled by `reduction` into an scf.for
/// (the K steps), whose step copies its operand tiles into shared memory
/// (`bufferization.alloc_tensor` in the workgroup address space; the
/// operand without the output's innermost dim transposed, so that every
/// thread reads its rows of both as vectors); then the step, the copies,
/// the accumulator's producers and the epilogues are distributed over the
/// block's threads (the step by `thread`, the copies by 4 contiguous
/// elements, the rest by `thread` over the output's dims).
mlir::LogicalResult tileContraction(mlir::RewriterBase &rewriter,
                                    mlir::linalg::LinalgOp root,
                                    GpuConfigAttr config);

} // namespace dlc::gpu_tiling

#endif
