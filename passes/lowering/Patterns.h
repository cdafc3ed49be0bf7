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
/// With `indexChecks`, Gather, GatherElements and dlc.check_indices report
/// run-time indices outside their axis (dlc.report).
void populateDataMovementLoweringPatterns(mlir::RewritePatternSet &patterns,
                                          bool indexChecks = false);
void populateDataDependentLoweringPatterns(mlir::RewritePatternSet &patterns);
void populateLinearAlgebraLoweringPatterns(mlir::RewritePatternSet &patterns);

/// Lowers the static dlc.concat ops under `root` that extend one another
/// (each one's inputs a prefix of the next one's, along the same axis) into
/// one tensor of the last one's shape, each input inserted once, the
/// earlier concatenations its leading slices (ConcatPrefixes.cpp).
void lowerConcatPrefixes(mlir::Operation *root);
} // namespace dlc

#endif
