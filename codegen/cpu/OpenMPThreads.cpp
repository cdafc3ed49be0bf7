//===- OpenMPThreads.cpp - thread count and scratch for OpenMP regions ----===//
#include "codegen/common/Bounds.h"
#include "codegen/cpu/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

#include <map>

namespace dlc {
#define GEN_PASS_DEF_OPENMPTHREADS
#include "codegen/cpu/Passes.h.inc"
} // namespace dlc

using namespace mlir;

/// Estimated cost of a piece of code: `ops` counts all its operations in
/// vector operations of the target's width (`lanes` f32 lanes: 16 with
/// AVX-512, 8 with AVX2, so that the same tensor work is twice the
/// operations on AVX2), `memory` the elements it loads or stores.
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
/// other op the `lanes`-wide pieces of the widest vector it reads or
/// writes (a reduction of 768 lanes is 48 with 16 lanes), a scalar
/// floating-point op one; a copy or transpose still a linalg op (lowered to
/// loops later) one load and one store per `lanes` elements. Index
/// arithmetic, control flow and terminators count nothing.
static Cost opCost(Operation *op, int64_t lanes) {
  auto copyOf = [lanes](int64_t elements) -> Cost {
    return {2 * std::max<int64_t>(1, elements / lanes), 2 * elements};
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
    return {std::max<int64_t>(1, fmas / lanes), 0};
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
  int64_t pieces = widest ? std::max<int64_t>(1, widest / lanes) : 0;
  bool memory = isa<vector::TransferReadOp, vector::TransferWriteOp,
                    vector::LoadOp, vector::StoreOp, memref::LoadOp,
                    memref::StoreOp>(op);
  return {pieces * weight, memory ? widest : 0};
}

/// A parallel region's estimated cost as a sum of terms, each a Cost times
/// the trip counts of some loops that are known only at run time: loops
/// whose upper bound is a size defined before the region (a symbolic
/// dimension), which the region's code may read to decide how to run.
/// Every other loop counts with its compile-time trip count (at the upper
/// bound of a size that has one, 1 where none is known).
class RegionCost {
public:
  RegionCost(omp::ParallelOp parallel, int64_t lanes)
      : parallel(parallel), lanes(lanes) {
    parallel.walk([&](omp::LoopNestOp nest) {
      SmallVector<unsigned> factors;
      int64_t times = 1;
      for (auto [lb, ub, step] :
           llvm::zip(nest.getLoopLowerBounds(), nest.getLoopUpperBounds(),
                     nest.getLoopSteps()))
        addLoop(lb, ub, step, factors, times);
      addNested(nest, factors, times);
    });
  }

  /// The cost with every run-time trip count at the top (or the bottom) of
  /// its range.
  Cost at(bool top) const {
    Cost total;
    for (const auto &[factors, cost] : terms) {
      int64_t times = 1;
      for (unsigned f : factors)
        times *= top ? trips[f].hi : trips[f].lo;
      total += cost * times;
    }
    return total;
  }

  /// Builds, before the region, the i1 that is true where the cost at the
  /// run-time sizes reaches `minOps` operations or `minMemory` elements.
  Value emitAtLeast(OpBuilder &b, int64_t minOps, int64_t minMemory) {
    Location loc = parallel.getLoc();
    auto cst = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(b, loc, v);
    };
    SmallVector<Value> counts;
    for (const Trip &t : trips) {
      // max(0, ceil((ub - lb) / step)).
      Value span = t.ub;
      if (t.lb != 0)
        span = arith::SubIOp::create(b, loc, span, cst(t.lb));
      if (t.step != 1)
        span = arith::CeilDivSIOp::create(b, loc, span, cst(t.step));
      counts.push_back(arith::MaxSIOp::create(b, loc, span, cst(0)));
    }
    // Sums of each term's cost times its trip counts.
    Value ops, memory;
    auto accumulate = [&](Value &sum, Value times, int64_t cost) {
      if (cost == 0)
        return;
      Value term =
          times ? arith::MulIOp::create(b, loc, times, cst(cost)) : cst(cost);
      sum = sum ? arith::AddIOp::create(b, loc, sum, term).getResult() : term;
    };
    for (const auto &[factors, cost] : terms) {
      Value times;
      for (unsigned f : factors)
        times =
            times ? arith::MulIOp::create(b, loc, times, counts[f]).getResult()
                  : counts[f];
      accumulate(ops, times, cost.ops);
      accumulate(memory, times, cost.memory);
    }
    auto atLeast = [&](Value sum, int64_t min) -> Value {
      if (!sum)
        return arith::ConstantIntOp::create(b, loc, min <= 0, 1);
      return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, sum,
                                   cst(min));
    };
    return arith::OrIOp::create(b, loc, atLeast(ops, minOps),
                                atLeast(memory, minMemory));
  }

private:
  /// A run-time trip count: ceil((ub - lb) / step), ub in [ubLo, ubHi].
  struct Trip {
    Value ub;
    int64_t lb, step, lo, hi;
  };

  /// Adds loop (lb, ub, step) to the loops around the code that follows:
  /// a run-time trip count to `factors`, a compile-time one to `times`.
  void addLoop(OpFoldResult lb, OpFoldResult ub, OpFoldResult step,
               SmallVectorImpl<unsigned> &factors, int64_t &times) {
    std::optional<int64_t> l = getConstantIntValue(lb),
                           s = getConstantIntValue(step),
                           hi = getConstantIntValue(ub), lo = hi;
    auto ubValue = dyn_cast<Value>(ub);
    if (!hi && ubValue) {
      hi = dlc::upperBoundOfSize(ubValue);
      lo = dlc::lowerBoundOfSize(ubValue);
    }
    if (!l || !hi || !s || *s <= 0)
      return;
    auto count = [&](int64_t u) {
      return std::max<int64_t>(0, (u - *l + *s - 1) / *s);
    };
    // A size without a lower bound may be 0.
    Trip trip{ubValue, *l, *s, count(lo.value_or(0)), count(*hi)};
    // Only a size defined before the region can be read to decide it; a
    // tile's remainder counts at its largest.
    if (trip.lo == trip.hi || !ubValue ||
        parallel->isAncestor(ubValue.getParentBlock()->getParentOp())) {
      times *= trip.hi;
      return;
    }
    auto same = llvm::find_if(trips, [&](const Trip &t) {
      return t.ub == trip.ub && t.lb == trip.lb && t.step == trip.step;
    });
    factors.push_back(same - trips.begin());
    if (same == trips.end())
      trips.push_back(trip);
    llvm::sort(factors);
  }

  /// Adds everything nested in `op`, each op's cost times the trip counts
  /// of the sequential loops around it.
  void addNested(Operation *op, ArrayRef<unsigned> factors, int64_t times) {
    for (Region &region : op->getRegions())
      for (Operation &nested : region.getOps()) {
        SmallVector<unsigned> innerFactors(factors);
        int64_t innerTimes = times;
        Cost own = opCost(&nested, lanes);
        if (own.ops || own.memory)
          terms[innerFactors] += own * innerTimes;
        if (isa<linalg::LinalgOp>(nested))
          continue;
        if (auto loop = dyn_cast<scf::ForOp>(nested))
          addLoop(loop.getLowerBound(), loop.getUpperBound(), loop.getStep(),
                  innerFactors, innerTimes);
        addNested(&nested, innerFactors, innerTimes);
      }
  }

  omp::ParallelOp parallel;
  int64_t lanes;
  SmallVector<Trip> trips;
  std::map<SmallVector<unsigned>, Cost> terms;
};

/// Replaces `parallel`, when it holds nothing but one worksharing loop nest
/// without reductions or private copies, with the same loops run in order
/// (`scf.for`): a region too small to fork should not pay for entering the
/// OpenMP runtime either (an LSTM has about a hundred such regions per run).
/// Returns the outermost loop; null, leaving the region as it is, on any
/// other shape or where a tile's scratch has a dynamic size (it could not
/// move out of the loops).
static omp::LoopNestOp serialNest(omp::ParallelOp parallel) {
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
  return nest;
}

static scf::ForOp serialize(IRRewriter &rewriter, omp::ParallelOp parallel) {
  omp::LoopNestOp nest = serialNest(parallel);
  if (!nest)
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
      RegionCost cost(parallel, vectorWidth);
      auto small = [&](Cost c) {
        return c.ops < minParallelWork && c.memory < minParallelMemory * 16;
      };
      auto getOne = [&] {
        if (!one) {
          OpBuilder::InsertionGuard guard(rewriter);
          rewriter.setInsertionPointToStart(&func.getBody().front());
          one = arith::ConstantIntOp::create(rewriter, func.getLoc(), 1, 32);
        }
        return one;
      };
      if (small(cost.at(/*top=*/true))) {
        if (scf::ForOp loop = serialize(rewriter, parallel)) {
          hoistScratch(rewriter, loop, func.getBody().front().begin());
          continue;
        }
        parallel.getNumThreadsMutable().assign(getOne());
      } else if (!small(cost.at(/*top=*/false))) {
        parallel.getNumThreadsMutable().assign(numThreads);
      } else {
        // Large at some sizes of the range, small at others: decided at
        // run time (and in order on one thread).
        Location loc = parallel.getLoc();
        rewriter.setInsertionPoint(parallel);
        Value large =
            cost.emitAtLeast(rewriter, minParallelWork, minParallelMemory * 16);
        Value threads = arith::CmpIOp::create(
            rewriter, loc, arith::CmpIPredicate::sgt, numThreads, getOne());
        Value fork = arith::AndIOp::create(rewriter, loc, large, threads);
        if (serialNest(parallel)) {
          auto branch = scf::IfOp::create(rewriter, loc, TypeRange{}, fork,
                                          /*withElseRegion=*/true);
          parallel->moveBefore(branch.thenBlock()->getTerminator());
          rewriter.setInsertionPoint(branch.elseBlock()->getTerminator());
          auto copy = cast<omp::ParallelOp>(rewriter.clone(*parallel));
          scf::ForOp loop = serialize(rewriter, copy);
          hoistScratch(rewriter, loop, func.getBody().front().begin());
          parallel.getNumThreadsMutable().assign(numThreads);
        } else {
          parallel.getNumThreadsMutable().assign(arith::SelectOp::create(
              rewriter, loc, fork, numThreads, getOne()));
        }
      }
      Block &entry = parallel.getRegion().front();
      hoistScratch(rewriter, parallel, entry.begin());
    }
  }
};
} // namespace
