//===- ConvTypes.h - operand types of a statically shaped convolution -----===//
//
// The rewrites of a convolution's tile (dlc-cpu-vectorize) or of a whole
// convolution of static shape (dlc-cpu-pointwise-convs) start from its
// input, filter and output types, all ranked and static.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_CODEGEN_COMMON_CONVTYPES_H
#define DLC_CODEGEN_COMMON_CONVTYPES_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <optional>

namespace dlc {

struct ConvTypes {
  mlir::RankedTensorType input, filter, output;
};

/// The types of `op`'s input, filter and output when it works on tensors
/// (two inputs, one init) whose shapes are all static; nullopt otherwise.
inline std::optional<ConvTypes> staticConvTypes(mlir::linalg::LinalgOp op) {
  if (!op.hasPureTensorSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1)
    return std::nullopt;
  auto type = [](mlir::Value v) {
    auto t = mlir::dyn_cast<mlir::RankedTensorType>(v.getType());
    return t && t.hasStaticShape() ? t : mlir::RankedTensorType();
  };
  ConvTypes types{type(op.getDpsInputs()[0]), type(op.getDpsInputs()[1]),
                  type(op.getDpsInits()[0])};
  if (!types.input || !types.filter || !types.output)
    return std::nullopt;
  return types;
}

} // namespace dlc

#endif // DLC_CODEGEN_COMMON_CONVTYPES_H
