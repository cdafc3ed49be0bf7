//===- ZeroSizeTensors.cpp - no code for tensors without elements ---------===//
#include "codegen/common/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"

namespace dlc {
#define GEN_PASS_DEF_ZEROSIZETENSORS
#include "codegen/common/Passes.h.inc"
} // namespace dlc

using namespace mlir;

static bool isEmptyTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.hasStaticShape() && tensor.getNumElements() == 0;
}

namespace {
struct ZeroSizeTensorsPass
    : dlc::impl::ZeroSizeTensorsBase<ZeroSizeTensorsPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    Block &entry = func.getBody().front();
    OpBuilder b(&getContext());
    auto emptyOf = [&](Type type, Location loc) {
      auto tensor = cast<RankedTensorType>(type);
      return tensor::EmptyOp::create(b, loc, tensor.getShape(),
                                     tensor.getElementType())
          .getResult();
    };
    // Arguments: uses read nothing; the argument itself becomes 1-D.
    b.setInsertionPointToStart(&entry);
    SmallVector<Type> inputs(func.getArgumentTypes());
    for (BlockArgument arg : entry.getArguments()) {
      if (!isEmptyTensor(arg.getType()) || arg.use_empty())
        continue;
      arg.replaceAllUsesWith(emptyOf(arg.getType(), func.getLoc()));
    }
    for (auto [i, arg] : llvm::enumerate(entry.getArguments()))
      if (isEmptyTensor(arg.getType())) {
        auto flat = RankedTensorType::get(
            {0}, cast<RankedTensorType>(arg.getType()).getElementType());
        arg.setType(flat);
        inputs[i] = flat;
      }
    // Results of ops: nothing to compute (the ops go once unused).
    // A linalg op with a loop of no iterations (a reduction over an empty
    // axis) never runs its body: its results are its inits.
    SmallVector<Operation *> replaced;
    func.walk([&](Operation *op) {
      if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
          linalgOp && linalgOp.hasPureTensorSemantics() &&
          llvm::is_contained(linalgOp.getStaticLoopRanges(), int64_t(0))) {
        for (auto [result, init] :
             llvm::zip(op->getResults(), linalgOp.getDpsInits()))
          result.replaceAllUsesWith(init);
        replaced.push_back(op);
        return;
      }
      if (isa<tensor::EmptyOp>(op) || op->getNumResults() == 0 ||
          !llvm::all_of(op->getResultTypes(), isEmptyTensor))
        return;
      b.setInsertionPoint(op);
      for (Value result : op->getResults())
        result.replaceAllUsesWith(emptyOf(result.getType(), op->getLoc()));
      replaced.push_back(op);
    });
    for (Operation *op : llvm::reverse(replaced))
      if (isOpTriviallyDead(op))
        op->erase();
    // Returned values: 1-D as well.
    SmallVector<Type> results(func.getResultTypes());
    func.walk([&](func::ReturnOp ret) {
      b.setInsertionPoint(ret);
      for (OpOperand &operand : ret->getOpOperands()) {
        if (!isEmptyTensor(operand.get().getType()))
          continue;
        auto flat = RankedTensorType::get(
            {0},
            cast<RankedTensorType>(operand.get().getType()).getElementType());
        operand.set(tensor::EmptyOp::create(b, ret.getLoc(), flat.getShape(),
                                            flat.getElementType()));
        results[operand.getOperandNumber()] = flat;
      }
    });
    func.setType(FunctionType::get(&getContext(), inputs, results));
  }
};
} // namespace
