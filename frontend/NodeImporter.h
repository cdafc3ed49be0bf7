//===- NodeImporter.h - per-node import interface ----------------*- C++ -*-===//
//
// Internal to the frontend: what an op importer sees of the graph being
// imported, and the table of op importers.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_FRONTEND_NODEIMPORTER_H
#define DLC_FRONTEND_NODEIMPORTER_H

#include "frontend/TensorData.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "onnx/onnx_pb.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <functional>
#include <optional>

namespace onnx {
class OpSchema;
} // namespace onnx

namespace dlc {

class SymbolicDims;

class NodeContext {
public:
  NodeContext(mlir::OpBuilder &builder, mlir::Location loc,
              const onnx::NodeProto &node, int64_t opset,
              llvm::MutableArrayRef<mlir::Value> operands,
              llvm::ArrayRef<const onnx::TensorProto *> constantOperands)
      : builder(builder), loc(loc), node(node), opset(opset),
        operands(operands), constantOperands(constantOperands) {}

  mlir::OpBuilder &builder;
  mlir::Location loc;
  const onnx::NodeProto &node;
  int64_t opset;

  /// Operand i, or a null Value when absent (optional, empty name).
  mlir::Value operand(size_t i) const {
    return i < operands.size() ? operands[i] : mlir::Value();
  }
  size_t numOperands() const { return operands.size(); }
  /// The constant proto behind operand i (an initializer or Constant), if any.
  const onnx::TensorProto *constantOperand(size_t i) const {
    return i < constantOperands.size() ? constantOperands[i] : nullptr;
  }
  /// Number of node outputs that are used (non-empty names).
  size_t numUsedOutputs() const;

  /// ONNX element types of graph values where known (graph inputs,
  /// initializers, ONNX's inferred value_info): signedness is not in MLIR's
  /// signless integers.
  const llvm::StringMap<int> *onnxTypes = nullptr;
  /// Which dynamic dimensions of the graph's values are equal, when the
  /// importer tracks them (frontend/SymbolicDims.h).
  const SymbolicDims *dims = nullptr;
  /// True when operand i is an ONNX unsigned integer (UINT8 ... UINT64).
  bool isUnsigned(size_t i) const;

  /// Attribute `name` of the node, or null. attr() and its typed forms
  /// record `name` in `readAttributes`: reading an attribute is the
  /// importer's promise that it honours the attribute's value (refusing
  /// values it does not implement); the importer refuses nodes with an
  /// attribute no importer read unless it holds its schema default
  /// (frontend/AttributeCheck.h).
  const onnx::AttributeProto *attr(llvm::StringRef name) const;
  /// The value of attribute `name`; when absent, its default from the op's
  /// ONNX schema at `opset` where the schema has one (`dflt` must agree:
  /// asserted), else `dflt`.
  int64_t intAttr(llvm::StringRef name, int64_t dflt) const;
  float floatAttr(llvm::StringRef name, float dflt) const;
  std::string stringAttr(llvm::StringRef name, llvm::StringRef dflt) const;
  std::optional<llvm::SmallVector<int64_t>> intsAttr(llvm::StringRef name) const;

  /// Set by the importer when compile-time evaluation is available:
  /// evaluates a value computed from constants only (see
  /// frontend/ConstantFolding.h) and returns the dlc.constant that replaced
  /// it, or null after a diagnostic.
  std::function<mlir::Value(mlir::Value)> evaluate;
  /// Set by the importer when graph inputs have known values (`dlc run`'s
  /// data, ImportOptions::knownInputs): a copy of the computation of `v`
  /// (from constants and such inputs) that reads those inputs' values as
  /// constants, for a node that needs `v` at compile time; the original
  /// stays for other uses. Null when it cannot.
  std::function<mlir::Value(mlir::Value)> specialize;
  /// Operand i, evaluated to a constant first when it is computed from
  /// constants only (an Expand shape computed by Where over constants).
  /// With `specializeKnown` (for operands that must be constants), also
  /// when it is computed from inputs with known values (see `specialize`):
  /// the node then reads the values of those inputs.
  mlir::Value constantOperandValue(size_t i,
                                   bool specializeKnown = false) const;

  /// Integer values of operand i when it is a compile-time constant (an
  /// initializer, a Constant node, a folded or evaluated expression or a
  /// known input).
  std::optional<llvm::SmallVector<int64_t>> constantInts(size_t i) const;
  /// Float value of a constant scalar (or one-element) operand i.
  std::optional<double> constantScalar(size_t i) const;

  /// Marks attribute `name` as honoured although the importer does not need
  /// its value (the caller says why).
  void acknowledgeAttr(llvm::StringRef name) const { (void)attr(name); }

  /// The default of attribute `name` in the op's schema at `opset`, when it
  /// has one of `type`.
  const onnx::AttributeProto *
  schemaDefault(llvm::StringRef name,
                onnx::AttributeProto::AttributeType type) const;

  /// Where attr() records the attributes read (null: not recorded, for
  /// nodes that importers make themselves).
  llvm::StringSet<> *readAttributes = nullptr;

  /// Reports an error at the node, naming its op type; returns failure.
  mlir::InFlightDiagnostic error() const;

private:
  mutable bool schemaLooked = false;
  mutable const onnx::OpSchema *schema = nullptr;
  llvm::MutableArrayRef<mlir::Value> operands;
  llvm::ArrayRef<const onnx::TensorProto *> constantOperands;
};

using NodeResults = mlir::FailureOr<llvm::SmallVector<mlir::Value>>;
using NodeImportFn = NodeResults (*)(NodeContext &);
using NodeImporterTable = llvm::StringMap<NodeImportFn>;

/// The importer for ai.onnx op `opType`, or null when unsupported.
NodeImportFn lookupNodeImporter(llvm::StringRef opType);
/// The importer for `node` by its domain and op type (ai.onnx, and the
/// optimizers of ai.onnx.preview.training), or null when unsupported.
NodeImportFn lookupNodeImporter(const onnx::NodeProto &node);

/// Op families add their importers to the table.
void addElementwiseImporters(NodeImporterTable &table);
void addTensorImporters(NodeImporterTable &table);
void addLossImporters(NodeImporterTable &table);
void addCompositeImporters(NodeImporterTable &table);
void addResizeImporters(NodeImporterTable &table);
void addConvTransposeImporters(NodeImporterTable &table);
void addRecurrentImporters(NodeImporterTable &table);
void addQuantizationImporters(NodeImporterTable &table);
void addTrainingImporters(NodeImporterTable &table);
void addScatterImporters(NodeImporterTable &table);
void addSignalImporters(NodeImporterTable &table);
void addReverseSequenceImporter(NodeImporterTable &table);
void addGridSampleImporter(NodeImporterTable &table);
void addDataDependentImporters(NodeImporterTable &table);

//===----------------------------------------------------------------------===//
// Helpers shared by the op importers
//===----------------------------------------------------------------------===//

inline mlir::RankedTensorType typeOf(mlir::Value v) {
  return llvm::cast<mlir::RankedTensorType>(v.getType());
}

/// Creates `op` from `state`, folding it when its operands are constants.
NodeResults finishOp(NodeContext &nc, mlir::OperationState &state);

/// Builds `OpTy` with its inferred result type; when inference fails (it has
/// reported why at the node) the node fails. Folds constant expressions.
/// A null operand (a builder call before it failed and reported why) fails
/// the build too, so that chains of builder calls stop at the first failure.
template <typename OpTy>
NodeResults buildInferred(NodeContext &nc, mlir::ValueRange operands,
                          llvm::ArrayRef<mlir::NamedAttribute> attrs = {}) {
  if (llvm::is_contained(operands, mlir::Value()))
    return mlir::failure();
  llvm::SmallVector<mlir::Type> types;
  mlir::OperationState state(nc.loc, OpTy::getOperationName());
  state.addOperands(operands);
  state.addAttributes(attrs);
  mlir::MLIRContext *ctx = nc.builder.getContext();
  mlir::DictionaryAttr dict = state.attributes.getDictionary(ctx);
  typename OpTy::Properties props;
  OpTy::populateDefaultProperties(state.name, props);
  if (mlir::failed(OpTy::setPropertiesFromAttr(
          props, dict, [&] { return mlir::emitError(nc.loc); })) ||
      mlir::failed(OpTy::inferReturnTypes(ctx, nc.loc, operands, dict,
                                          mlir::OpaqueProperties(&props),
                                          state.regions, types)))
    return mlir::failure();
  state.addTypes(types);
  return finishOp(nc, state);
}

/// Builds `OpTy` with an explicit result type, folding constants.
template <typename OpTy>
NodeResults buildTyped(NodeContext &nc, mlir::Type resultType,
                       mlir::ValueRange operands,
                       llvm::ArrayRef<mlir::NamedAttribute> attrs = {}) {
  if (!resultType || llvm::is_contained(operands, mlir::Value()))
    return mlir::failure();
  mlir::OperationState state(nc.loc, OpTy::getOperationName());
  state.addOperands(operands);
  state.addAttributes(attrs);
  state.addTypes(resultType);
  return finishOp(nc, state);
}

/// Imports `opType` (an ai.onnx op of the table, with its opset-13
/// signature) as a node with `operands` and `attrs` at `loc` would be:
/// decompositions build on the ops' own importers. `evaluate` is the
/// constant evaluation hook (NodeContext::evaluate), possibly empty.
NodeResults importWith(mlir::OpBuilder &builder, mlir::Location loc,
                       const std::function<mlir::Value(mlir::Value)> &evaluate,
                       llvm::StringRef opType,
                       llvm::ArrayRef<mlir::Value> operands,
                       llvm::ArrayRef<onnx::AttributeProto> attrs = {},
                       size_t numOutputs = 1);
/// importWith at `nc`'s node.
inline NodeResults importAs(NodeContext &nc, llvm::StringRef opType,
                            llvm::ArrayRef<mlir::Value> operands,
                            llvm::ArrayRef<onnx::AttributeProto> attrs = {},
                            size_t numOutputs = 1) {
  return importWith(nc.builder, nc.loc, nc.evaluate, opType, operands, attrs,
                    numOutputs);
}
/// An INT attribute `name` = `value`, for importWith.
onnx::AttributeProto intAttribute(llvm::StringRef name, int64_t value);
/// An INTS attribute `name` = `values`, for importWith.
onnx::AttributeProto intsAttribute(llvm::StringRef name,
                                   llvm::ArrayRef<int64_t> values);
/// An int64 constant of `shape` holding `values`.
mlir::Value int64Constant(mlir::OpBuilder &b, mlir::Location loc,
                          llvm::ArrayRef<int64_t> shape,
                          llvm::ArrayRef<int64_t> values);

/// Builds ONNX-level ops at a node through the op table (importAs). Each
/// returns null when an operand is null or the import failed (after its
/// diagnostic), so a chain of them is checked once at its end.
struct OnnxOps {
  NodeContext &nc;
  mlir::Value op(llvm::StringRef type, llvm::ArrayRef<mlir::Value> operands,
                 llvm::ArrayRef<onnx::AttributeProto> attrs = {});
  /// An int64 constant of `shape` holding `values`.
  mlir::Value i64(llvm::ArrayRef<int64_t> shape,
                  llvm::ArrayRef<int64_t> values);
};

/// The first result of a builder call; null when it failed.
inline mlir::Value one(NodeResults r) {
  return mlir::succeeded(r) ? (*r)[0] : mlir::Value();
}
/// A rank-0 constant of `et` (float or integer) holding `v`.
mlir::Value scalarConstant(NodeContext &nc, mlir::Type et, double v);
/// dlc.reduce of `kind` ("sum", "mean", "max", ...) over `axes`.
mlir::Value reduce(NodeContext &nc, mlir::Value v, llvm::StringRef kind,
                   llvm::ArrayRef<int64_t> axes, bool keepdims = true);
/// `v` converted to element type `et` (same shape); ONNX unsignedness of
/// the source/result picks the conversion.
mlir::Value castValue(NodeContext &nc, mlir::Value v, mlir::Type et,
                      bool unsignedSource = false, bool unsignedResult = false);

mlir::LogicalResult requireOperands(NodeContext &nc, size_t min);
mlir::LogicalResult requireFloat(NodeContext &nc, size_t numOperands);
/// Resolves a possibly negative axis against `rank` (an error for one out
/// of range, and for any axis of a rank-0 input).
mlir::FailureOr<int64_t> normalizeAxis(NodeContext &nc, int64_t axis,
                                       int64_t rank);
/// Each of `axes` resolved against `rank` (errors for one out of range or
/// named twice), sorted.
mlir::FailureOr<llvm::SmallVector<int64_t>>
normalizeAxes(NodeContext &nc, llvm::ArrayRef<int64_t> axes, int64_t rank);
/// `indices` (an integer tensor) with their range checked: each must lie in
/// [-n, n), n the element of `bounds` for its position along the indices'
/// last dimension (or `bounds`' one element for every index): constant
/// indices (or ones computed from constants) within static bounds are
/// returned as they are, others through dlc.check_indices, an error of the
/// compile when constant and a report of the run otherwise (CPU target).
/// `runTimeBounds` (a 1-D int64 tensor) stands for `bounds` when some of
/// them are known at run time only (dynamic in `bounds`). Null when
/// `indices` is.
mlir::Value checkIndices(NodeContext &nc, mlir::Value indices,
                         llvm::ArrayRef<int64_t> bounds,
                         mlir::Value runTimeBounds = {});
/// A reshape to `shape`. Its dynamic dimensions are sized by `sizes`, in
/// order; without them, the k-th dynamic dimension of the result is the
/// k-th of the input (unit dimensions added or removed).
NodeResults reshapeTo(NodeContext &nc, mlir::Value input,
                      llvm::ArrayRef<int64_t> shape,
                      mlir::ValueRange sizes = {});
/// The sizes of the dynamic dimensions among [begin, end) of `v` (one
/// tensor.dim each), in order: the dynamic sizes of a tensor of that shape.
llvm::SmallVector<mlir::Value> dynamicSizesOf(NodeContext &nc, mlir::Value v,
                                              int64_t begin, int64_t end);
/// The number of elements of `v` along dimensions [begin, end) as an index
/// value (tensor.dim of the dynamic ones).
mlir::Value numElementsOf(NodeContext &nc, mlir::Value v, int64_t begin,
                          int64_t end);

/// Reads an integer tensor proto (INT64 or INT32) into `values`.
bool readIntTensor(const onnx::TensorProto &tensor,
                   llvm::SmallVectorImpl<int64_t> &values);

/// Converts a tensor proto to an elements attribute; large tensors become
/// dense resources. Returns null and sets `error` on failure.
mlir::ElementsAttr convertTensor(mlir::MLIRContext *ctx,
                                 const onnx::TensorProto &tensor,
                                 std::string &error);

/// MLIR element type for an ONNX TensorProto data type; null if unsupported.
mlir::Type convertElementType(mlir::MLIRContext *ctx, int onnxType);

} // namespace dlc

#endif
