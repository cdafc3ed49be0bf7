//===- LowerTransfers.cpp - dlc.transfer to runtime calls -----------------===//
#include "codegen/gpu/KernelUtils.h"
#include "codegen/gpu/Passes.h"
#include "ir/DlcOps.h"

namespace dlc {
#define GEN_PASS_DEF_GPULOWERTRANSFERS
#include "codegen/gpu/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {
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
          dlc::runtimeCopyFunction(module, t.isToHost() ? "dlcrt_cuda_read"
                                                        : "dlcrt_cuda_write"),
          ValueRange{context, pointer(t.getTarget()), pointer(t.getSource()),
                     arith::ConstantIndexOp::create(b, loc, bytes)});
      t.erase();
    }
  }
};
} // namespace
