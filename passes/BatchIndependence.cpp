//===- BatchIndependence.cpp - prove a dynamic batch keeps samples apart --===//
//
// A dynamic-batch model is compiled for one sample and run once per sample
// (frontend/DynamicBatch.h). This pass follows each input's batch axis
// through @main, op by op, and fails at the first op that would make the
// per-sample runs differ from running the batch: one that reduces over the
// batch, mixes samples, or depends on a sample's position.
//
//===----------------------------------------------------------------------===//
#include "ir/DlcDialect.h"
#include "passes/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Transforms/RegionUtils.h"

namespace dlc {
#define GEN_PASS_DEF_CHECKBATCHINDEPENDENCE
#include "passes/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {

/// Batch axes of the values seen so far; a value without one does not
/// depend on the batch.
class BatchTracker {
public:
  explicit BatchTracker(StringRef dim) : dim(dim) {}

  std::optional<int64_t> axisOf(Value v) const {
    auto it = axes.find(v);
    if (it == axes.end())
      return std::nullopt;
    return it->second;
  }
  void setAxis(Value v, int64_t axis) { axes[v] = axis; }

  /// Gives `op`'s results their batch axes, or reports why it cannot.
  LogicalResult visit(Operation *op);

private:
  LogicalResult fail(Operation *op, const Twine &why) {
    return op->emitError() << "dynamic batch '" << dim << "': '"
                           << op->getName() << "' " << why
                           << "; a dynamic-batch model runs one sample at a "
                              "time. Fix the batch with --dim "
                           << dim << "=SIZE";
  }
  LogicalResult visitLinalg(linalg::LinalgOp op);
  LogicalResult visitSlice(Operation *op, int64_t axis,
                           ArrayRef<int64_t> offsets, ArrayRef<int64_t> sizes,
                           ArrayRef<int64_t> strides, ArrayRef<int64_t> full);

  std::string dim;
  llvm::DenseMap<Value, int64_t> axes;
};

LogicalResult BatchTracker::visitLinalg(linalg::LinalgOp op) {
  // The one loop that runs over the batch axes of the batched operands.
  std::optional<unsigned> loop;
  for (OpOperand &operand : op->getOpOperands()) {
    std::optional<int64_t> axis = axisOf(operand.get());
    if (!axis)
      continue;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    auto d = dyn_cast<AffineDimExpr>(map.getResult(*axis));
    if (!d)
      return fail(op, "indexes the batch axis of operand " +
                          Twine(operand.getOperandNumber()) +
                          " with a constant or compound index (it broadcasts "
                          "or shifts samples)");
    if (loop && *loop != d.getPosition())
      return fail(op, "indexes the batch axes of two operands with different "
                      "loops (it mixes samples)");
    loop = d.getPosition();
    for (auto [k, e] : llvm::enumerate(map.getResults()))
      if ((int64_t)k != *axis && e.isFunctionOfDim(*loop))
        return fail(op, "indexes two axes of operand " +
                            Twine(operand.getOperandNumber()) +
                            " with the batch loop");
  }
  // Batched tensors read in the body (Gather lowers so) must be indexed at
  // their batch axis by the batch loop's own index: each sample reads its
  // own part.
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(op->getRegions(), captured);
  llvm::SmallPtrSet<Operation *, 4> batchIndexUses;
  for (Value v : captured) {
    std::optional<int64_t> axis = axisOf(v);
    if (!axis)
      continue;
    for (OpOperand &use : v.getUses()) {
      if (!op->isProperAncestor(use.getOwner()))
        continue;
      auto read = dyn_cast<tensor::ExtractOp>(use.getOwner());
      auto index = read ? read.getIndices()[*axis].getDefiningOp<linalg::IndexOp>()
                        : linalg::IndexOp();
      if (!index || index->getParentOp() != op.getOperation())
        return fail(op, "reads a batched tensor inside its body other than "
                        "at its own sample");
      if (loop && *loop != index.getDim())
        return fail(op, "reads a batched tensor at a different loop than its "
                        "batched operands (it mixes samples)");
      loop = index.getDim();
      batchIndexUses.insert(read);
    }
  }
  if (op.getIteratorTypesArray()[*loop] != utils::IteratorType::parallel)
    return fail(op, "reduces over the batch axis");
  bool readsPosition = false;
  op->walk([&](linalg::IndexOp index) {
    if (index.getDim() != *loop)
      return;
    for (OpOperand &use : index->getUses())
      readsPosition |= !batchIndexUses.contains(use.getOwner());
  });
  if (readsPosition)
    return fail(op, "uses the position of a sample in the batch");
  for (OpResult result : op->getResults()) {
    AffineMap map =
        op.getMatchingIndexingMap(op.getDpsInitOperand(result.getResultNumber()));
    std::optional<int64_t> axis;
    for (auto [k, e] : llvm::enumerate(map.getResults())) {
      if (e == getAffineDimExpr(*loop, op->getContext()) && !axis)
        axis = k;
      else if (e.isFunctionOfDim(*loop))
        return fail(op, "writes the batch loop to two axes of its result");
    }
    if (!axis)
      return fail(op, "drops the batch axis from its result");
    setAxis(result, *axis);
  }
  return success();
}

LogicalResult BatchTracker::visitSlice(Operation *op, int64_t axis,
                                       ArrayRef<int64_t> offsets,
                                       ArrayRef<int64_t> sizes,
                                       ArrayRef<int64_t> strides,
                                       ArrayRef<int64_t> full) {
  if (offsets[axis] != 0 || sizes[axis] != full[axis] || strides[axis] != 1)
    return fail(op, "slices along the batch axis");
  return success();
}

LogicalResult BatchTracker::visit(Operation *op) {
  // Batched tensors read inside a body (a gather from them); only linalg
  // ops may do so, see visitLinalg.
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(op->getRegions(), captured);
  bool readsBatched =
      llvm::any_of(captured, [&](Value v) { return axisOf(v).has_value(); });
  if (readsBatched && !isa<linalg::LinalgOp>(op))
    return fail(op, "reads a batched tensor inside its body");
  if (!readsBatched && llvm::none_of(op->getOperands(), [&](Value v) {
        return axisOf(v).has_value();
      }))
    return success(); // does not depend on the batch

  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    return visitLinalg(linalgOp);
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op)) {
    // The batch becomes the outermost axis of its group.
    auto groups = expand.getReassociationIndices();
    setAxis(expand.getResult(), groups[*axisOf(expand.getSrc())].front());
    return success();
  }
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op)) {
    int64_t axis = *axisOf(collapse.getSrc());
    auto shape = collapse.getSrcType().getShape();
    for (auto [r, group] : llvm::enumerate(collapse.getReassociationIndices())) {
      if (!llvm::is_contained(group, axis))
        continue;
      for (int64_t d : group) {
        if (d == axis)
          break;
        if (shape[d] != 1)
          return fail(op, "merges the batch axis into an outer axis (samples "
                          "would interleave)");
      }
      setAxis(collapse.getResult(), r);
      return success();
    }
  }
  if (auto pad = dyn_cast<tensor::PadOp>(op)) {
    int64_t axis = *axisOf(pad.getSource());
    if (pad.getStaticLow()[axis] != 0 || pad.getStaticHigh()[axis] != 0)
      return fail(op, "pads the batch axis");
    setAxis(pad.getResult(), axis);
    return success();
  }
  if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op)) {
    int64_t axis = *axisOf(slice.getSource());
    if (failed(visitSlice(op, axis, slice.getStaticOffsets(),
                          slice.getStaticSizes(), slice.getStaticStrides(),
                          slice.getSourceType().getShape())))
      return failure();
    llvm::SmallBitVector dropped = slice.getDroppedDims();
    if (dropped.test(axis))
      return fail(op, "drops the batch axis");
    int64_t before = 0;
    for (int64_t d = 0; d < axis; ++d)
      before += dropped.test(d);
    setAxis(slice.getResult(), axis - before);
    return success();
  }
  if (auto insert = dyn_cast<tensor::InsertSliceOp>(op)) {
    std::optional<int64_t> src = axisOf(insert.getSource()),
                           dest = axisOf(insert.getDest());
    if (insert.getSourceType().getRank() != insert.getDestType().getRank() &&
        src)
      return fail(op, "inserts a batched tensor of lower rank");
    if (src && dest && *src != *dest)
      return fail(op, "inserts along a different batch axis");
    int64_t axis = src ? *src : *dest;
    if (failed(visitSlice(op, axis, insert.getStaticOffsets(),
                          insert.getStaticSizes(), insert.getStaticStrides(),
                          insert.getDestType().getShape())))
      return failure();
    setAxis(insert.getResult(), axis);
    return success();
  }
  if (auto concat = dyn_cast<tensor::ConcatOp>(op)) {
    std::optional<int64_t> axis;
    for (Value v : concat.getInputs()) {
      std::optional<int64_t> a = axisOf(v);
      if (a && axis && *a != *axis)
        return fail(op, "joins tensors with different batch axes");
      if (a)
        axis = a;
    }
    if ((int64_t)concat.getDim() == *axis)
      return fail(op, "concatenates along the batch axis");
    setAxis(concat.getResult(), *axis);
    return success();
  }
  if (auto cast = dyn_cast<tensor::CastOp>(op)) {
    setAxis(cast.getResult(), *axisOf(cast.getSource()));
    return success();
  }
  return fail(op, "is not known to keep samples apart");
}

struct CheckBatchIndependencePass
    : public dlc::impl::CheckBatchIndependenceBase<CheckBatchIndependencePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto dim = module->getAttrOfType<StringAttr>(dlc::kBatchDimAttr);
    auto inputs =
        module->getAttrOfType<DenseI64ArrayAttr>(dlc::kInputBatchAxesAttr);
    if (!dim || !inputs)
      return;
    auto main = module.lookupSymbol<func::FuncOp>("main");
    if (!main || main.getNumArguments() != inputs.size()) {
      module.emitError() << "'" << dlc::kInputBatchAxesAttr
                         << "' needs an @main with " << inputs.size()
                         << " arguments";
      return signalPassFailure();
    }
    BatchTracker tracker(dim.getValue());
    for (auto [arg, axis] : llvm::zip(main.getArguments(), inputs.asArrayRef()))
      if (axis >= 0)
        tracker.setAxis(arg, axis);
    Block &body = main.getBody().front();
    for (Operation &op : body.without_terminator())
      if (failed(tracker.visit(&op)))
        return signalPassFailure();

    // Output axes, against what the import saw when the batch grew.
    Operation *ret = body.getTerminator();
    auto declared = module->getAttrOfType<DenseI64ArrayAttr>(
        dlc::kDeclaredOutputBatchAxesAttr);
    SmallVector<int64_t> outputs;
    for (auto [i, v] : llvm::enumerate(ret->getOperands())) {
      int64_t found = tracker.axisOf(v).value_or(-1);
      int64_t seen = declared && i < (size_t)declared.size() ? declared[i] : -3;
      if (seen == -3 || seen == found) {
        outputs.push_back(found);
        continue;
      }
      if (found == -1) {
        // The same for every sample; each run writes its sample's copy.
        outputs.push_back(seen);
        continue;
      }
      InFlightDiagnostic diag = ret->emitError();
      diag << "dynamic batch '" << dim.getValue() << "': output " << i;
      if (seen < 0)
        diag << " keeps its shape when the batch grows";
      else
        diag << " grows along axis " << seen << " when the batch grows";
      diag << ", but its samples lie along axis " << found
           << "; fix the batch with --dim " << dim.getValue() << "=SIZE";
      return signalPassFailure();
    }
    module->setAttr(dlc::kOutputBatchAxesAttr,
                    Builder(module).getDenseI64ArrayAttr(outputs));
  }
};

} // namespace
