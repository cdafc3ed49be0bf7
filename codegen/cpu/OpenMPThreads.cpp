//===- OpenMPThreads.cpp - thread count and scratch for OpenMP regions ----===//
#include "codegen/cpu/Passes.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
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

/// Estimated cost of one execution of `op`, in 16-lane vector operations:
/// a contraction counts its multiply-adds, a transcendental function the
/// polynomial it becomes, a vector op its 16-lane pieces, a scalar
/// floating-point op one. Index arithmetic and control flow count nothing.
static int64_t opCost(Operation *op) {
  if (auto contract = dyn_cast<vector::ContractionOp>(op)) {
    SmallVector<int64_t> bounds;
    contract.getIterationBounds(bounds);
    int64_t fmas = 1;
    for (int64_t b : bounds)
      fmas *= b;
    return std::max<int64_t>(1, fmas / 16);
  }
  int64_t weight = 1;
  if (isa<math::ExpOp, math::Exp2Op, math::ExpM1Op, math::TanhOp, math::LogOp,
          math::Log1pOp, math::Log2Op, math::ErfOp, math::PowFOp, math::SinOp,
          math::CosOp, math::AtanOp, math::Atan2Op>(op))
    weight = 16;
  else if (isa<arith::DivFOp, math::SqrtOp, math::RsqrtOp>(op))
    weight = 4;
  auto pieces = [](Type t) -> int64_t {
    if (auto v = dyn_cast<VectorType>(t))
      return std::max<int64_t>(1, v.getNumElements() / 16);
    return isa<FloatType>(t) ? 1 : 0;
  };
  int64_t cost = 0;
  for (Type t : op->getResultTypes())
    cost = std::max(cost, pieces(t));
  if (auto write = dyn_cast<vector::TransferWriteOp>(op))
    cost = pieces(write.getVectorType());
  else if (auto store = dyn_cast<vector::StoreOp>(op))
    cost = pieces(store.getVectorType());
  else if (isa<memref::StoreOp>(op))
    cost = 1;
  return cost * weight;
}

/// Estimated cost of everything nested in `op`, each op's cost times the
/// trip counts of the sequential loops around it.
static int64_t nestedCost(Operation *op) {
  int64_t cost = 0;
  for (Region &region : op->getRegions())
    for (Operation &nested : region.getOps()) {
      int64_t inner = opCost(&nested) + nestedCost(&nested);
      if (auto loop = dyn_cast<scf::ForOp>(nested))
        inner *= tripCount(loop.getLowerBound(), loop.getUpperBound(),
                           loop.getStep());
      cost += inner;
    }
  return cost;
}

/// Estimated work of a parallel region, in 16-lane vector operations: each
/// worksharing loop's trip count times the cost of its body.
static int64_t regionWork(omp::ParallelOp parallel) {
  int64_t work = 0;
  parallel.walk([&](omp::LoopNestOp nest) {
    int64_t trips = 1;
    for (auto [lb, ub, step] : llvm::zip(nest.getLoopLowerBounds(),
                                         nest.getLoopUpperBounds(),
                                         nest.getLoopSteps()))
      trips *= tripCount(lb, ub, step);
    work += trips * nestedCost(nest);
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
