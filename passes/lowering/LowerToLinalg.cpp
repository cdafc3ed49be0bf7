//===- LowerToLinalg.cpp - the dlc -> linalg conversion pass --------------===//
#include "ir/DlcDialect.h"
#include "ir/DlcOps.h"
#include "passes/Passes.h"
#include "passes/lowering/Patterns.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/DialectConversion.h"

namespace dlc {
#define GEN_PASS_DEF_LOWERTOLINALG
#include "passes/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {
struct LowerToLinalgPass
    : public dlc::impl::LowerToLinalgBase<LowerToLinalgPass> {
  using LowerToLinalgBase::LowerToLinalgBase;
  void runOnOperation() override {
    // Operands are static; only the data-dependent ops (dlc.nonzero, ...)
    // have dynamic results. Say so at the node otherwise.
    WalkResult walk = getOperation().walk([](Operation *op) {
      if (!isa<dlc::DlcDialect>(op->getDialect()))
        return WalkResult::advance();
      bool dataDependent = isa<dlc::NonZeroOp, dlc::CompressOp, dlc::UniqueOp,
                               dlc::NonMaxSuppressionOp>(op);
      // Ops whose lowering sizes dynamic dimensions from their operands.
      bool dynamicOk = op->hasTrait<dlc::OpTrait::LowersDynamicShapes>();
      // A slice that takes each dynamic dimension whole (a recurrence's
      // step over a run-time batch).
      if (auto slice = dyn_cast<dlc::SliceOp>(op)) {
        auto in = slice.getInput().getType();
        dynamicOk =
            llvm::all_of(llvm::seq<int64_t>(0, in.getRank()), [&](int64_t d) {
              return !in.isDynamicDim(d) ||
                     (slice.getType().isDynamicDim(d) &&
                      slice.getStarts()[d] == 0 && slice.getSteps()[d] == 1);
            });
      }
      // Run-time sizes the lowering cannot check: a dynamic dimension that
      // broadcasts against a fixed size (it reads that many elements), a
      // dynamic tensor reshaped to a fixed shape, grouped convolutions of
      // dynamic channels.
      if (dynamicOk && op->getNumResults() == 1 &&
          (op->getNumOperands() >= 2 || isa<dlc::ExpandOp>(op)) &&
          !isa<dlc::MatMulOp, dlc::GemmOp, dlc::ConvOp, dlc::ConcatOp,
               dlc::EinsumOp, dlc::BatchNormOp, dlc::ReshapeOp, dlc::GatherOp,
               dlc::GatherElementsOp, dlc::NonMaxSuppressionOp>(op)) {
        auto result = cast<RankedTensorType>(op->getResult(0).getType());
        for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
          auto t = cast<RankedTensorType>(operand.getType());
          for (int64_t d = 0; d < t.getRank(); ++d) {
            int64_t rd = d + result.getRank() - t.getRank();
            if (!t.isDynamicDim(d) || result.isDynamicDim(rd) ||
                result.getDimSize(rd) == 1)
              continue;
            op->emitError("operand ")
                << i << " has the dynamic shape " << t << ", whose dimension "
                << d << " meets the fixed size " << result.getDimSize(rd)
                << " of the result " << result
                << "; symbolic dimensions there are not supported: give that "
                   "dimension a fixed size";
            return WalkResult::interrupt();
          }
        }
      }
      // Constant indices (initializers, or inputs `dlc run` specialized to
      // its data) outside their axis are an error of the compile.
      if (isa<dlc::GatherOp, dlc::GatherElementsOp>(op)) {
        auto data = cast<RankedTensorType>(op->getOperand(0).getType());
        int64_t axis = op->getAttrOfType<IntegerAttr>("axis").getInt();
        int64_t n = data.getDimSize(axis);
        DenseIntElementsAttr indices;
        if (!ShapedType::isDynamic(n) &&
            matchPattern(op->getOperand(1), m_Constant(&indices)))
          for (const APInt &v : indices.getValues<APInt>()) {
            int64_t i = v.getSExtValue();
            if (i >= -n && i < n)
              continue;
            op->emitError(isa<dlc::GatherOp>(op) ? "Gather" : "GatherElements")
                << ": index " << i << " is outside [" << -n << ", " << n
                << "), the range of axis " << axis << " of " << data;
            return WalkResult::interrupt();
          }
      }
      if (auto check = dyn_cast<dlc::CheckIndicesOp>(op)) {
        DenseIntElementsAttr indices, bounds;
        if (matchPattern(check.getIndices(), m_Constant(&indices)) &&
            matchPattern(check.getBounds(), m_Constant(&bounds))) {
          auto n = llvm::to_vector(
              llvm::map_range(bounds.getValues<APInt>(),
                              [](const APInt &v) { return v.getSExtValue(); }));
          int64_t position = 0;
          for (const APInt &v : indices.getValues<APInt>()) {
            int64_t i = v.getSExtValue(), b = n[position++ % n.size()];
            if (i >= -b && i < b)
              continue;
            op->emitError(check.getOpType())
                << ": index " << i << " (element " << position - 1
                << " of the indices " << check.getIndices().getType()
                << ") is outside [" << -b << ", " << b
                << "), the size of the data dimension it addresses";
            return WalkResult::interrupt();
          }
        }
      }
      if (auto reshape = dyn_cast<dlc::ReshapeOp>(op);
          reshape && !reshape.getInput().getType().hasStaticShape() &&
          reshape.getType().hasStaticShape()) {
        op->emitError("reshaping ")
            << reshape.getInput().getType() << " to the fixed shape "
            << reshape.getType()
            << " is not supported: its size is known at run time only";
        return WalkResult::interrupt();
      }
      if (auto conv = dyn_cast<dlc::ConvOp>(op);
          conv && conv.getGroup() > 1 &&
          (cast<RankedTensorType>(conv.getInput().getType()).isDynamicDim(1) ||
           cast<RankedTensorType>(conv.getWeight().getType())
               .isDynamicDim(0))) {
        op->emitError("a grouped convolution needs fixed channel counts");
        return WalkResult::interrupt();
      }
      if (isa<dlc::MaxPoolOp, dlc::AvgPoolOp>(op) &&
          op->getAttrOfType<BoolAttr>("ceil_mode").getValue() &&
          !cast<RankedTensorType>(op->getResult(0).getType())
               .hasStaticShape()) {
        op->emitError()
            << (isa<dlc::MaxPoolOp>(op) ? "MaxPool" : "AveragePool")
            << " with ceil_mode and dynamic dimensions is not supported yet: "
            << op->getResult(0).getType();
        return WalkResult::interrupt();
      }
      if (dynamicOk)
        return WalkResult::advance();
      for (Type t : llvm::concat<Type>(
               op->getOperandTypes(),
               dataDependent ? TypeRange() : TypeRange(op->getResultTypes())))
        if (auto tt = dyn_cast<RankedTensorType>(t); tt && !tt.hasStaticShape()) {
          op->emitError("dynamic shapes are not supported yet: ") << tt;
          return WalkResult::interrupt();
        }
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();

    dlc::lowerConcatPrefixes(getOperation());
    RewritePatternSet patterns(&getContext());
    dlc::populateElementwiseLoweringPatterns(patterns);
    dlc::populateElementwiseMathLoweringPatterns(patterns);
    dlc::populateReductionLoweringPatterns(patterns);
    dlc::populateContractionLoweringPatterns(patterns);
    dlc::populateConvLoweringPatterns(patterns);
    dlc::populatePoolLoweringPatterns(patterns);
    dlc::populateSoftmaxLoweringPatterns(patterns);
    dlc::populateDataMovementLoweringPatterns(patterns, indexChecks);
    dlc::populateDataDependentLoweringPatterns(patterns);
    dlc::populateLinearAlgebraLoweringPatterns(patterns);

    ConversionTarget target(getContext());
    target.addIllegalDialect<dlc::DlcDialect>();
    // Dynamic-batch hints stay for dlc-check-batch-independence.
    target.addLegalOp<dlc::BatchAxisOp>();
    // Run-time checks stay until dlc-memory-plan.
    target.addLegalOp<dlc::ReportOp>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
