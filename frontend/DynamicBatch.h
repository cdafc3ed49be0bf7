//===- DynamicBatch.h - symbolic input dimensions at import -------*- C++
//-*-===//
//
// A model whose inputs have one symbolic dimension without a range (the
// batch, e.g. 'N') is imported for one sample (that dimension set to 1), and
// the runtime runs it once per sample, or (tools/driver/Compiler.cpp) it is
// imported again with the batch a symbolic dimension 1..S and run once per
// chunk of up to S samples. Either is only right when samples do not
// interact: the import checks what it can see in the ONNX graph (values
// computed from the batch size), and the dlc-check-batch-independence pass
// checks the lowered program.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_FRONTEND_DYNAMICBATCH_H
#define DLC_FRONTEND_DYNAMICBATCH_H

#include "ir/BatchDependence.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"

#include <map>
#include <string>
#include <vector>

namespace onnx {
class GraphProto;
class NodeProto;
class ValueInfoProto;
} // namespace onnx

namespace dlc {

/// A discardable attribute the Slice importer puts on a slice whose bounds
/// were cut to its input's size along these axes; the importer records and
/// removes it (NodeRecord::clampedDims).
inline constexpr llvm::StringLiteral kClampedAxesAttr = "dlc.clamped_axes";

/// What importing one node produced, for comparing the imports at batch 1
/// and 2.
struct NodeRecord {
  /// Dense constants the node's import made that are not its outputs
  /// (masks, tables), with their ops.
  llvm::SmallVector<mlir::DenseElementsAttr> constants;
  llvm::SmallVector<mlir::Operation *> constantOps;
  /// Per constant, whether the program reads it: directly, or through a
  /// value evaluated at compile time from it (set at the end of the import;
  /// an unread constant does not matter).
  llvm::SmallVector<bool> constantRead;
  /// The slices it made: input shape and the axes whose bounds were cut.
  struct Slice {
    llvm::SmallVector<int64_t> input;
    llvm::SmallVector<int64_t> clamped;
  };
  llvm::SmallVector<Slice> slices;
  /// The shape of its first input (empty if none).
  llvm::SmallVector<int64_t> firstInput;
};

/// A declared range of a symbolic dimension (`--dim NAME=MIN..MAX`).
struct DimRange {
  int64_t min = 1, max = 1;
};

struct BatchPlan {
  std::string dim; // the symbolic batch dimension; empty: a static model
  std::vector<int64_t> inputAxes; // per graph input; -1: no batch axis
  /// Per graph input, the names of its dimensions that stay symbolic
  /// (dimensions with a range in `dimRanges`), in order; empty for inputs
  /// without any.
  std::vector<llvm::SmallVector<std::string>> symbolic;
};

/// Makes `types` (the graph inputs' types, symbolic dimensions dynamic)
/// static: dimensions named in `dimValues` get those sizes, dimensions
/// named in `dimRanges` stay dynamic (plan.symbolic), and without such
/// ranges the one other symbolic name becomes the batch (of size
/// `batchSize`); with them, every symbolic dimension needs a size or a
/// range. Reports every
/// dimension it cannot resolve at `loc` (those get size `batchSize`) and
/// returns failure after them.
mlir::LogicalResult
planBatch(llvm::ArrayRef<const onnx::ValueInfoProto *> inputs,
          const std::map<std::string, int64_t> &dimValues,
          const std::map<std::string, DimRange> &dimRanges, int64_t batchSize,
          mlir::Location loc, llvm::SmallVectorImpl<mlir::Type> &types,
          BatchPlan &plan);

/// Rejects nodes that turn the batch size into data, which running one
/// sample at a time would compute wrongly. Also rejects nodes whose own
/// constants differ with the batch (a Trilu mask over the batch axis) and
/// slices with fixed bounds along it (`x[:3]`, which the batch of one sample
/// hides). `at1` and `at2` hold the node
/// outputs that import folded to constants, with the batch at 1, 2 and 3
/// (at3, records3): a value that differs (other than by being repeated per
/// sample) comes
/// from the batch size, and may only feed shape operands (Reshape's shape,
/// Slice's ends, ...) or further folding. Reports each node at fault.
mlir::LogicalResult checkBatchSizeUses(
    const onnx::GraphProto &graph, llvm::StringRef dim,
    const llvm::StringMap<mlir::DenseElementsAttr> &at1,
    const llvm::StringMap<mlir::DenseElementsAttr> &at2,
    const llvm::StringMap<mlir::DenseElementsAttr> &at3,
    llvm::ArrayRef<NodeRecord> records1, llvm::ArrayRef<NodeRecord> records2,
    llvm::ArrayRef<NodeRecord> records3,
    llvm::function_ref<mlir::Location(const onnx::NodeProto &, size_t)> nodeLoc,
    mlir::Location loc, const BatchDependenceSink &sink);

} // namespace dlc

#endif
