//===- LowerTransfers.cpp - dlc.transfer to runtime calls -----------------===//
#include "codegen/gpu/Passes.h"
#include "ir/DlcOps.h"

namespace dlc {
#define GEN_PASS_DEF_GPULOWERTRANSFERS
#include "codegen/gpu/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {
/// The declaration of `name(ctx, dst, src, bytes)` in `module`.
func::FuncOp runtimeCopy(ModuleOp module, StringRef name) {
  if (auto existing = module.lookupSymbol<func::FuncOp>(name))
    return existing;
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  MLIRContext *ctx = module.getContext();
  Type index = b.getIndexType();
  auto decl = func::FuncOp::create(
      b, module.getLoc(), name,
      FunctionType::get(
          ctx, {LLVM::LLVMPointerType::get(ctx), index, index, index}, {}));
  decl.setPrivate();
  return decl;
}

struct LowerTransfersPass
    : dlc::impl::GpuLowerTransfersBase<LowerTransfersPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    SmallVector<dlc::TransferOp> transfers;
    func.walk([&](dlc::TransferOp t) { transfers.push_back(t); });
    if (transfers.empty())
      return;
    BlockArgument context;
    for (BlockArgument arg : func.getArguments())
      if (func.getArgAttr(arg.getArgNumber(), "dlc.cuda_context"))
        context = arg;
    if (!context) {
      transfers.front().emitError(
          "a transfer outside an entry with a launch context");
      return signalPassFailure();
    }
    auto module = func->getParentOfType<ModuleOp>();
    for (dlc::TransferOp t : transfers) {
      OpBuilder b(t);
      Location loc = t.getLoc();
      MemRefType type = t.getSource().getType();
      int64_t bytes = type.getNumElements() *
                      std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
      auto pointer = [&](Value buffer) -> Value {
        return memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer);
      };
      func::CallOp::create(
          b, loc,
          runtimeCopy(module,
                      t.isToHost() ? "dlcrt_cuda_read" : "dlcrt_cuda_write"),
          ValueRange{context, pointer(t.getTarget()), pointer(t.getSource()),
                     arith::ConstantIndexOp::create(b, loc, bytes)});
      t.erase();
    }
  }
};
} // namespace
