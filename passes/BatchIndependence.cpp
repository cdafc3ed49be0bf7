//===- BatchIndependence.cpp - prove a dynamic batch keeps samples apart --===//
//
// A dynamic-batch model runs once per sample or per chunk of samples
// (frontend/DynamicBatch.h). This pass follows each input's batch axis
// through @main (imported at one sample), op by op, and fails at the first
// op that would make separate runs differ from running the batch: one that
// reduces over the batch, mixes samples, or depends on a sample's position.
//
//===----------------------------------------------------------------------===//
#include "ir/BatchDependence.h"
#include "ir/DlcDialect.h"
#include "ir/DlcOps.h"
#include "passes/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/RegionUtils.h"

namespace dlc {
#define GEN_PASS_DEF_CHECKBATCHINDEPENDENCE
#include "passes/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {

/// The axes a value's batch may lie on, as a bit set. At one sample the
/// batch axis has size 1, and reshapes that add unit axes (a [1, H] state
/// expanded to [1, 1, H]) leave it unclear which unit axis is the batch; the
/// set keeps every candidate until an op needs one.
using AxisSet = uint64_t;

AxisSet bit(int64_t axis) { return AxisSet(1) << axis; }

SmallVector<int64_t> axesIn(AxisSet set) {
  SmallVector<int64_t> axes;
  for (int64_t a = 0; a < 64; ++a)
    if (set & bit(a))
      axes.push_back(a);
  return axes;
}

/// Batch axes of the values seen so far; a value without any does not
/// depend on the batch.
class BatchTracker {
public:
  BatchTracker(StringRef dim, const dlc::BatchDependenceSink &sink)
      : dim(dim), sink(sink) {}

  AxisSet axesOf(Value v) const { return axes.lookup(v); }
  void setAxes(Value v, AxisSet set) { axes[v] = set; }

  /// Gives `op`'s results their batch axes, or reports why it cannot.
  LogicalResult visit(Operation *op);

private:
  LogicalResult fail(Operation *op, const Twine &why) {
    return report(op, "'" + op->getName().getStringRef() + "' " + why);
  }
  LogicalResult report(Operation *op, const Twine &finding) {
    return dlc::reportBatchDependence(op->emitError(), op->getLoc(), dim,
                                      finding, dlc::BatchAdvice::OneSample,
                                      /*prefixed=*/true, sink);
  }
  LogicalResult visitLinalg(linalg::LinalgOp op);
  /// The candidates of `set` along which a slice takes the whole axis.
  AxisSet wholeAlong(AxisSet set, ArrayRef<int64_t> offsets,
                     ArrayRef<int64_t> sizes, ArrayRef<int64_t> strides,
                     ArrayRef<int64_t> full) {
    AxisSet kept = 0;
    for (int64_t a : axesIn(set))
      if (offsets[a] == 0 && sizes[a] == full[a] && strides[a] == 1)
        kept |= bit(a);
    return kept;
  }

  std::string dim;
  const dlc::BatchDependenceSink &sink;
  llvm::DenseMap<Value, AxisSet> axes;
};

/// Where the batch lies after a reshape from `src` to `dst` (row-major, the
/// same elements). A batch on axis a is the outer part of that axis: in
/// linear order it sits below the product of the axes before a. On the
/// result it is the outer part of every axis r whose preceding axes have the
/// same product; none means samples would interleave.
AxisSet reshapeAxes(ArrayRef<int64_t> src, AxisSet set, ArrayRef<int64_t> dst) {
  auto prefix = [](ArrayRef<int64_t> shape, int64_t axis) {
    int64_t p = 1;
    for (int64_t d = 0; d < axis; ++d)
      p *= shape[d];
    return p;
  };
  AxisSet result = 0;
  for (int64_t a : axesIn(set))
    for (int64_t r = 0; r < (int64_t)dst.size(); ++r)
      if (prefix(dst, r) == prefix(src, a))
        result |= bit(r);
  return result;
}

using LoopSet = llvm::SmallDenseSet<unsigned, 4>;

void intersect(std::optional<LoopSet> &acc, const LoopSet &loops) {
  if (!acc) {
    acc = loops;
    return;
  }
  LoopSet both;
  for (unsigned l : *acc)
    if (loops.contains(l))
      both.insert(l);
  acc = both;
}

LogicalResult BatchTracker::visitLinalg(linalg::LinalgOp op) {
  MLIRContext *ctx = op->getContext();
  // The loops that may run over the batch: each batched operand indexes a
  // candidate batch axis with one, and no other of its axes.
  std::optional<LoopSet> loops;
  for (OpOperand &operand : op->getOpOperands()) {
    AxisSet set = axesOf(operand.get());
    if (!set)
      continue;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    LoopSet here;
    for (int64_t a : axesIn(set)) {
      auto d = dyn_cast<AffineDimExpr>(map.getResult(a));
      if (!d)
        continue;
      bool alone = true;
      for (auto [k, e] : llvm::enumerate(map.getResults()))
        alone &= (int64_t)k == a || !e.isFunctionOfDim(d.getPosition());
      if (alone)
        here.insert(d.getPosition());
    }
    if (here.empty())
      return fail(op, "indexes the batch axis of operand " +
                          Twine(operand.getOperandNumber()) +
                          " with a constant or compound index (it broadcasts "
                          "or shifts samples)");
    intersect(loops, here);
    if (loops->empty())
      return fail(op, "indexes the batch axes of two operands with different "
                      "loops (it mixes samples)");
  }
  // Batched tensors read in the body (Gather lowers so) must be indexed at
  // their batch axis by the batch loop's own index: each sample reads its
  // own part.
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(op->getRegions(), captured);
  // linalg.index results that are such a batch index, by loop.
  llvm::DenseMap<unsigned, llvm::SmallPtrSet<Operation *, 4>> batchReads;
  for (Value v : captured) {
    AxisSet set = axesOf(v);
    if (!set)
      continue;
    for (OpOperand &use : v.getUses()) {
      if (!op->isProperAncestor(use.getOwner()))
        continue;
      auto read = dyn_cast<tensor::ExtractOp>(use.getOwner());
      LoopSet here;
      for (int64_t a : read ? axesIn(set) : SmallVector<int64_t>()) {
        auto index = read.getIndices()[a].getDefiningOp<linalg::IndexOp>();
        if (index && index->getParentOp() == op.getOperation()) {
          here.insert(index.getDim());
          batchReads[index.getDim()].insert(read);
        }
      }
      if (here.empty())
        return fail(op, "reads a batched tensor inside its body other than "
                        "at its own sample");
      intersect(loops, here);
      if (loops->empty())
        return fail(op, "reads a batched tensor at a different loop than its "
                        "batched operands (it mixes samples)");
    }
  }
  auto iterators = op.getIteratorTypesArray();
  LoopSet parallel;
  for (unsigned l : *loops)
    if (iterators[l] == utils::IteratorType::parallel)
      parallel.insert(l);
  if (parallel.empty())
    return fail(op, "reduces over the batch axis");
  // The sample's position (linalg.index of the batch loop) may only pick
  // the sample's own part of a batched tensor.
  LoopSet positionFree;
  for (unsigned l : parallel) {
    bool readsPosition = false;
    op->walk([&](linalg::IndexOp index) {
      if (index.getDim() != l)
        return;
      for (OpOperand &use : index->getUses())
        readsPosition |= !batchReads[l].contains(use.getOwner());
    });
    if (!readsPosition)
      positionFree.insert(l);
  }
  if (positionFree.empty())
    return fail(op, "uses the position of a sample in the batch");
  // Each result keeps the batch loop on exactly one axis.
  SmallVector<AxisSet> results(op->getNumResults(), 0);
  for (unsigned l : positionFree) {
    SmallVector<AxisSet> found;
    for (OpResult result : op->getResults()) {
      AffineMap map = op.getMatchingIndexingMap(
          op.getDpsInitOperand(result.getResultNumber()));
      AxisSet at = 0;
      bool elsewhere = false;
      for (auto [k, e] : llvm::enumerate(map.getResults())) {
        if (e == getAffineDimExpr(l, ctx))
          at |= bit(k);
        else if (e.isFunctionOfDim(l))
          elsewhere = true;
      }
      if (elsewhere || llvm::popcount(at) != 1)
        break;
      found.push_back(at);
    }
    if (found.size() != results.size())
      continue;
    for (auto [acc, at] : llvm::zip(results, found))
      acc |= at;
  }
  if (llvm::any_of(results, [](AxisSet s) { return s == 0; }))
    return fail(op, "drops the batch axis from its result");
  for (auto [result, set] : llvm::zip(op->getResults(), results))
    setAxes(result, set);
  return success();
}

/// True when every result of `op` only reaches run-time checks
/// (dlc.report, through the tensor.extract of a flag): such a computation
/// may combine the samples of a call, which fails when any sample fails.
static bool onlyFeedsReports(Operation *op) {
  if (op->getNumResults() == 0)
    return false;
  for (Operation *user : op->getUsers()) {
    if (isa<dlc::ReportOp>(user))
      continue;
    if (!isa<tensor::ExtractOp>(user) ||
        !llvm::all_of(user->getUsers(),
                      [](Operation *u) { return isa<dlc::ReportOp>(u); }))
      return false;
  }
  return true;
}

LogicalResult BatchTracker::visit(Operation *op) {
  if (onlyFeedsReports(op))
    return success();
  // The import's word on where the batch lies in a node's output: it
  // settles the candidates the lowering of the node left.
  if (auto hint = dyn_cast<dlc::BatchAxisOp>(op)) {
    AxisSet set = axesOf(hint.getInput());
    int64_t axis = hint.getAxis();
    if (axis < 0) {
      if (set)
        return report(op, "this node's output depends on the batch but does "
                          "not grow with it (it mixes or selects samples)");
      return success();
    }
    if (set && !(set & bit(axis)))
      return report(op, "this node's output grows along axis " + Twine(axis) +
                            " with the batch, but its samples lie along axis " +
                            Twine(axesIn(set).front()));
    setAxes(hint.getResult(), bit(axis));
    return success();
  }
  // Batched tensors read inside a body (a gather from them); only linalg
  // ops may do so, see visitLinalg.
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(op->getRegions(), captured);
  bool readsBatched =
      llvm::any_of(captured, [&](Value v) { return axesOf(v) != 0; });
  if (readsBatched && !isa<linalg::LinalgOp>(op))
    return fail(op, "reads a batched tensor inside its body");
  if (!readsBatched &&
      llvm::none_of(op->getOperands(), [&](Value v) { return axesOf(v); }))
    return success(); // does not depend on the batch

  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    return visitLinalg(linalgOp);
  if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(op)) {
    Value src = op->getOperand(0);
    AxisSet set = reshapeAxes(cast<RankedTensorType>(src.getType()).getShape(),
                              axesOf(src),
                              cast<RankedTensorType>(op->getResult(0).getType())
                                  .getShape());
    if (!set)
      return fail(op, "merges the batch axis into an outer axis (samples "
                      "would interleave)");
    setAxes(op->getResult(0), set);
    return success();
  }
  if (auto pad = dyn_cast<tensor::PadOp>(op)) {
    AxisSet set = 0;
    for (int64_t a : axesIn(axesOf(pad.getSource())))
      if (pad.getStaticLow()[a] == 0 && pad.getStaticHigh()[a] == 0)
        set |= bit(a);
    if (!set)
      return fail(op, "pads the batch axis");
    setAxes(pad.getResult(), set);
    return success();
  }
  if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op)) {
    AxisSet whole = wholeAlong(axesOf(slice.getSource()),
                               slice.getStaticOffsets(), slice.getStaticSizes(),
                               slice.getStaticStrides(),
                               slice.getSourceType().getShape());
    if (!whole)
      return fail(op, "slices along the batch axis");
    llvm::SmallBitVector dropped = slice.getDroppedDims();
    AxisSet set = 0;
    for (int64_t a : axesIn(whole)) {
      if (dropped.test(a))
        continue;
      int64_t before = 0;
      for (int64_t d = 0; d < a; ++d)
        before += dropped.test(d);
      set |= bit(a - before);
    }
    if (!set)
      return fail(op, "drops the batch axis");
    setAxes(slice.getResult(), set);
    return success();
  }
  if (auto insert = dyn_cast<tensor::InsertSliceOp>(op)) {
    AxisSet src = axesOf(insert.getSource()), dest = axesOf(insert.getDest());
    if (insert.getSourceType().getRank() != insert.getDestType().getRank() &&
        src)
      return fail(op, "inserts a batched tensor of lower rank");
    AxisSet set = src && dest ? src & dest : src | dest;
    set = wholeAlong(set, insert.getStaticOffsets(), insert.getStaticSizes(),
                     insert.getStaticStrides(),
                     insert.getDestType().getShape());
    if (!set)
      return fail(op, "slices along the batch axis");
    setAxes(insert.getResult(), set);
    return success();
  }
  if (auto concat = dyn_cast<tensor::ConcatOp>(op)) {
    AxisSet set = ~AxisSet(0);
    for (Value v : concat.getInputs())
      if (AxisSet s = axesOf(v))
        set &= s;
    set &= ~bit(concat.getDim());
    if (!set)
      return fail(op, "concatenates along the batch axis");
    setAxes(concat.getResult(), set);
    return success();
  }
  if (auto cast = dyn_cast<tensor::CastOp>(op)) {
    setAxes(cast.getResult(), axesOf(cast.getSource()));
    return success();
  }
  return fail(op, "is not known to keep samples apart");
}

struct CheckBatchIndependencePass
    : public dlc::impl::CheckBatchIndependenceBase<CheckBatchIndependencePass> {
  CheckBatchIndependencePass() = default;
  explicit CheckBatchIndependencePass(dlc::BatchDependenceSink sink)
      : sink(std::move(sink)) {}
  /// Receives each refusal as a value (see createCheckBatchIndependence).
  dlc::BatchDependenceSink sink;
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
    BatchTracker tracker(dim.getValue(), sink);
    for (auto [arg, axis] : llvm::zip(main.getArguments(), inputs.asArrayRef()))
      if (axis >= 0)
        tracker.setAxes(arg, bit(axis));
    Block &body = main.getBody().front();
    for (Operation &op : body.without_terminator())
      if (failed(tracker.visit(&op)))
        return signalPassFailure();
    // The hints have served.
    SmallVector<dlc::BatchAxisOp> hints(body.getOps<dlc::BatchAxisOp>());
    for (dlc::BatchAxisOp hint : hints) {
      hint.getResult().replaceAllUsesWith(hint.getInput());
      hint->erase();
    }

    // Output axes, against what the import saw when the batch grew (-3:
    // not seen, for --per-node outputs).
    Operation *ret = body.getTerminator();
    auto declared = module->getAttrOfType<DenseI64ArrayAttr>(
        dlc::kDeclaredOutputBatchAxesAttr);
    SmallVector<int64_t> outputs;
    for (auto [i, v] : llvm::enumerate(ret->getOperands())) {
      AxisSet found = tracker.axesOf(v);
      int64_t seen = declared && i < (size_t)declared.size() ? declared[i] : -3;
      if (seen == -3) {
        outputs.push_back(found ? axesIn(found).front() : -1);
        continue;
      }
      // A batched output must lie where the import saw it grow; one that
      // does not depend on the batch but grows with it is the same for
      // every sample, and each run writes its sample's copy.
      if ((seen >= 0 && (!found || (found & bit(seen)))) ||
          (seen == -1 && !found)) {
        outputs.push_back(seen);
        continue;
      }
      std::string grows =
          seen < 0 ? std::string(" keeps its shape when the batch grows")
                   : " grows along axis " + std::to_string(seen) +
                         " when the batch grows";
      (void)dlc::reportBatchDependence(
          ret->emitError(), ret->getLoc(), dim.getValue(),
          "output " + Twine(i) + grows + ", but its samples lie along axis " +
              Twine(axesIn(found).front()),
          dlc::BatchAdvice::FixLater, /*prefixed=*/true, sink);
      return signalPassFailure();
    }
    module->setAttr(dlc::kOutputBatchAxesAttr,
                    Builder(module).getDenseI64ArrayAttr(outputs));
  }
};

} // namespace

std::unique_ptr<Pass>
dlc::createCheckBatchIndependence(BatchDependenceSink sink) {
  return std::make_unique<CheckBatchIndependencePass>(std::move(sink));
}
