//===- OpenMPThreads.cpp - thread count and scratch for OpenMP regions ----===//
#include "codegen/cpu/Passes.h"

#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/PatternMatch.h"

namespace dlc {
#define GEN_PASS_DEF_OPENMPTHREADS
#include "codegen/cpu/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {
struct OpenMPThreadsPass : dlc::impl::OpenMPThreadsBase<OpenMPThreadsPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    bool ownsWorkspace = false;
    for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
      ownsWorkspace |= static_cast<bool>(func.getArgAttr(i, "dlc.workspace"));
    if (!ownsWorkspace)
      return;

    OpBuilder b(func.getContext());
    unsigned index = func.getNumArguments();
    if (failed(func.insertArgument(index, b.getI32Type(), {}, func.getLoc())))
      return signalPassFailure();
    func.setArgAttr(index, "dlc.num_threads", b.getUnitAttr());
    Value numThreads = func.getArgument(index);

    IRRewriter rewriter(func.getContext());
    func.walk([&](omp::ParallelOp parallel) {
      parallel.getNumThreadsMutable().assign(numThreads);
      Block &entry = parallel.getRegion().front();
      SmallVector<memref::AllocaScopeOp> scopes;
      parallel.walk([&](memref::AllocaScopeOp s) { scopes.push_back(s); });
      for (memref::AllocaScopeOp scope : scopes) {
        Block &body = scope.getBodyRegion().front();
        for (Operation &op : llvm::make_early_inc_range(body))
          if (auto alloca = dyn_cast<memref::AllocaOp>(op))
            if (alloca->getNumOperands() == 0)
              alloca->moveBefore(&entry, entry.begin());
        if (scope->getNumResults() != 0 ||
            llvm::any_of(body, [](Operation &op) {
              return isa<memref::AllocaOp>(op);
            }))
          continue;
        rewriter.eraseOp(body.getTerminator());
        rewriter.inlineBlockBefore(&body, scope);
        rewriter.eraseOp(scope);
      }
    });
  }
};
} // namespace
