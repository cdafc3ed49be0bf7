//===- DlcDialect.h - the dlc dialect ----------------------------*- C++ -*-===//
#ifndef DLC_IR_DLCDIALECT_H
#define DLC_IR_DLCDIALECT_H

#include "mlir/IR/Dialect.h"

#include "ir/DlcDialect.h.inc"

namespace dlc {
/// Module attributes of a model with a dynamic batch (see
/// frontend/DynamicBatch.h): the symbolic dimension's name (StringAttr),
/// the batch axis of each input and each output as the ONNX graph declares
/// it (DenseI64ArrayAttr, -1 for none), and the batch axis of each output
/// that dlc-check-batch-independence proved.
inline constexpr llvm::StringLiteral kBatchDimAttr = "dlc.batch_dim";
inline constexpr llvm::StringLiteral kInputBatchAxesAttr =
    "dlc.input_batch_axes";
inline constexpr llvm::StringLiteral kDeclaredOutputBatchAxesAttr =
    "dlc.declared_output_batch_axes";
inline constexpr llvm::StringLiteral kOutputBatchAxesAttr =
    "dlc.output_batch_axes";
/// Module attribute set by dlc-bounded-results: per result of @main, the
/// upper bounds of its shape (DenseI64ArrayAttr; empty for static ones).
inline constexpr llvm::StringLiteral kOutputMaxShapesAttr =
    "dlc.output_max_shapes";
/// Unit attribute of @main's argument and result that hold the run-time
/// sizes of symbolic input dimensions and of dynamic result dimensions
/// (dlc-bounded-arguments, dlc-bounded-results): host memory on every
/// target, read and written by the host code around the kernels.
inline constexpr llvm::StringLiteral kSizesAttr = "dlc.sizes";
} // namespace dlc

#endif // DLC_IR_DLCDIALECT_H
