//===- LowerToLinalg.cpp - the dlc -> linalg conversion pass --------------===//
#include "ir/DlcDialect.h"
#include "ir/DlcOps.h"
#include "passes/Passes.h"
#include "passes/lowering/Patterns.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace dlc {
#define GEN_PASS_DEF_LOWERTOLINALG
#include "passes/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {
struct LowerToLinalgPass
    : public dlc::impl::LowerToLinalgBase<LowerToLinalgPass> {
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
      if (auto pool = dyn_cast<dlc::MaxPoolOp>(op);
          pool && pool.getCeilMode() && !pool.getType().hasStaticShape()) {
        op->emitError("MaxPool with ceil_mode and dynamic dimensions is not "
                      "supported yet: ")
            << pool.getType();
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

    RewritePatternSet patterns(&getContext());
    dlc::populateElementwiseLoweringPatterns(patterns);
    dlc::populateElementwiseMathLoweringPatterns(patterns);
    dlc::populateReductionLoweringPatterns(patterns);
    dlc::populateContractionLoweringPatterns(patterns);
    dlc::populateConvLoweringPatterns(patterns);
    dlc::populatePoolLoweringPatterns(patterns);
    dlc::populateSoftmaxLoweringPatterns(patterns);
    dlc::populateDataMovementLoweringPatterns(patterns);
    dlc::populateDataDependentLoweringPatterns(patterns);
    dlc::populateLinearAlgebraLoweringPatterns(patterns);

    ConversionTarget target(getContext());
    target.addIllegalDialect<dlc::DlcDialect>();
    // Dynamic-batch hints stay for dlc-check-batch-independence.
    target.addLegalOp<dlc::BatchAxisOp>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
