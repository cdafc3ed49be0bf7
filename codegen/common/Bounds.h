//===- Bounds.h - compile-time bounds of run-time sizes ----------*- C++
//-*-===//
//
// Upper bounds of `index` values that size dynamic tensors (tile sizes,
// clamped counts, symbolic input dimensions): the value-bounds analysis
// first, then interval arithmetic over the `arith` ops it does not bound
// (products and quotients of bounded sizes).
//
//===----------------------------------------------------------------------===//
#ifndef DLC_CODEGEN_COMMON_BOUNDS_H
#define DLC_CODEGEN_COMMON_BOUNDS_H

#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/ArrayRef.h"

#include <optional>

namespace dlc {

/// The largest value `size` takes, or nullopt when it is not bounded at
/// compile time.
std::optional<int64_t> upperBoundOfSize(mlir::Value size);

/// The smallest value `size` takes, or nullopt when it is not bounded
/// below at compile time.
std::optional<int64_t> lowerBoundOfSize(mlir::Value size);

/// The product of `bounds` (a buffer's elements), or nullopt when it
/// overflows int64.
std::optional<int64_t> boundedProduct(llvm::ArrayRef<int64_t> bounds);

/// Upper bounds of each of `sizes` (static, or index values bounded by
/// upperBoundOfSize) of a tensor or buffer of `type` into `bounds`, and
/// their product; emits the error at `op` and returns failure when a size
/// has no bound or the product overflows.
mlir::FailureOr<int64_t> boundShape(mlir::Operation *op, mlir::ShapedType type,
                                    llvm::ArrayRef<mlir::OpFoldResult> sizes,
                                    llvm::SmallVectorImpl<int64_t> &bounds);

/// The index value that dynamic dimension `d` of `v` was created with (the
/// size of a tensor.empty, of a view, of the destination of the op that
/// computed it; a value carried by a loop has its initial value's sizes),
/// or null.
mlir::Value definingSize(mlir::Value v, int64_t d);

/// The largest size of dimension `d` of the tensor or buffer `v` (its
/// static size, or the bound of the size it was created with), or nullopt.
std::optional<int64_t> upperBoundOfDim(mlir::Value v, int64_t d);

} // namespace dlc

#endif
