//===- OpenMPThreads.cpp - thread count and scratch for OpenMP regions ----===//
#include "codegen/cpu/Passes.h"

#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/PatternMatch.h"

namespace dlc {
#define GEN_PASS_DEF_OPENMPTHREADS
#include "codegen/cpu/Passes.h.inc"
} // namespace dlc

using namespace mlir;

/// Static trip count of a loop, or 1 when it is not known.
static int64_t tripCount(OpFoldResult lb, OpFoldResult ub, OpFoldResult step) {
  std::optional<int64_t> l = getConstantIntValue(lb), u = getConstantIntValue(ub),
                         s = getConstantIntValue(step);
  if (!l || !u || !s || *s <= 0)
    return 1;
  return std::max<int64_t>(0, (*u - *l + *s - 1) / *s);
}

/// Iterations of the deepest sequential loop nest under `op` (1 if none).
static int64_t nestedIterations(Operation *op) {
  int64_t most = 1;
  for (Region &region : op->getRegions())
    for (Operation &nested : region.getOps()) {
      int64_t inner = nestedIterations(&nested);
      if (auto loop = dyn_cast<scf::ForOp>(nested))
        inner *= tripCount(loop.getLowerBound(), loop.getUpperBound(),
                           loop.getStep());
      most = std::max(most, inner);
    }
  return most;
}

/// Estimated work of a parallel region, in 16-lane vector operations: the
/// worksharing loop's trip count, times the deepest sequential nest in its
/// body, times the widest vector the body computes on (in 16-lane units).
static int64_t regionWork(omp::ParallelOp parallel) {
  int64_t lanes = 16;
  parallel.walk([&](Operation *op) {
    for (Type t : op->getResultTypes())
      if (auto v = dyn_cast<VectorType>(t))
        lanes = std::max(lanes, v.getNumElements());
  });
  int64_t work = 1;
  parallel.walk([&](omp::LoopNestOp nest) {
    int64_t trips = 1;
    for (auto [lb, ub, step] : llvm::zip(nest.getLoopLowerBounds(),
                                         nest.getLoopUpperBounds(),
                                         nest.getLoopSteps()))
      trips *= tripCount(lb, ub, step);
    work = std::max(work, trips * nestedIterations(nest) * (lanes / 16));
  });
  return work;
}

namespace {
struct OpenMPThreadsPass : dlc::impl::OpenMPThreadsBase<OpenMPThreadsPass> {
  using Base::Base;
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
    Value one;
    func.walk([&](omp::ParallelOp parallel) {
      // A region with little work (an LSTM step's small matmuls and
      // activations) costs more to fork and join than it saves: one thread.
      if (regionWork(parallel) < minParallelWork) {
        if (!one) {
          OpBuilder::InsertionGuard guard(rewriter);
          rewriter.setInsertionPointToStart(&func.getBody().front());
          one = arith::ConstantIntOp::create(rewriter, func.getLoc(), 1, 32);
        }
        parallel.getNumThreadsMutable().assign(one);
      } else {
        parallel.getNumThreadsMutable().assign(numThreads);
      }
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
