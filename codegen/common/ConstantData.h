//===- ConstantData.h - the bytes of constant tensors -----------*- C++ -*-===//
#ifndef DLC_CODEGEN_COMMON_CONSTANTDATA_H
#define DLC_CODEGEN_COMMON_CONSTANTDATA_H

#include "mlir/IR/BuiltinAttributes.h"

#include <vector>

namespace dlc {
/// The raw, densely packed bytes of a constant (a dense or dense_resource
/// elements attribute); empty when unavailable (splats, sub-byte element
/// types).
llvm::ArrayRef<char> rawConstantBytes(mlir::Attribute value);

/// `data` (row-major, `shape`) with its dims reordered by `perm`: result dim
/// j is source dim perm[j].
std::vector<char> permuteBytes(llvm::ArrayRef<char> data,
                               llvm::ArrayRef<int64_t> shape,
                               llvm::ArrayRef<int64_t> perm, size_t elemBytes);

/// `data` (row-major, `shape`) with dim `dim` extended to `extent` (at least
/// its size), the new elements zero.
std::vector<char> padBytes(llvm::ArrayRef<char> data,
                           llvm::ArrayRef<int64_t> shape, int64_t dim,
                           int64_t extent, size_t elemBytes);

/// `value` (a dense or dense_resource elements attribute) as a constant of
/// `type`, the same elements in the same order (a reshape); null when
/// `value` is neither or the element counts differ.
mlir::ElementsAttr reshapedConstant(mlir::Attribute value,
                                    mlir::ShapedType type);

/// A dense_resource constant of `type` holding `bytes` (weights can be large:
/// resource blobs are neither printed nor uniqued).
mlir::DenseResourceElementsAttr
resourceConstant(mlir::RankedTensorType type, llvm::StringRef name,
                 llvm::ArrayRef<char> bytes);
} // namespace dlc

#endif
