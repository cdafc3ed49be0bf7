//===- Patterns.h - dlc -> linalg patterns, by op family ---------*- C++ -*-===//
#ifndef DLC_PASSES_LOWERING_PATTERNS_H
#define DLC_PASSES_LOWERING_PATTERNS_H

#include "mlir/IR/PatternMatch.h"

namespace dlc {
void populateElementwiseLoweringPatterns(mlir::RewritePatternSet &patterns);
void populateElementwiseMathLoweringPatterns(mlir::RewritePatternSet &patterns);
void populateReductionLoweringPatterns(mlir::RewritePatternSet &patterns);
void populateContractionLoweringPatterns(mlir::RewritePatternSet &patterns);
void populateConvLoweringPatterns(mlir::RewritePatternSet &patterns);
void populatePoolLoweringPatterns(mlir::RewritePatternSet &patterns);
void populateSoftmaxLoweringPatterns(mlir::RewritePatternSet &patterns);
void populateDataMovementLoweringPatterns(mlir::RewritePatternSet &patterns);
void populateDataDependentLoweringPatterns(mlir::RewritePatternSet &patterns);
void populateLinearAlgebraLoweringPatterns(mlir::RewritePatternSet &patterns);
} // namespace dlc

#endif
