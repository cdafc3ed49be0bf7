//===- GraphImporter.h - one ONNX graph -> dlc ops ---------------*- C++
//-*-===//
//
// Internal to the frontend: the importer of a graph, shared by the files
// that import its node kinds (Importer.cpp: tensors through the op table;
// SequenceImport.cpp: sequences as compile-time lists; ControlFlowImport.cpp:
// If, Loop and Scan, whose subgraphs are imported in place).
//
//===----------------------------------------------------------------------===//
#ifndef DLC_FRONTEND_GRAPHIMPORTER_H
#define DLC_FRONTEND_GRAPHIMPORTER_H

#include "frontend/DynamicBatch.h"
#include "frontend/Importer.h"
#include "frontend/NodeImporter.h"
#include "frontend/SymbolicDims.h"
#include "ir/DlcOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include "onnx/onnx_pb.h"

#include <list>
#include <memory>
#include <string>
#include <vector>

namespace dlc {

class GraphImporter {
public:
  GraphImporter(mlir::MLIRContext &ctx, llvm::StringRef file, int64_t opset,
                const ImportOptions &options, int64_t batchSize = 1)
      : ctx(ctx), builder(&ctx), file(file), opset(opset), options(options),
        fileLoc(mlir::FileLineColLoc::get(&ctx, file, 0, 0)),
        batchSize(batchSize) {}

  mlir::OwningOpRef<mlir::ModuleOp> import(const onnx::GraphProto &graph);

  /// Node outputs that import folded to constants (small dense values).
  llvm::StringMap<mlir::DenseElementsAttr> folded;
  /// The graph outputs' types.
  llvm::SmallVector<mlir::RankedTensorType> outputTypes;
  /// Per node, what its import made (see NodeRecord).
  std::vector<NodeRecord> records;
  BatchPlan plan;

  /// Marks each node output with the axis along which it grows from batch 1
  /// (this import) to batch 2 (`second`), as a dlc.batch_axis hint; reports
  /// outputs that do not grow along one axis or fold to a constant at one
  /// batch size only.
  mlir::LogicalResult addBatchHints(const onnx::GraphProto &graph,
                                    GraphImporter &second);

  mlir::Location nodeLoc(const onnx::NodeProto &node, size_t index) {
    std::string name =
        scopePrefix + (node.name().empty()
                           ? node.op_type() + "_" + std::to_string(index)
                           : node.name());
    // The op type rides along as the metadata of a fused location around
    // the file's (not as a name: passes collect a kernel's ONNX nodes from
    // its NameLocs), so that errors can name it as a value.
    mlir::Location where = mlir::FusedLoc::get(
        &ctx, {fileLoc}, mlir::StringAttr::get(&ctx, node.op_type()));
    return mlir::NameLoc::get(mlir::StringAttr::get(&ctx, name), where);
  }

private:
  mlir::FailureOr<mlir::RankedTensorType>
  valueType(const onnx::ValueInfoProto &info);
  void recordNode(const onnx::NodeProto &node, NodeRecord &record,
                  mlir::Block *block, mlir::Block::iterator first);
  bool checkSupported(const onnx::GraphProto &graph);
  mlir::LogicalResult importConstant(const onnx::TensorProto &tensor,
                                     mlir::Location loc);
  /// Imports `node` (importNodeOps) and checks that its importer honoured
  /// each of its attributes (frontend/AttributeCheck.h).
  mlir::LogicalResult importNode(const onnx::NodeProto &node, size_t index);
  mlir::LogicalResult importNodeOps(const onnx::NodeProto &node, size_t index);
  mlir::Value evaluateValue(mlir::Value v, mlir::Location loc);
  /// When `v` is computed from constants and graph inputs with known values
  /// only: a copy of its computation that reads those values as constants
  /// (NodeContext::specialize). Null otherwise.
  mlir::Value specializeKnownInputs(mlir::Value v);
  mlir::LogicalResult evaluateRemainingConstants(mlir::Block &block);
  void replaceValue(mlir::Value old, mlir::Value replacement);
  /// Makes `name` (a node output) stand for `v`.
  void bindOutput(const std::string &name, mlir::Value v);
  /// Binds the node's used outputs to `values`, in order.
  void bindOutputs(const onnx::NodeProto &node,
                   llvm::ArrayRef<mlir::Value> values) {
    for (auto [name, v] : llvm::zip(node.output(), values))
      if (!name.empty())
        bindOutput(name, v);
  }

  // Sequences and control flow, imported with access to the graph
  // (SequenceImport.cpp, ControlFlowImport.cpp).
  static bool isGraphLevelOp(llvm::StringRef opType);
  mlir::LogicalResult importSequenceNode(const onnx::NodeProto &node,
                                         mlir::Location loc);
  mlir::LogicalResult importControlFlowNode(const onnx::NodeProto &node,
                                            mlir::Location loc);
  mlir::LogicalResult importIf(NodeContext &nc);
  /// Gradient (ai.onnx.preview.training) of the main graph's node `index`
  /// (GradientImport.cpp).
  mlir::LogicalResult importGradient(const onnx::NodeProto &node, size_t index,
                                     mlir::Location loc);
  mlir::LogicalResult importLoop(NodeContext &nc);
  /// A Loop whose number of iterations is known only at run time, as an
  /// scf.while over its carried values, from iteration `first` (the
  /// iterations before it unrolled) with condition `cond` and values
  /// `carried`; `tripCount` is null when there is none.
  mlir::LogicalResult importLoopAsWhile(NodeContext &nc,
                                        const onnx::GraphProto &body,
                                        mlir::Value tripCount, mlir::Value cond,
                                        llvm::ArrayRef<mlir::Value> carried,
                                        int64_t first, size_t numScans);
  mlir::LogicalResult importScan(NodeContext &nc);
  /// Imports `body` in place with its inputs bound to `inputs` (outer
  /// values stay visible; the body's names shadow them while it is
  /// imported), its nodes located under `scope`. Returns its outputs.
  mlir::FailureOr<llvm::SmallVector<mlir::Value>>
  importSubgraph(const onnx::GraphProto &body,
                 llvm::ArrayRef<mlir::Value> inputs, llvm::StringRef scope,
                 mlir::Location loc);
  /// Builds `opType` through its op importer, as a node with `operands`
  /// and `attrs` at `loc` of opset 13 would be (Split, Concat, Gather, ...).
  NodeResults importSynthetic(llvm::StringRef opType,
                              llvm::ArrayRef<mlir::Value> operands,
                              llvm::ArrayRef<onnx::AttributeProto> attrs,
                              size_t numOutputs, mlir::Location loc);
  /// Whether `a` and `b` have one element type and shape: equal static
  /// sizes, dynamic sizes known equal (symbolicDims).
  bool sameShape(mlir::Value a, mlir::Value b) const;
  /// Where(cond, a, b) with `cond` made a scalar.
  mlir::Value selectValues(mlir::Value cond, mlir::Value a, mlir::Value b,
                           mlir::Location loc);
  /// `parts` stacked along a new axis `axis`.
  mlir::Value stackValues(llvm::ArrayRef<mlir::Value> parts, int64_t axis,
                          mlir::Location loc);
  /// `v` evaluated at compile time when it is computed from constants.
  mlir::Value evaluatedIfConstant(mlir::Value v, mlir::Location loc);
  /// A context for a graph-level node whose tensor operands are
  /// `operands` (null for sequences), for its attributes, constant
  /// operands (evaluated on demand) and errors.
  std::unique_ptr<NodeContext>
  graphLevelContext(const onnx::NodeProto &node, mlir::Location loc,
                    llvm::SmallVectorImpl<mlir::Value> &operands);

  mlir::MLIRContext &ctx;
  mlir::OpBuilder builder;
  std::string file;
  int64_t opset;
  const ImportOptions &options;
  mlir::Location fileLoc;
  llvm::StringMap<mlir::Value> values;
  /// Which dynamic dimensions of the imported values are equal.
  SymbolicDims symbolicDims;
  /// Known-input protos of graph-level nodes' contexts (graphLevelContext),
  /// kept while the import runs.
  std::list<llvm::SmallVector<const onnx::TensorProto *>> graphLevelProtos;
  /// The graph being imported (its nodes, for Gradient).
  const onnx::GraphProto *mainGraph = nullptr;
  /// Graph inputs with known values (see specializeKnownInputs).
  llvm::DenseMap<mlir::Value, const onnx::TensorProto *> knownArguments;
  llvm::StringMap<const onnx::TensorProto *> constants;
  std::vector<std::unique_ptr<onnx::TensorProto>> ownedTensors;
  llvm::StringMap<const onnx::ValueInfoProto *> inferredTypes;
  llvm::StringMap<int> onnxElemTypes;
  /// Constants that values evaluated at compile time were computed from.
  llvm::SmallPtrSet<mlir::Operation *, 16> evaluatedFrom;
  /// Sequences whose elements are known at compile time.
  llvm::StringMap<llvm::SmallVector<mlir::Value>> sequences;
  /// Prefix of node locations inside subgraphs ("Loop_3/body/").
  std::string scopePrefix;
  /// Nodes imported so far (Loop bodies are imported once per iteration).
  size_t importedNodes = 0;
  /// The attributes read by the importer of the node being imported
  /// (importNode; subgraph nodes have their own).
  llvm::StringSet<> *readAttributes = nullptr;
  unsigned unsupportedNodes = 0;
  int64_t batchSize;

  /// keepGoing mode: zero constants of ONNX's inferred types stand in for a
  /// failed node's outputs, so that later nodes are still checked.
  void addPlaceholders(const onnx::NodeProto &node) {
    for (const std::string &name : node.output()) {
      auto it = inferredTypes.find(name);
      if (name.empty() || it == inferredTypes.end())
        continue;
      const auto &tt = it->second->type().tensor_type();
      mlir::Type et = convertElementType(&ctx, tt.elem_type());
      if (!et || !tt.has_shape())
        continue;
      llvm::SmallVector<int64_t> shape;
      bool isStatic = true;
      for (const auto &dim : tt.shape().dim()) {
        isStatic &= dim.has_dim_value();
        shape.push_back(dim.has_dim_value() ? dim.dim_value() : 1);
      }
      if (!isStatic)
        continue;
      auto type = mlir::RankedTensorType::get(shape, et);
      values[name] = ConstantOp::create(
          builder, fileLoc,
          mlir::DenseElementsAttr::get(type, builder.getZeroAttr(et)));
    }
  }
};

} // namespace dlc

#endif
