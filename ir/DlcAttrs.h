//===- DlcAttrs.h - dlc attributes -------------------------------*- C++ -*-===//
#ifndef DLC_IR_DLCATTRS_H
#define DLC_IR_DLCATTRS_H

#include "ir/DlcDialect.h"
#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"

#include "ir/DlcEnums.h.inc"
#define GET_ATTRDEF_CLASSES
#include "ir/DlcAttrs.h.inc"

namespace dlc {
/// The name of a GpuConfigAttr on the op it configures.
inline constexpr llvm::StringLiteral kGpuConfigAttrName = "dlc.gpu_config";
/// The name of a PlacementAttr on the ops of a kernel of a CUDA model.
inline constexpr llvm::StringLiteral kPlacementAttrName = "dlc.placement";
/// Whether `op` belongs to a kernel placed on the CPU (a host part of a
/// CUDA model).
inline bool isPlacedOnCpu(mlir::Operation *op) {
  auto p = op ? op->getAttrOfType<PlacementAttr>(kPlacementAttrName)
              : PlacementAttr();
  return p && p.getDevice() == Device::Cpu;
}
/// On a function: a CUDA model's host part (CPU code the entry calls).
inline constexpr llvm::StringLiteral kHostPartAttrName = "dlc.host_part";
/// On a `memref.alloc`: a buffer in host memory (the host workspace of a
/// CUDA model), not device memory.
inline constexpr llvm::StringLiteral kHostBufferAttrName = "dlc.host";
/// On an argument of `@main` with dynamic dimensions: an ArrayAttr of
/// SymbolicDimAttr, one per dynamic dimension in order.
inline constexpr llvm::StringLiteral kSymbolicDimsAttrName =
    "dlc.symbolic_dims";
} // namespace dlc

#endif // DLC_IR_DLCATTRS_H
