//===- Passes.h - graph-level passes and lowering ----------------*- C++ -*-===//
#ifndef DLC_PASSES_PASSES_H
#define DLC_PASSES_PASSES_H

#include "ir/BatchDependence.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace dlc {
#define GEN_PASS_DECL
#include "passes/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "passes/Passes.h.inc"

/// dlc-check-batch-independence handing each refusal to `sink` as a value,
/// besides the error it emits.
std::unique_ptr<mlir::Pass>
createCheckBatchIndependence(BatchDependenceSink sink);
} // namespace dlc

#endif // DLC_PASSES_PASSES_H
