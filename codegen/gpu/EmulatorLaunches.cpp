//===- EmulatorLaunches.cpp - launch stubs -> dlcrt_emu_launch calls ------===//
#include "codegen/gpu/LaunchParams.h"
#include "codegen/gpu/Passes.h"

namespace dlc {
#define GEN_PASS_DEF_EMULATORLAUNCHES
#include "codegen/gpu/Passes.h.inc"
} // namespace dlc

using namespace mlir;

static constexpr StringLiteral kLaunchFn = "dlcrt_emu_launch";
static constexpr int kSyncFlag = 1; // DLC_EMU_SYNC

namespace {
struct EmulatorLaunchesPass
    : dlc::impl::EmulatorLaunchesBase<EmulatorLaunchesPass> {
  /// `thunk(void **params, void *shared, int64_t *info)`: loads each
  /// parameter from its slot and calls `kernel(params..., shared, info)`.
  LLVM::LLVMFuncOp makeThunk(OpBuilder &b, ModuleOp module,
                             LLVM::LLVMFuncOp kernel) {
    MLIRContext *ctx = module.getContext();
    auto ptrTy = LLVM::LLVMPointerType::get(ctx);
    auto voidTy = LLVM::LLVMVoidType::get(ctx);
    std::string name = (kernel.getName() + "__emu").str();
    if (auto existing = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
      return existing;
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToEnd(module.getBody());
    Location loc = kernel.getLoc();
    auto thunk = LLVM::LLVMFuncOp::create(
        b, loc, name,
        LLVM::LLVMFunctionType::get(voidTy, {ptrTy, ptrTy, ptrTy}));
    thunk.setLinkage(LLVM::Linkage::Internal);
    Block *entry = thunk.addEntryBlock(b);
    b.setInsertionPointToStart(entry);
    ArrayRef<Type> params = kernel.getFunctionType().getParams();
    unsigned n = params.size() - 2; // shared, info
    auto arrayTy = LLVM::LLVMArrayType::get(ptrTy, std::max(1u, n));
    SmallVector<Value> args;
    for (unsigned i = 0; i < n; ++i) {
      Value addr = LLVM::GEPOp::create(
          b, loc, ptrTy, arrayTy, entry->getArgument(0),
          ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
      Value slot = LLVM::LoadOp::create(b, loc, ptrTy, addr);
      args.push_back(LLVM::LoadOp::create(b, loc, params[i], slot));
    }
    args.push_back(entry->getArgument(1));
    args.push_back(entry->getArgument(2));
    LLVM::CallOp::create(b, loc, kernel, args);
    LLVM::ReturnOp::create(b, loc, ValueRange{});
    return thunk;
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    OpBuilder b(ctx);
    auto ptrTy = LLVM::LLVMPointerType::get(ctx);
    auto i32 = b.getI32Type(), i64 = b.getI64Type();
    SmallVector<LLVM::LLVMFuncOp> stubs;
    for (auto f : module.getOps<LLVM::LLVMFuncOp>())
      if (f->hasAttr("dlc.emu_kernel"))
        stubs.push_back(f);
    if (stubs.empty())
      return;
    b.setInsertionPointToEnd(module.getBody());
    auto launchFn = module.lookupSymbol<LLVM::LLVMFuncOp>(kLaunchFn);
    if (!launchFn)
      launchFn = LLVM::LLVMFuncOp::create(
          b, module.getLoc(), kLaunchFn,
          LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx),
                                      {ptrTy, ptrTy, i64, i64, i64, i64, i64,
                                       i64, i64, i32}));
    // The calls of each stub, found in one walk.
    llvm::StringMap<SmallVector<LLVM::CallOp>> callsOf;
    module.walk([&](LLVM::CallOp call) {
      if (std::optional<StringRef> callee = call.getCallee())
        callsOf[*callee].push_back(call);
    });
    for (LLVM::LLVMFuncOp stub : stubs) {
      auto kernelRef = stub->getAttrOfType<FlatSymbolRefAttr>("dlc.emu_kernel");
      auto kernel = module.lookupSymbol<LLVM::LLVMFuncOp>(kernelRef.getAttr());
      if (!kernel) {
        stub.emitError("emulated kernel ") << kernelRef << " not found";
        return signalPassFailure();
      }
      LLVM::LLVMFuncOp thunk = makeThunk(b, module, kernel);
      int64_t shared = 0;
      if (auto a = stub->getAttrOfType<IntegerAttr>("dlc.emu_shared"))
        shared = a.getInt();
      bool sync = false;
      if (auto a = stub->getAttrOfType<BoolAttr>("dlc.emu_sync"))
        sync = a.getValue();
      SmallVector<LLVM::CallOp> calls = callsOf.lookup(stub.getName());
      for (LLVM::CallOp call : calls) {
        Location loc = call.getLoc();
        auto func = call->getParentOfType<LLVM::LLVMFuncOp>();
        b.setInsertionPoint(call);
        ValueRange operands = call.getArgOperands();
        Value params =
            dlc::packLaunchParams(b, loc, func, operands.drop_front(6));
        Value fn = LLVM::AddressOfOp::create(b, loc, thunk);
        SmallVector<Value> args = {fn, params};
        for (Value v : operands.take_front(6))
          args.push_back(v.getType() == i64
                             ? v
                             : LLVM::ZExtOp::create(b, loc, i64, v).getResult());
        args.push_back(LLVM::ConstantOp::create(b, loc, i64, shared));
        args.push_back(
            LLVM::ConstantOp::create(b, loc, i32, sync ? kSyncFlag : 0));
        LLVM::CallOp::create(b, loc, launchFn, args);
        call.erase();
      }
      stub.erase();
    }
  }
};
} // namespace
