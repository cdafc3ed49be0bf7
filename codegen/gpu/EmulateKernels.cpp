//===- EmulateKernels.cpp - kernels as host functions (cuda-emulator) -----===//
#include "codegen/gpu/Passes.h"
#include "ir/DlcOps.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"

namespace dlc {
#define GEN_PASS_DEF_EMULATEKERNELS
#include "codegen/gpu/Passes.h.inc"
} // namespace dlc

using namespace mlir;

/// Indices into the thread info array (DLC_EMU_* in dlc_model_abi.h).
enum : int64_t {
  kBlockId = 0,
  kThreadId = 3,
  kBlockDim = 6,
  kGridDim = 9,
  kLinearThread = 12,
  kInfoSize = 16,
  kLanes = 32,
};

static constexpr StringLiteral kBarrierFn = "dlcrt_emu_barrier";
static constexpr StringLiteral kShuffleFn = "dlcrt_emu_shuffle";
static constexpr StringLiteral kAsyncCopyFn = "dlcrt_emu_async_copy";
static constexpr StringLiteral kAsyncWaitFn = "dlcrt_emu_async_wait";
static constexpr StringLiteral kMmaSyncFn = "dlcrt_emu_mma_sync";
static constexpr StringLiteral kLdmatrixFn = "dlcrt_emu_ldmatrix";
static constexpr StringLiteral kWgmmaFn = "dlcrt_emu_wgmma";
/// DLC_EMU_WGMMA_TF32, _F16 and _BF16 in dlc_model_abi.h.
static constexpr int64_t kWgmmaTf32 = 0, kWgmmaF16 = 1, kWgmmaBf16 = 2;
/// DLC_EMU_MMA_M16N8K8_TF32 and DLC_EMU_MMA_M16N8K16 in dlc_model_abi.h.
static constexpr int64_t kMmaM16N8K8Tf32 = 0, kMmaM16N8K16 = 1;

/// The byte address of `memref[indices]`, as an i64.
static Value addressOf(OpBuilder &b, Location loc, Value memref,
                       ValueRange indices) {
  auto type = cast<MemRefType>(memref.getType());
  auto meta = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  Value linear = meta.getOffset();
  for (auto [i, stride] : llvm::zip(indices, meta.getStrides()))
    linear = arith::AddIOp::create(
        b, loc, linear, arith::MulIOp::create(b, loc, i, stride));
  Value bytes = arith::ConstantIndexOp::create(
      b, loc, type.getElementTypeBitWidth() / 8);
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  Value addr = arith::AddIOp::create(
      b, loc, base, arith::MulIOp::create(b, loc, linear, bytes));
  return arith::IndexCastOp::create(b, loc, b.getI64Type(), addr);
}

/// The memref type without its (workgroup) memory space: the block's shared
/// memory is an ordinary host buffer.
static Type withoutMemorySpace(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref || !memref.getMemorySpace())
    return type;
  return MemRefType::get(memref.getShape(), memref.getElementType(),
                         memref.getLayout());
}

static func::FuncOp declare(OpBuilder &b, ModuleOp module, StringRef name,
                            FunctionType type) {
  if (auto f = module.lookupSymbol<func::FuncOp>(name))
    return f;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(module.getBody());
  auto f = func::FuncOp::create(b, module.getLoc(), name, type);
  f.setPrivate();
  return f;
}

namespace {
struct EmulateKernelsPass : dlc::impl::EmulateKernelsBase<EmulateKernelsPass> {
  /// Kernel name -> whether it synchronizes (barriers, shuffles).
  llvm::StringMap<bool> syncs;

  Value infoLoad(OpBuilder &b, Location loc, Value info, int64_t slot) {
    Value i = arith::ConstantIndexOp::create(b, loc, slot);
    Value v = memref::LoadOp::create(b, loc, info, ValueRange{i});
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), v);
  }

  /// Rewrites one gpu op of the kernel body; failure for ops that cannot
  /// be emulated.
  LogicalResult rewrite(Operation *op, OpBuilder &b, ModuleOp module,
                        Value shared, Value info, bool &sync) {
    Location loc = op->getLoc();
    b.setInsertionPoint(op);
    auto replace = [&](Value v) {
      op->replaceAllUsesWith(ValueRange{v});
      op->erase();
      return success();
    };
    auto dimSlot = [](gpu::Dimension d) { return static_cast<int64_t>(d); };
    if (auto o = dyn_cast<gpu::BlockIdOp>(op))
      return replace(infoLoad(b, loc, info, kBlockId + dimSlot(o.getDimension())));
    if (auto o = dyn_cast<gpu::ThreadIdOp>(op))
      return replace(
          infoLoad(b, loc, info, kThreadId + dimSlot(o.getDimension())));
    if (auto o = dyn_cast<gpu::BlockDimOp>(op))
      return replace(
          infoLoad(b, loc, info, kBlockDim + dimSlot(o.getDimension())));
    if (auto o = dyn_cast<gpu::GridDimOp>(op))
      return replace(infoLoad(b, loc, info, kGridDim + dimSlot(o.getDimension())));
    if (isa<gpu::LaneIdOp, gpu::SubgroupIdOp>(op)) {
      Value linear = infoLoad(b, loc, info, kLinearThread);
      Value warp = arith::ConstantIndexOp::create(b, loc, kLanes);
      if (isa<gpu::LaneIdOp>(op))
        return replace(arith::RemUIOp::create(b, loc, linear, warp));
      return replace(arith::DivUIOp::create(b, loc, linear, warp));
    }
    if (isa<gpu::SubgroupSizeOp>(op))
      return replace(arith::ConstantIndexOp::create(b, loc, kLanes));
    if (isa<gpu::DynamicSharedMemoryOp>(op)) {
      Type type = withoutMemorySpace(op->getResult(0).getType());
      return replace(memref::CastOp::create(b, loc, type, shared));
    }
    // An op that becomes a runtime call taking the thread's info (and
    // makes the kernel's threads run as fibers).
    auto callWithInfo = [&](StringRef name) {
      sync = true;
      func::FuncOp f =
          declare(b, module, name, b.getFunctionType({info.getType()}, {}));
      func::CallOp::create(b, loc, f, ValueRange{info});
      op->erase();
      return success();
    };
    if (isa<gpu::BarrierOp>(op))
      return callWithInfo(kBarrierFn);
    if (auto shuffle = dyn_cast<gpu::ShuffleOp>(op)) {
      sync = true;
      Type i32 = b.getI32Type(), i64 = b.getI64Type();
      Type type = shuffle.getValue().getType();
      if (type.getIntOrFloatBitWidth() != 32)
        return shuffle.emitError("cannot emulate a shuffle of ") << type;
      func::FuncOp f = declare(
          b, module, kShuffleFn,
          b.getFunctionType({info.getType(), i32, i32, i32, i32}, {i64}));
      Value bits = shuffle.getValue();
      if (type != i32)
        bits = arith::BitcastOp::create(b, loc, i32, bits);
      Value mode = arith::ConstantIntOp::create(
          b, loc, i32, static_cast<int64_t>(shuffle.getMode()));
      Value packed =
          func::CallOp::create(b, loc, f,
                               ValueRange{info, bits, shuffle.getOffset(),
                                          shuffle.getWidth(), mode})
              .getResult(0);
      Value value = arith::TruncIOp::create(b, loc, i32, packed);
      if (type != i32)
        value = arith::BitcastOp::create(b, loc, type, value);
      Value high = arith::ShRUIOp::create(
          b, loc, packed, arith::ConstantIntOp::create(b, loc, i64, 32));
      Value valid = arith::TruncIOp::create(b, loc, b.getI1Type(), high);
      shuffle.getShuffleResult().replaceAllUsesWith(value);
      shuffle.getValid().replaceAllUsesWith(valid);
      shuffle.erase();
      return success();
    }
    if (auto copy = dyn_cast<nvgpu::DeviceAsyncCopyOp>(op)) {
      if (copy.getSrcElements())
        return op->emitError("cannot emulate a zero-filling asynchronous copy");
      if (!copy->use_empty())
        return op->emitError("cannot emulate asynchronous copy tokens");
      sync = true;
      auto dstType = cast<MemRefType>(copy.getDst().getType());
      int64_t bytes = copy.getDstElements().getZExtValue() *
                      dstType.getElementTypeBitWidth() / 8;
      Type i64 = b.getI64Type();
      func::FuncOp f = declare(
          b, module, kAsyncCopyFn,
          b.getFunctionType({info.getType(), i64, i64, i64}, {}));
      Value dst = addressOf(b, loc, copy.getDst(), copy.getDstIndices());
      Value src = addressOf(b, loc, copy.getSrc(), copy.getSrcIndices());
      Value n = arith::ConstantIntOp::create(b, loc, i64, bytes);
      func::CallOp::create(b, loc, f, ValueRange{info, dst, src, n});
      op->erase();
      return success();
    }
    // A buffer in the thread's frame, allocated once at the kernel's entry.
    auto frameBuffer = [&](MemRefType type) -> Value {
      OpBuilder::InsertionGuard guard(b);
      auto func = op->getParentOfType<func::FuncOp>();
      b.setInsertionPointToStart(&func.getBody().front());
      return memref::AllocaOp::create(b, loc, type);
    };
    auto index = [&](int64_t i) -> Value {
      return arith::ConstantIndexOp::create(b, loc, i);
    };
    if (auto mma = dyn_cast<nvgpu::MmaSyncOp>(op)) {
      // The lane's fragments, widened to f32, go through a buffer in its
      // frame to the warp-level instruction, which writes D after them.
      auto f32 = b.getF32Type();
      auto is = [&](Value v, ArrayRef<int64_t> shape, bool half) {
        auto t = dyn_cast<VectorType>(v.getType());
        return t && t.getShape() == shape &&
               (half ? (t.getElementType().isF16() ||
                        t.getElementType().isBF16())
                     : t.getElementType() == f32);
      };
      std::array<int64_t, 3> shape = mma.getMmaShapeAsArray();
      int64_t kind;
      if (shape == std::array<int64_t, 3>{16, 8, 8} && mma.getTf32Enabled() &&
          is(mma.getMatrixA(), {4, 1}, false) &&
          is(mma.getMatrixB(), {2, 1}, false) &&
          is(mma.getMatrixC(), {2, 2}, false))
        kind = kMmaM16N8K8Tf32;
      else if (shape == std::array<int64_t, 3>{16, 8, 16} &&
               is(mma.getMatrixA(), {4, 2}, true) &&
               is(mma.getMatrixB(), {2, 2}, true) &&
               is(mma.getMatrixC(), {2, 2}, false))
        kind = kMmaM16N8K16;
      else
        return op->emitError("cannot emulate this mma.sync (m16n8k8 tf32 or "
                             "m16n8k16 f16/bf16, with f32 accumulators)");
      sync = true;
      int64_t slot = 0;
      Value frame = frameBuffer(MemRefType::get({20}, f32));
      for (Value v : {mma.getMatrixA(), mma.getMatrixB(), mma.getMatrixC()}) {
        auto type = cast<VectorType>(v.getType());
        for (int64_t i = 0; i < type.getDimSize(0); ++i)
          for (int64_t j = 0; j < type.getDimSize(1); ++j) {
            Value e =
                vector::ExtractOp::create(b, loc, v, ArrayRef<int64_t>{i, j});
            if (e.getType() != f32)
              e = arith::ExtFOp::create(b, loc, f32, e);
            memref::StoreOp::create(b, loc, e, frame,
                                    ValueRange{index(slot++)});
          }
      }
      Type i64 = b.getI64Type(), i32 = b.getI32Type();
      func::FuncOp fn =
          declare(b, module, kMmaSyncFn,
                  b.getFunctionType({info.getType(), i64, i32}, {}));
      func::CallOp::create(
          b, loc, fn,
          ValueRange{info, addressOf(b, loc, frame, index(0)),
                     arith::ConstantIntOp::create(b, loc, i32, kind)});
      SmallVector<Value> d;
      for (int64_t i = 0; i < 4; ++i)
        d.push_back(
            memref::LoadOp::create(b, loc, frame, ValueRange{index(slot + i)}));
      return replace(vector::FromElementsOp::create(
          b, loc, cast<VectorType>(mma.getMatrixC().getType()), d));
    }
    if (auto load = dyn_cast<nvgpu::LdMatrixOp>(op)) {
      auto type = cast<VectorType>(load.getRes().getType());
      Type element = type.getElementType();
      if (element.getIntOrFloatBitWidth() != 16 || type.getRank() != 2 ||
          type.getDimSize(1) != 2)
        return op->emitError("cannot emulate an ldmatrix of ") << type;
      sync = true;
      int64_t n = type.getNumElements();
      Value out = frameBuffer(MemRefType::get({8}, element));
      Type i64 = b.getI64Type(), i32 = b.getI32Type();
      func::FuncOp fn =
          declare(b, module, kLdmatrixFn,
                  b.getFunctionType({info.getType(), i64, i64, i32, i32}, {}));
      func::CallOp::create(
          b, loc, fn,
          ValueRange{
              info, addressOf(b, loc, load.getSrcMemref(), load.getIndices()),
              addressOf(b, loc, out, index(0)),
              arith::ConstantIntOp::create(b, loc, i32, load.getNumTiles()),
              arith::ConstantIntOp::create(b, loc, i32, load.getTranspose())});
      SmallVector<Value> elements;
      for (int64_t i = 0; i < n; ++i)
        elements.push_back(
            memref::LoadOp::create(b, loc, out, ValueRange{index(i)}));
      return replace(vector::FromElementsOp::create(b, loc, type, elements));
    }
    if (auto wgmma = dyn_cast<dlc::WarpgroupMmaOp>(op)) {
      // The thread's accumulators go through a buffer in its frame to the
      // warpgroup-level instruction, which reads A and B from shared
      // memory through the descriptors and overwrites them with D.
      sync = true;
      int64_t elements = wgmma.getN() / 2;
      Value frame = frameBuffer(MemRefType::get({elements}, b.getF32Type()));
      for (int64_t i = 0; i < elements; ++i)
        memref::StoreOp::create(b, loc,
                                vector::ExtractOp::create(b, loc,
                                                          wgmma.getAcc(),
                                                          ArrayRef<int64_t>{i}),
                                frame, ValueRange{index(i)});
      Type i64 = b.getI64Type(), i32 = b.getI32Type();
      func::FuncOp fn = declare(
          b, module, kWgmmaFn,
          b.getFunctionType({info.getType(), i64, i64, i64, i32, i32}, {}));
      int64_t kind =
          wgmma.getPrecision() == dlc::GpuPrecision::TF32   ? kWgmmaTf32
          : wgmma.getPrecision() == dlc::GpuPrecision::BF16 ? kWgmmaBf16
                                                            : kWgmmaF16;
      func::CallOp::create(
          b, loc, fn,
          ValueRange{info, wgmma.getDescA(), wgmma.getDescB(),
                     addressOf(b, loc, frame, index(0)),
                     arith::ConstantIntOp::create(b, loc, i32, wgmma.getN()),
                     arith::ConstantIntOp::create(b, loc, i32, kind)});
      SmallVector<Value> d;
      for (int64_t i = 0; i < elements; ++i)
        d.push_back(
            memref::LoadOp::create(b, loc, frame, ValueRange{index(i)}));
      return replace(vector::FromElementsOp::create(
          b, loc, cast<VectorType>(wgmma.getType()), d));
    }
    if (isa<NVVM::CpAsyncCommitGroupOp>(op)) {
      op->erase();
      return success();
    }
    if (auto wait = dyn_cast<NVVM::CpAsyncWaitGroupOp>(op)) {
      if (wait.getN() != 0)
        return op->emitError("cannot emulate cp.async.wait_group ")
               << wait.getN() << " (only 0: wait for every copy)";
      return callWithInfo(kAsyncWaitFn);
    }
    if (isa<gpu::ReturnOp>(op)) {
      func::ReturnOp::create(b, loc);
      op->erase();
      return success();
    }
    return op->emitError("cannot emulate '") << op->getName() << "' on the CPU";
  }

  /// Turns `kernel` into a func.func taking its parameters, then the
  /// block's shared memory (`sharedBytes`) and the thread's info array.
  LogicalResult emulate(gpu::GPUFuncOp kernel, ModuleOp module,
                        int64_t sharedBytes) {
    if (!kernel.getWorkgroupAttributions().empty() ||
        !kernel.getPrivateAttributions().empty())
      return kernel.emitError("cannot emulate kernels with memory "
                              "attributions; shared memory is dynamic");
    OpBuilder b(module.getBodyRegion());
    b.setInsertionPointToEnd(module.getBody());
    Location loc = kernel.getLoc();
    auto sharedType =
        MemRefType::get({std::max<int64_t>(1, sharedBytes)}, b.getI8Type());
    auto infoType = MemRefType::get({kInfoSize}, b.getI64Type());
    SmallVector<Type> inputs(kernel.getArgumentTypes());
    inputs.append({sharedType, infoType});
    auto func = func::FuncOp::create(b, loc, kernel.getName(),
                                     b.getFunctionType(inputs, {}));
    func.setPrivate();
    func.getBody().takeBody(kernel.getBody());
    Block &entry = func.getBody().front();
    Value shared = entry.addArgument(sharedType, loc);
    Value info = entry.addArgument(infoType, loc);
    SmallVector<Operation *> gpuOps;
    func.walk([&](Operation *op) {
      if (isa<dlc::WarpgroupMmaOp>(op) ||
          (op->getDialect() &&
           llvm::is_contained(
               {StringRef("gpu"), StringRef("nvgpu"), StringRef("nvvm")},
               op->getDialect()->getNamespace())))
        gpuOps.push_back(op);
    });
    bool sync = false;
    for (Operation *op : gpuOps)
      if (failed(rewrite(op, b, module, shared, info, sync)))
        return failure();
    // The shared memory is host memory: no memory space on any type.
    func.walk([](Operation *op) {
      for (Value r : op->getResults())
        r.setType(withoutMemorySpace(r.getType()));
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            arg.setType(withoutMemorySpace(arg.getType()));
    });
    syncs[kernel.getName()] = sync;
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    syncs.clear();
    SmallVector<gpu::LaunchFuncOp> launches;
    module.walk([&](gpu::LaunchFuncOp l) { launches.push_back(l); });
    // Shared memory per kernel: the launches' (constant) dynamic size.
    llvm::StringMap<int64_t> sharedBytes;
    for (gpu::LaunchFuncOp launch : launches) {
      int64_t bytes = 0;
      if (Value size = launch.getDynamicSharedMemorySize()) {
        std::optional<int64_t> c = getConstantIntValue(size);
        if (!c) {
          launch.emitError("cannot emulate a launch with a dynamic shared "
                           "memory size that is not a constant");
          return signalPassFailure();
        }
        bytes = *c;
      }
      int64_t &slot = sharedBytes[launch.getKernelName().getValue()];
      slot = std::max(slot, bytes);
    }
    SmallVector<gpu::GPUModuleOp> kernelModules(
        module.getOps<gpu::GPUModuleOp>());
    for (gpu::GPUModuleOp kernels : kernelModules)
      for (auto kernel :
           llvm::make_early_inc_range(kernels.getOps<gpu::GPUFuncOp>()))
        if (failed(emulate(kernel, module,
                           sharedBytes.lookup(kernel.getName()))))
          return signalPassFailure();

    // Each launch calls a stub that dlc-gpu-emulator-launches turns into a
    // dlcrt_emu_launch call once the host code is in the LLVM dialect.
    OpBuilder b(&getContext());
    for (gpu::LaunchFuncOp launch : launches) {
      if (launch.getAsyncToken() || !launch.getAsyncDependencies().empty() ||
          launch.hasClusterSize()) {
        launch.emitError("async and clustered launches cannot be emulated");
        return signalPassFailure();
      }
      StringRef name = launch.getKernelName().getValue();
      b.setInsertionPoint(launch);
      SmallVector<Value> args = {
          launch.getGridSizeX(),  launch.getGridSizeY(),
          launch.getGridSizeZ(),  launch.getBlockSizeX(),
          launch.getBlockSizeY(), launch.getBlockSizeZ()};
      llvm::append_range(args, launch.getKernelOperands());
      std::string stubName = ("__dlc_emu_launch_" + name).str();
      func::FuncOp stub =
          declare(b, module, stubName,
                  b.getFunctionType(ValueRange(args).getTypes(), {}));
      stub->setAttr("dlc.emu_kernel", FlatSymbolRefAttr::get(
                                          b.getStringAttr(name)));
      stub->setAttr("dlc.emu_shared",
                    b.getI64IntegerAttr(sharedBytes.lookup(name)));
      stub->setAttr("dlc.emu_sync", b.getBoolAttr(syncs.lookup(name)));
      func::CallOp::create(b, launch.getLoc(), stub, args);
      launch.erase();
    }
    // Device copies of helper functions duplicate the host's.
    for (gpu::GPUModuleOp kernels : kernelModules)
      kernels.erase();
    module->removeAttr(gpu::GPUDialect::getContainerModuleAttrName());
  }
};
} // namespace
