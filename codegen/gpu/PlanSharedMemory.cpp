//===- PlanSharedMemory.cpp - a kernel's shared buffers in dynamic shared memory ===//
#include "codegen/gpu/KernelUtils.h"
#include "codegen/gpu/Passes.h"

namespace dlc {
#define GEN_PASS_DEF_GPUPLANSHAREDMEMORY
#include "codegen/gpu/Passes.h.inc"
} // namespace dlc

using namespace mlir;

/// Byte alignment of every shared buffer (a 16-byte vector access).
static constexpr int64_t kAlignment = 16;

static bool isPrivate(MemRefType type) {
  return dlc::inAddressSpace(type, gpu::AddressSpace::Private);
}

static bool isWorkgroup(MemRefType type) {
  return dlc::inAddressSpace(type, gpu::AddressSpace::Workgroup);
}

namespace {
struct PlanSharedMemoryPass
    : dlc::impl::GpuPlanSharedMemoryBase<PlanSharedMemoryPass> {
  using Base::Base;

  LogicalResult plan(gpu::LaunchOp launch) {
    SmallVector<memref::AllocOp> allocs, privates;
    WalkResult walk = launch.walk([&](memref::AllocOp alloc) {
      MemRefType type = alloc.getType();
      if (!type.getMemorySpace())
        return WalkResult::advance();
      if (isPrivate(type) && type.hasStaticShape()) {
        privates.push_back(alloc);
        return WalkResult::advance();
      }
      if (!isWorkgroup(type) || !type.hasStaticShape() ||
          !type.getLayout().isIdentity()) {
        alloc.emitError("cannot place a buffer of type ")
            << type << " in shared memory";
        return WalkResult::interrupt();
      }
      allocs.push_back(alloc);
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return failure();
    Block &body = launch.getBody().front();
    // A thread's private buffers (a row kernel's reduced values): stack
    // slots at the kernel's entry, which LLVM keeps in registers.
    for (memref::AllocOp alloc : privates) {
      OpBuilder pb = OpBuilder::atBlockBegin(&body);
      auto alloca = memref::AllocaOp::create(pb, alloc.getLoc(),
                                             alloc.getType(),
                                             alloc.getAlignmentAttr());
      for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
        if (isa<memref::DeallocOp>(user))
          user->erase();
      alloc.replaceAllUsesWith(alloca.getResult());
      alloc.erase();
    }
    if (allocs.empty())
      return success();
    OpBuilder b = OpBuilder::atBlockBegin(&body);
    Location loc = launch.getLoc();
    MLIRContext *ctx = &getContext();
    auto space = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
    auto bytesType = MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                                     MemRefLayoutAttrInterface(), space);
    Value smem = gpu::DynamicSharedMemoryOp::create(b, loc, bytesType);
    // After it, not before the first op: that may be an alloc erased below.
    b.setInsertionPointAfter(smem.getDefiningOp());
    // Each buffer its own bytes: the K steps' tiles are all live in the
    // loop, so reuse would rarely pay.
    int64_t offset = 0;
    for (memref::AllocOp alloc : allocs) {
      MemRefType type = alloc.getType();
      int64_t bytes =
          type.getNumElements() *
          std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
      Value shift = arith::ConstantIndexOp::create(b, loc, offset);
      Value view = memref::ViewOp::create(b, alloc.getLoc(), type, smem, shift,
                                          ValueRange{});
      for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
        if (isa<memref::DeallocOp>(user))
          user->erase();
      alloc.replaceAllUsesWith(view);
      offset += llvm::alignTo(bytes, kAlignment);
    }
    // Erased last: the builder inserts before the first of them.
    for (memref::AllocOp alloc : allocs)
      alloc.erase();
    if (offset > maxSharedBytes)
      return launch.emitError("the kernel needs ")
             << offset << " bytes of shared memory, more than the "
             << static_cast<int64_t>(maxSharedBytes) << " a block can have";
    b.setInsertionPoint(launch);
    Value size = arith::ConstantIntOp::create(b, loc, b.getI32Type(), offset);
    launch.getDynamicSharedMemorySizeMutable().assign(size);
    return success();
  }

  void runOnOperation() override {
    WalkResult walk = getOperation().walk([&](gpu::LaunchOp launch) {
      return failed(plan(launch)) ? WalkResult::interrupt()
                                  : WalkResult::advance();
    });
    if (walk.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
