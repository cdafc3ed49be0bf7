//===- ParallelAny.cpp - "is any element true" reductions as parallel loops
//===//
#include "codegen/gpu/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

namespace dlc {
#define GEN_PASS_DEF_PARALLELANY
#include "codegen/gpu/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {
/// The value a linalg.generic "or"s into its one i1 scalar output (the
/// operand of the body's `arith.ori` that is not the output's block
/// argument), when every loop is a reduction and the output's element is
/// used by that `ori` only; null otherwise.
Value anyOperand(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumLoops() == 0 || op.getNumReductionLoops() != op.getNumLoops())
    return {};
  auto type = dyn_cast<MemRefType>(op.getDpsInitOperand(0)->get().getType());
  if (!type || type.getRank() != 0 || !type.getElementType().isInteger(1))
    return {};
  Block *body = op.getBlock();
  BlockArgument out = body->getArguments().back();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  auto ori = yield.getValues()[0].getDefiningOp<arith::OrIOp>();
  if (!ori || ori->getBlock() != body || !out.hasOneUse() ||
      !ori->getResult(0).hasOneUse())
    return {};
  if (ori.getLhs() == out)
    return ori.getRhs();
  if (ori.getRhs() == out)
    return ori.getLhs();
  return {};
}

struct ParallelAnyPass : dlc::impl::ParallelAnyBase<ParallelAnyPass> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> ops;
    getOperation().walk([&](linalg::GenericOp op) {
      if (anyOperand(op))
        ops.push_back(op);
    });
    for (linalg::GenericOp op : ops)
      rewrite(op);
  }

  /// `op` as an scf.parallel over its iteration space whose iterations
  /// each compute their element and store true into the output where it
  /// is true. The output holds its initial value (false, in the
  /// reductions this pass is for) unless some element is true; all
  /// writers write the same value.
  static void rewrite(linalg::GenericOp op) {
    Value any = anyOperand(op);
    OpBuilder b(op);
    Location loc = op.getLoc();
    SmallVector<Value> lbs, ubs, steps;
    for (Range r :
         cast<linalg::LinalgOp>(op.getOperation()).createLoopRanges(b, loc)) {
      lbs.push_back(getValueOrCreateConstantIndexOp(b, loc, r.offset));
      ubs.push_back(getValueOrCreateConstantIndexOp(b, loc, r.size));
      steps.push_back(getValueOrCreateConstantIndexOp(b, loc, r.stride));
    }
    Value output = op.getDpsInitOperand(0)->get();
    Block *body = op.getBlock();
    scf::ParallelOp::create(
        b, loc, lbs, ubs, steps,
        [&](OpBuilder &nb, Location l, ValueRange ivs) {
          IRMapping map;
          for (OpOperand *input : op.getDpsInputOperands()) {
            Value v = input->get();
            BlockArgument arg = body->getArgument(input->getOperandNumber());
            if (!isa<MemRefType>(v.getType())) {
              map.map(arg, v);
              continue;
            }
            AffineMap m = op.getMatchingIndexingMap(input);
            SmallVector<Value> indices;
            for (auto [k, e] : llvm::enumerate(m.getResults())) {
              if (auto dim = dyn_cast<AffineDimExpr>(e))
                indices.push_back(ivs[dim.getPosition()]);
              else
                indices.push_back(affine::AffineApplyOp::create(
                    nb, l, m.getSubMap({(unsigned)k}), ivs));
            }
            map.map(arg, memref::LoadOp::create(nb, l, v, indices));
          }
          for (Operation &inner : body->without_terminator()) {
            if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
              map.map(index.getResult(), ivs[index.getDim()]);
              continue;
            }
            if (&inner == body->getTerminator()->getOperand(0).getDefiningOp())
              continue; // the ori with the output
            nb.clone(inner, map);
          }
          auto ifOp = scf::IfOp::create(nb, l, map.lookupOrDefault(any),
                                        /*withElseRegion=*/false);
          OpBuilder then = ifOp.getThenBodyBuilder();
          memref::StoreOp::create(
              then, l,
              arith::ConstantIntOp::create(then, l, then.getI1Type(), 1),
              output, ValueRange{});
        });
    op.erase();
  }
};
} // namespace
