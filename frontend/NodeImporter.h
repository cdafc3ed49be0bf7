//===- NodeImporter.h - per-node import interface ----------------*- C++ -*-===//
//
// Internal to the frontend: what an op importer sees of the graph being
// imported, and the table of op importers.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_FRONTEND_NODEIMPORTER_H
#define DLC_FRONTEND_NODEIMPORTER_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "frontend/TensorData.h"
#include "onnx/onnx_pb.h"

#include <optional>

namespace dlc {

class NodeContext {
public:
  NodeContext(mlir::OpBuilder &builder, mlir::Location loc,
              const onnx::NodeProto &node, int64_t opset,
              llvm::ArrayRef<mlir::Value> operands,
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

  const onnx::AttributeProto *attr(llvm::StringRef name) const;
  int64_t intAttr(llvm::StringRef name, int64_t dflt) const;
  float floatAttr(llvm::StringRef name, float dflt) const;
  std::string stringAttr(llvm::StringRef name, llvm::StringRef dflt) const;
  std::optional<llvm::SmallVector<int64_t>> intsAttr(llvm::StringRef name) const;

  /// Reports an error at the node, naming its op type; returns failure.
  mlir::InFlightDiagnostic error() const;

private:
  llvm::ArrayRef<mlir::Value> operands;
  llvm::ArrayRef<const onnx::TensorProto *> constantOperands;
};

using NodeImportFn = mlir::FailureOr<llvm::SmallVector<mlir::Value>> (*)(
    NodeContext &);

/// The importer for ai.onnx op `opType`, or null when unsupported.
NodeImportFn lookupNodeImporter(llvm::StringRef opType);

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
