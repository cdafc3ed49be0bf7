//===- ScalarElementLoads.h - extracted vector elements as loads -*- C++ -*-===//
#ifndef DLC_CODEGEN_CPU_SCALARELEMENTLOADS_H
#define DLC_CODEGEN_CPU_SCALARELEMENTLOADS_H

#include "mlir/IR/PatternMatch.h"

namespace dlc {
/// A vector read of a memref whose every use extracts one element becomes
/// one scalar load per element, at the read's place
/// (codegen/cpu/ScalarElementLoads.cpp).
void populateScalarElementLoadPatterns(mlir::RewritePatternSet &patterns);
} // namespace dlc

#endif // DLC_CODEGEN_CPU_SCALARELEMENTLOADS_H
