//===- ShapeValues.h - shape arithmetic kept symbolic ------------*- C++
//-*-===//
//
// Internal to the frontend: small integer tensors that hold sizes (Shape's
// results and what Gather, Unsqueeze, Concat, Slice and integer arithmetic
// make of them) are kept as their elements, constants or run-time scalars,
// so that the Reshape or Slice that reads them learns its sizes
// symbolically instead of from a tensor at run time.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_FRONTEND_SHAPEVALUES_H
#define DLC_FRONTEND_SHAPEVALUES_H

#include "frontend/NodeImporter.h"

#include "mlir/IR/OpDefinition.h"

#include <optional>

namespace dlc {

/// The elements of `v` when it is a small (at most 64 elements) int64
/// tensor of rank 0 or 1 whose elements are known at import: a constant,
/// or a tensor.from_elements of constants and i64 scalars. Constants are
/// IntegerAttrs, the others i64 Values.
std::optional<llvm::SmallVector<mlir::OpFoldResult>>
shapeElements(mlir::Value v);

/// Element `e` as an index value (a constant or an index_cast).
mlir::Value indexValueOf(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::OpFoldResult e);

/// Imports `nc`'s node on its shape values' elements when it computes on
/// shape values of which some are known at run time only (Identity,
/// Cast to int64, Gather, Unsqueeze, Squeeze, Concat, Slice, Add, Sub,
/// Mul, Div, Max, Min): its result is a tensor.from_elements of scalar
/// arithmetic. Nullopt when it does not apply.
std::optional<NodeResults> importShapeArithmetic(NodeContext &nc);

} // namespace dlc

#endif
