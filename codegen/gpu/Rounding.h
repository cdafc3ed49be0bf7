//===- Rounding.h - f32 values rounded to a lower precision -----*- C++ -*-===//
#ifndef DLC_CODEGEN_GPU_ROUNDING_H
#define DLC_CODEGEN_GPU_ROUNDING_H

#include "ir/DlcAttrs.h"

#include "mlir/IR/Builders.h"

namespace dlc {
/// `value` (f32 or a vector of f32) rounded to `precision`, still in f32:
/// tf32 to nearest with ties away from zero (as `cvt.rna.tf32.f32`), f16
/// and bf16 to nearest even; NaNs unchanged. Other types are returned as
/// they are.
mlir::Value roundToPrecision(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::Value value, GpuPrecision precision);
} // namespace dlc

#endif // DLC_CODEGEN_GPU_ROUNDING_H
