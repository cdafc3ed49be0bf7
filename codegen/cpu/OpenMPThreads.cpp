//===- OpenMPThreads.cpp - thread count and scratch for OpenMP regions ----===//
#include "codegen/common/Bounds.h"
#include "codegen/cpu/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

namespace dlc {
#define GEN_PASS_DEF_OPENMPTHREADS
#include "codegen/cpu/Passes.h.inc"
} // namespace dlc

using namespace mlir;

/// Static trip count of a loop (at the upper bound of a run-time size: a
/// loop over a symbolic dimension counts as at the top of its range), or 1
/// when it is not known.
static int64_t tripCount(OpFoldResult lb, OpFoldResult ub, OpFoldResult step) {
  std::optional<int64_t> l = getConstantIntValue(lb), u = getConstantIntValue(ub),
                         s = getConstantIntValue(step);
  if (!u)
    if (auto v = dyn_cast<Value>(ub))
      u = dlc::upperBoundOfSize(v);
  if (!l || !u || !s || *s <= 0)
    return 1;
  return std::max<int64_t>(0, (*u - *l + *s - 1) / *s);
}

/// Estimated cost of a piece of code: `ops` counts all its operations in
/// 16-lane vector operations, `memory` the elements it loads or stores.
struct Cost {
  int64_t ops = 0, memory = 0;
  Cost &operator+=(const Cost &o) {
    ops += o.ops;
    memory += o.memory;
    return *this;
  }
  Cost operator*(int64_t n) const { return {ops * n, memory * n}; }
};

/// Estimated cost of one execution of `op`: a contraction counts its
/// multiply-adds, a transcendental function the polynomial it becomes, any
/// other op the 16-lane pieces of the widest vector it reads or writes (a
/// reduction of 768 lanes is 48), a scalar floating-point op one; a copy
/// or transpose still a linalg op (lowered to loops later) one load and
/// one store per 16 elements. Index arithmetic, control flow and
/// terminators count nothing.
static Cost opCost(Operation *op) {
  auto copyOf = [](int64_t elements) -> Cost {
    return {2 * std::max<int64_t>(1, elements / 16), 2 * elements};
  };
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
    int64_t elements = 1;
    for (int64_t r : linalgOp.getStaticLoopRanges())
      elements *= ShapedType::isDynamic(r) ? 1 : r;
    return copyOf(elements);
  }
  if (auto copy = dyn_cast<memref::CopyOp>(op))
    if (auto type = dyn_cast<MemRefType>(copy.getSource().getType());
        type && type.hasStaticShape())
      return copyOf(type.getNumElements());
  if (auto contract = dyn_cast<vector::ContractionOp>(op)) {
    SmallVector<int64_t> bounds;
    contract.getIterationBounds(bounds);
    int64_t fmas = 1;
    for (int64_t b : bounds)
      fmas *= b;
    return {std::max<int64_t>(1, fmas / 16), 0};
  }
  if (op->hasTrait<OpTrait::IsTerminator>())
    return {};
  int64_t weight = 1;
  if (isa<math::ExpOp, math::Exp2Op, math::ExpM1Op, math::TanhOp, math::LogOp,
          math::Log1pOp, math::Log2Op, math::ErfOp, math::PowFOp, math::SinOp,
          math::CosOp, math::AtanOp, math::Atan2Op>(op))
    weight = 16;
  else if (isa<arith::DivFOp, math::SqrtOp, math::RsqrtOp>(op))
    weight = 4;
  auto elements = [](Type t) -> int64_t {
    if (auto v = dyn_cast<VectorType>(t))
      return v.getNumElements();
    return isa<FloatType>(t) ? 1 : 0;
  };
  int64_t widest = 0;
  for (Type t : op->getResultTypes())
    widest = std::max(widest, elements(t));
  for (Type t : op->getOperandTypes())
    widest = std::max(widest, elements(t));
  int64_t pieces = widest ? std::max<int64_t>(1, widest / 16) : 0;
  bool memory = isa<vector::TransferReadOp, vector::TransferWriteOp,
                    vector::LoadOp, vector::StoreOp, memref::LoadOp,
                    memref::StoreOp>(op);
  return {pieces * weight, memory ? widest : 0};
}

/// Estimated cost of everything nested in `op`, each op's cost times the
/// trip counts of the sequential loops around it.
static Cost nestedCost(Operation *op) {
  Cost cost;
  for (Region &region : op->getRegions())
    for (Operation &nested : region.getOps()) {
      Cost inner = opCost(&nested);
      if (!isa<linalg::LinalgOp>(nested))
        inner += nestedCost(&nested);
      if (auto loop = dyn_cast<scf::ForOp>(nested))
        inner = inner * tripCount(loop.getLowerBound(), loop.getUpperBound(),
                                  loop.getStep());
      cost += inner;
    }
  return cost;
}

/// Estimated cost of a parallel region: each worksharing loop's trip count
/// times the cost of its body.
static Cost regionCost(omp::ParallelOp parallel) {
  Cost cost;
  parallel.walk([&](omp::LoopNestOp nest) {
    int64_t trips = 1;
    for (auto [lb, ub, step] : llvm::zip(nest.getLoopLowerBounds(),
                                         nest.getLoopUpperBounds(),
                                         nest.getLoopSteps()))
      trips *= tripCount(lb, ub, step);
    cost += nestedCost(nest) * trips;
  });
  return cost;
}

/// Replaces `parallel`, when it holds nothing but one worksharing loop nest
/// without reductions or private copies, with the same loops run in order
/// (`scf.for`): a region too small to fork should not pay for entering the
/// OpenMP runtime either (an LSTM has about a hundred such regions per run).
/// Returns the outermost loop; null, leaving the region as it is, on any
/// other shape or where a tile's scratch has a dynamic size (it could not
/// move out of the loops).
static scf::ForOp serialize(IRRewriter &rewriter, omp::ParallelOp parallel) {
  Region &region = parallel.getRegion();
  if (!region.hasOneBlock() || region.front().getOperations().size() != 2 ||
      !parallel.getReductionVars().empty() ||
      !parallel.getPrivateVars().empty())
    return {};
  auto wsloop = dyn_cast<omp::WsloopOp>(region.front().front());
  if (!wsloop || !wsloop.getReductionVars().empty() ||
      !wsloop.getPrivateVars().empty() || wsloop.getOrdered())
    return {};
  auto nest = dyn_cast<omp::LoopNestOp>(wsloop.getWrappedLoop());
  if (!nest || nest.getLoopInclusive() || !nest.getRegion().hasOneBlock())
    return {};
  if (nest.walk([](memref::AllocaOp alloca) {
            return alloca->getNumOperands() ? WalkResult::interrupt()
                                            : WalkResult::advance();
          }).wasInterrupted())
    return {};

  rewriter.setInsertionPoint(parallel);
  scf::ForOp outer;
  SmallVector<Value> ivs;
  for (auto [lb, ub, step] :
       llvm::zip(nest.getLoopLowerBounds(), nest.getLoopUpperBounds(),
                 nest.getLoopSteps())) {
    auto loop = scf::ForOp::create(rewriter, nest.getLoc(), lb, ub, step);
    if (!outer)
      outer = loop;
    ivs.push_back(loop.getInductionVar());
    rewriter.setInsertionPoint(loop.getBody()->getTerminator());
  }
  Block &body = nest.getRegion().front();
  rewriter.eraseOp(body.getTerminator());
  rewriter.inlineBlockBefore(&body, rewriter.getInsertionBlock(),
                             rewriter.getInsertionPoint(), ivs);
  rewriter.eraseOp(parallel);
  return outer;
}

/// Moves the fixed-size stack buffers of the `memref.alloca_scope`s in
/// `root` (a tile's scratch, which the conversion to OpenMP scopes per
/// iteration) to `where`, so they are allocated once, and inlines the
/// scopes left without buffers.
static void hoistScratch(IRRewriter &rewriter, Operation *root,
                         Block::iterator where) {
  SmallVector<memref::AllocaScopeOp> scopes;
  root->walk([&](memref::AllocaScopeOp s) { scopes.push_back(s); });
  for (memref::AllocaScopeOp scope : scopes) {
    Block &body = scope.getBodyRegion().front();
    for (Operation &op : llvm::make_early_inc_range(body))
      if (auto alloca = dyn_cast<memref::AllocaOp>(op))
        if (alloca->getNumOperands() == 0)
          alloca->moveBefore(where->getBlock(), where);
    if (scope->getNumResults() != 0 || llvm::any_of(body, [](Operation &op) {
          return isa<memref::AllocaOp>(op);
        }))
      continue;
    rewriter.eraseOp(body.getTerminator());
    rewriter.inlineBlockBefore(&body, scope);
    rewriter.eraseOp(scope);
  }
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
    SmallVector<omp::ParallelOp> regions;
    func.walk([&](omp::ParallelOp parallel) { regions.push_back(parallel); });
    for (omp::ParallelOp parallel : regions) {
      // A region with little work (an LSTM step's small matmuls and
      // activations) costs more to fork and join than it saves: its loops
      // run in order, or on one thread where they cannot. One that moves
      // much memory (a layer norm over a batch of sequences) gains the
      // second core's bandwidth.
      Cost cost = regionCost(parallel);
      if (cost.ops < minParallelWork && cost.memory < minParallelMemory * 16) {
        if (scf::ForOp loop = serialize(rewriter, parallel)) {
          hoistScratch(rewriter, loop, func.getBody().front().begin());
          continue;
        }
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
      hoistScratch(rewriter, parallel, entry.begin());
    }
  }
};
} // namespace
