//===- LowerWarpgroupMma.cpp - dlc.warpgroup_mma to NVVM wgmma ------------===//
#include "codegen/gpu/Passes.h"
#include "ir/DlcOps.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace dlc {
#define GEN_PASS_DEF_GPULOWERWARPGROUPMMA
#include "codegen/gpu/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;

namespace {
struct LowerWarpgroupMmaPass
    : dlc::impl::GpuLowerWarpgroupMmaBase<LowerWarpgroupMmaPass> {
  void runOnOperation() override {
    SmallVector<WarpgroupMmaOp> ops;
    getOperation().walk([&](WarpgroupMmaOp op) { ops.push_back(op); });
    // wgmma reads shared memory through the async proxy: the threads'
    // stores into the tiles (generic proxy) are fenced for it before the
    // barriers that publish them (PTX ISA, "Proxies"; as CUTLASS's
    // fence_view_async_shared).
    DenseSet<Operation *> fenced;
    for (WarpgroupMmaOp op : ops) {
      FunctionOpInterface fn = op->getParentOfType<FunctionOpInterface>();
      if (!fn || !fenced.insert(fn.getOperation()).second)
        continue;
      fn->walk([&](gpu::BarrierOp barrier) {
        OpBuilder b(barrier);
        NVVM::FenceProxyOp::create(
            b, barrier.getLoc(),
            NVVM::ProxyKindAttr::get(b.getContext(),
                                     NVVM::ProxyKind::async_shared),
            NVVM::SharedSpaceAttr::get(b.getContext(),
                                       NVVM::SharedSpace::shared_cta));
      });
    }
    // Chains: each instruction's result is the next one's accumulator
    // (a K step's instructions), with nothing but side-effect-free ops
    // (their descriptors) between them. A chain's instructions are issued
    // back to back on the same accumulator registers, as the PTX ISA
    // allows, and waited for once.
    DenseSet<Operation *> chained;
    for (WarpgroupMmaOp first : ops) {
      if (chained.contains(first))
        continue;
      SmallVector<WarpgroupMmaOp> chain = {first};
      for (WarpgroupMmaOp cur = first;;) {
        Value r = cur.getResult();
        auto next = r.hasOneUse()
                        ? dyn_cast<WarpgroupMmaOp>(*r.getUsers().begin())
                        : WarpgroupMmaOp();
        if (!next || next.getAcc() != r || next->getBlock() != cur->getBlock())
          break;
        bool pure = true;
        for (Operation *op = cur->getNextNode(); op != next;
             op = op->getNextNode())
          pure &= isMemoryEffectFree(op);
        if (!pure)
          break;
        chain.push_back(next);
        cur = next;
      }
      for (WarpgroupMmaOp op : chain)
        chained.insert(op);
      lowerChain(chain);
    }
  }

  static void lowerChain(ArrayRef<WarpgroupMmaOp> chain) {
    WarpgroupMmaOp first = chain.front(), last = chain.back();
    OpBuilder b(first);
    Location loc = first.getLoc();
    MLIRContext *ctx = b.getContext();
    int64_t n = first.getN(), elements = n / 2;
    Type f32 = b.getF32Type();
    auto structType =
        LLVM::LLVMStructType::getLiteral(ctx, SmallVector<Type>(elements, f32));
    Value acc = LLVM::UndefOp::create(b, loc, structType);
    for (int64_t i = 0; i < elements; ++i)
      acc = LLVM::InsertValueOp::create(
          b, loc, acc,
          vector::ExtractOp::create(b, loc, first.getAcc(),
                                    ArrayRef<int64_t>{i}),
          ArrayRef<int64_t>{i});
    NVVM::WgmmaFenceAlignedOp::create(b, loc);
    for (WarpgroupMmaOp op : chain) {
      b.setInsertionPoint(op);
      auto type =
          op.getPrecision() == GpuPrecision::TF32   ? NVVM::WGMMATypes::tf32
          : op.getPrecision() == GpuPrecision::BF16 ? NVVM::WGMMATypes::bf16
                                                    : NVVM::WGMMATypes::f16;
      acc = NVVM::WgmmaMmaAsyncOp::create(
          b, op.getLoc(), structType, acc, op.getDescA(), op.getDescB(),
          NVVM::MMAShapeAttr::get(ctx, 64, n, op.getK()), type, type,
          NVVM::WGMMATypes::f32, NVVM::WGMMAScaleOut::one,
          NVVM::WGMMAScaleIn::one, NVVM::WGMMAScaleIn::one,
          NVVM::MMALayout::row, NVVM::MMALayout::col,
          /*satfinite=*/nullptr);
    }
    b.setInsertionPoint(last);
    NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
    SmallVector<Value> results;
    for (int64_t i = 0; i < elements; ++i)
      results.push_back(
          LLVM::ExtractValueOp::create(b, loc, acc, ArrayRef<int64_t>{i}));
    last.getResult().replaceAllUsesWith(vector::FromElementsOp::create(
        b, loc, cast<VectorType>(last.getType()), results));
    for (WarpgroupMmaOp op : llvm::reverse(chain))
      op.erase();
  }
};
} // namespace
