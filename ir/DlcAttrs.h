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
/// On an argument of `@main` with dynamic dimensions: an ArrayAttr of
/// SymbolicDimAttr, one per dynamic dimension in order.
inline constexpr llvm::StringLiteral kSymbolicDimsAttrName =
    "dlc.symbolic_dims";
} // namespace dlc

#endif // DLC_IR_DLCATTRS_H
