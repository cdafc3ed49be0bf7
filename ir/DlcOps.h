//===- DlcOps.h - dlc operations ---------------------------------*- C++ -*-===//
#ifndef DLC_IR_DLCOPS_H
#define DLC_IR_DLCOPS_H

#include "ir/DlcAttrs.h"
#include "ir/DlcDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace dlc::OpTrait {
/// Ops whose lowering sizes dynamic dimensions at run time from their
/// operands (Dlc_LowersDynamicShapes).
template <typename ConcreteType>
class LowersDynamicShapes
    : public mlir::OpTrait::TraitBase<ConcreteType, LowersDynamicShapes> {};
} // namespace dlc::OpTrait

#define GET_OP_CLASSES
#include "ir/DlcOps.h.inc"

namespace dlc {
/// Numpy broadcasting of two shapes; fails when they are incompatible.
llvm::LogicalResult broadcastShapes(llvm::ArrayRef<int64_t> a,
                                    llvm::ArrayRef<int64_t> b,
                                    llvm::SmallVectorImpl<int64_t> &result);
/// Result type of an elementwise op: broadcast of all operand shapes with
/// `elementType`.
llvm::LogicalResult inferBroadcast(std::optional<mlir::Location> loc,
                                   llvm::StringRef opName,
                                   mlir::ValueRange operands,
                                   mlir::Type elementType,
                                   llvm::SmallVectorImpl<mlir::Type> &types);
/// The largest shape `value` can take: its static shape, the upper bounds
/// of the data-dependent op (dlc.nonzero, ...) that computes it, or those
/// of an elementwise op or 2-D matmul of such values; nullopt when
/// unknown.
std::optional<llvm::SmallVector<int64_t>> upperBoundShape(mlir::Value value);
} // namespace dlc

#endif // DLC_IR_DLCOPS_H
