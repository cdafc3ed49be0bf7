//===- SymbolicDims.h - which dynamic dimensions are equal -------*- C++
//-*-===//
//
// Internal to the frontend: while a graph is imported, which dynamic
// dimensions of its values are the same size. Graph inputs' dimensions of
// one name are one size; each node's outputs inherit their operands'
// dimensions by the op's shape rule (elementwise broadcasting, Transpose,
// MatMul, Gather, ...); reshapes are sized by the values they were given.
// Importers use it to reason about sizes symbolically (a Reshape's -1 entry
// over a computed shape is the input's elements over the others: the
// dimensions that cancel are known equal).
//
//===----------------------------------------------------------------------===//
#ifndef DLC_FRONTEND_SYMBOLICDIMS_H
#define DLC_FRONTEND_SYMBOLICDIMS_H

#include "mlir/IR/Value.h"
#include "onnx/onnx_pb.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

#include <optional>
#include <utility>

namespace dlc {

class SymbolicDims {
public:
  /// A dimension: (tensor, index). The key of a class of equal dimensions
  /// is one of them.
  using Key = std::pair<mlir::Value, unsigned>;

  /// Dimension `d` of graph input `arg` is the symbolic dimension `name`:
  /// dimensions of one name share a key.
  void addInput(mlir::Value arg, unsigned d, llvm::StringRef name);
  /// Records the dynamic dimensions of `node`'s `results` that equal
  /// dimensions of its `operands` by the op's shape rule.
  void recordNode(const onnx::NodeProto &node,
                  llvm::ArrayRef<mlir::Value> operands,
                  llvm::ArrayRef<mlir::Value> results);
  /// The key of dynamic dimension `d` of `tensor`.
  Key keyOf(mlir::Value tensor, unsigned d) const;
  /// The key of the dimension an index or integer size value was read
  /// from (through casts, to a tensor.dim); nullopt for constants; the
  /// value itself otherwise.
  std::optional<Key> keyOfSize(mlir::Value size) const;
  /// Dimension `d` of `result` is dimension `od` of `operand` (a loop's
  /// carried value is its initial value's size).
  void link(mlir::Value result, unsigned d, mlir::Value operand, unsigned od);

private:
  llvm::DenseMap<Key, Key> keys;
  llvm::StringMap<Key> names;
};

} // namespace dlc

#endif
