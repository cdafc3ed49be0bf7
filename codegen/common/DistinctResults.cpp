//===- DistinctResults.cpp - one buffer per returned value ----------------===//
#include "codegen/common/Passes.h"

#include "llvm/ADT/SmallPtrSet.h"

namespace dlc {
#define GEN_PASS_DEF_DISTINCTRESULTS
#include "codegen/common/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {
struct DistinctResultsPass
    : dlc::impl::DistinctResultsBase<DistinctResultsPass> {
  void runOnOperation() override {
    bool failedCopy = false;
    getOperation().walk([&](func::ReturnOp ret) {
      llvm::SmallPtrSet<void *, 8> seen;
      OpBuilder b(ret);
      for (OpOperand &operand : ret->getOpOperands()) {
        Value v = operand.get();
        auto type = dyn_cast<MemRefType>(v.getType());
        if (!type || seen.insert(v.getAsOpaquePointer()).second)
          continue;
        if (!type.hasStaticShape()) {
          ret.emitError() << "result " << operand.getOperandNumber()
                          << " repeats a buffer of dynamic shape " << type;
          failedCopy = true;
          continue;
        }
        auto copy = memref::AllocOp::create(
            b, ret.getLoc(),
            MemRefType::get(type.getShape(), type.getElementType()));
        copy.setAlignment(64);
        memref::CopyOp::create(b, ret.getLoc(), v, copy);
        operand.set(copy);
      }
    });
    if (failedCopy)
      signalPassFailure();
  }
};
} // namespace
