//===- CarryLoopValuesInPlace.cpp - one buffer per carried value ----------===//
//
// A loop's body computes each carried value into a new tensor. Bufferized
// as it is, every iteration would yield a buffer allocated in the body,
// which the static workspace plan cannot hold (one slot per allocation,
// and the previous iteration's value is still read). Copying the new value
// over the iteration's own carried tensor makes the yielded value the
// carried buffer itself.
//
//===----------------------------------------------------------------------===//
#include "codegen/common/Passes.h"

namespace dlc {
#define GEN_PASS_DEF_CARRYLOOPVALUESINPLACE
#include "codegen/common/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {
/// `loop` rebuilt, if it must be, so that its condition hands every before
/// argument on in order (canonicalization drops and reorders them); one-shot
/// bufferization matches a loop's buffers by position. Null when a value
/// computed in the before region is handed on (the frontend's loops hand on
/// their arguments only).
scf::WhileOp forwardingEveryArgument(scf::WhileOp loop, OpBuilder &b) {
  Block &before = loop.getBefore().front();
  scf::ConditionOp condition = loop.getConditionOp();
  if (llvm::equal(condition.getArgs(), before.getArguments()))
    return loop;
  SmallVector<unsigned> from; // body argument j is before argument from[j]
  for (Value v : condition.getArgs()) {
    auto arg = dyn_cast<BlockArgument>(v);
    if (!arg || arg.getOwner() != &before)
      return nullptr;
    from.push_back(arg.getArgNumber());
  }
  b.setInsertionPoint(loop);
  auto rebuilt = scf::WhileOp::create(
      b, loop.getLoc(), before.getArgumentTypes(), loop.getInits());
  rebuilt.getBefore().takeBody(loop.getBefore());
  Block &newBefore = rebuilt.getBefore().front();
  b.setInsertionPoint(condition);
  scf::ConditionOp::create(b, condition.getLoc(), condition.getCondition(),
                           newBefore.getArguments());
  condition.erase();
  Block &oldAfter = loop.getAfter().front();
  SmallVector<Location> locs(newBefore.getNumArguments(), loop.getLoc());
  Block *after = b.createBlock(&rebuilt.getAfter(), {},
                               newBefore.getArgumentTypes(), locs);
  for (auto [j, arg] : llvm::enumerate(oldAfter.getArguments()))
    arg.replaceAllUsesWith(after->getArgument(from[j]));
  after->getOperations().splice(after->end(), oldAfter.getOperations());
  for (auto [j, result] : llvm::enumerate(loop.getResults()))
    result.replaceAllUsesWith(rebuilt.getResult(from[j]));
  loop.erase();
  return rebuilt;
}

/// Whether `v` is an argument of `body` or a view of one (casts, slices,
/// reshapes).
bool viewsCarriedValue(Value v, Block &body) {
  for (int depth = 0; depth < 16; ++depth) {
    if (auto arg = dyn_cast<BlockArgument>(v))
      return arg.getOwner() == &body;
    Operation *def = v.getDefiningOp();
    if (!def || !isa<tensor::CastOp, tensor::ExtractSliceOp,
                     tensor::ExpandShapeOp, tensor::CollapseShapeOp,
                     tensor::ReshapeOp>(def))
      return false;
    v = def->getOperand(0);
  }
  return true;
}

struct CarryLoopValuesInPlacePass
    : dlc::impl::CarryLoopValuesInPlaceBase<CarryLoopValuesInPlacePass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    SmallVector<scf::WhileOp> loops;
    func.walk([&](scf::WhileOp loop) { loops.push_back(loop); });
    if (loops.empty())
      return;
    OpBuilder b(func.getContext());
    if (!func.isExternal())
      for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
        if (isa<TensorType>(func.getArgument(i).getType()))
          func.setArgAttr(
              i, bufferization::BufferizationDialect::kWritableAttrName,
              b.getBoolAttr(false));
    for (scf::WhileOp loop : loops) {
      scf::WhileOp rebuilt = forwardingEveryArgument(loop, b);
      if (!rebuilt) {
        loop->emitError("a loop whose condition region hands a value it "
                        "computes to the body is not supported");
        return signalPassFailure();
      }
      loop = rebuilt;
      Block &after = loop.getAfter().front();
      auto yield = cast<scf::YieldOp>(after.getTerminator());
      b.setInsertionPoint(yield);
      // A yielded value that is (a view of) a carried tensor (a value passed
      // on to another, two values swapped) is copied first: every copy into
      // the carried buffers then reads only values the body computed.
      SmallVector<Value> values;
      for (BlockArgument carried : after.getArguments()) {
        Value v = yield->getOperand(carried.getArgNumber());
        if (isa<RankedTensorType>(v.getType()) && v != carried &&
            viewsCarriedValue(v, after))
          v = bufferization::AllocTensorOp::create(
              b, v.getLoc(), cast<RankedTensorType>(v.getType()), ValueRange{},
              v);
        values.push_back(v);
      }
      for (BlockArgument carried : after.getArguments()) {
        Value v = values[carried.getArgNumber()];
        if (!isa<RankedTensorType>(v.getType()) || v == carried)
          continue;
        auto copy = bufferization::MaterializeInDestinationOp::create(
            b, v.getLoc(), v, carried);
        yield->setOperand(carried.getArgNumber(), copy.getResult());
      }
    }
  }
};
} // namespace
