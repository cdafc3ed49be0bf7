//===- Importer.h - ONNX model import ----------------------------*- C++ -*-===//
#ifndef DLC_FRONTEND_IMPORTER_H
#define DLC_FRONTEND_IMPORTER_H

#include "frontend/DynamicBatch.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OwningOpRef.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace onnx {
class ModelProto;
class TensorProto;
} // namespace onnx

namespace dlc {

/// The most bytes one tensor may have (2^48, 256 TiB): larger declared or
/// inferred sizes are refused at import, before anything is sized from
/// them, so that sums and products of sizes stay within 64 bits.
inline constexpr uint64_t kMaxTensorBytes = uint64_t(1) << 48;

/// Why a tensor of `type` cannot be compiled (a negative dimension, an
/// element count or byte size past 64 bits or past kMaxTensorBytes), or
/// none. Dynamic dimensions count as 1.
std::optional<std::string> tensorSizeProblem(mlir::RankedTensorType type);

/// Runs `module`'s `@main`, a function without arguments over dlc ops whose
/// results have static shapes, and returns each result's row-major bytes
/// (booleans one byte each). Reports failure with a diagnostic. The driver
/// provides one that compiles and runs the function with dlc's CPU code.
using ConstantEvaluator =
    std::function<mlir::FailureOr<std::vector<std::string>>(mlir::ModuleOp)>;

/// Reads an ONNX model (binary `.onnx`, or ONNX text syntax when the file
/// ends in `.onnxtxt`), checks it, and imports it as a module holding
/// `func.func @main` in the dlc dialect. Every problem is reported as an MLIR
/// diagnostic naming the file, and the ONNX node, op type and opset where
/// one is at fault; all unsupported nodes are reported together.
struct ImportOptions {
  /// Values of the graph's (non-initializer) inputs, by position, known at
  /// compile time. Where an op needs a constant operand (Reshape's shape) and
  /// gets one of these inputs, the value is used: the compiled model is then
  /// specialized to it. `dlc run` passes its input data here.
  std::vector<const onnx::TensorProto *> knownInputs;
  /// Pre-flight mode (`dlc check`): report every node that cannot be
  /// imported, every symbolic input dimension that cannot be compiled, and
  /// keep going past errors
  /// (failed nodes' outputs get placeholders of ONNX's inferred types).
  bool keepGoing = false;
  /// Numerics debugging (`dlc run --compare cpu --per-node`): after the
  /// graph outputs, every node's tensor outputs are returned too, in node
  /// order, named "NODE_NAME (OP_TYPE): OUTPUT_NAME".
  bool exposeNodeOutputs = false;
  /// Sizes for symbolic input dimensions, by name (`--dim seq=128`). One
  /// other symbolic name may remain: it becomes the dynamic batch (see
  /// frontend/DynamicBatch.h), and the module gets the batch attributes of
  /// ir/DlcDialect.h.
  std::map<std::string, int64_t> dimValues;
  /// Ranges of symbolic input dimensions compiled as such, by name
  /// (`--dim seq=1..512`): the library runs at any size in the range. The
  /// arguments of @main keep them dynamic, with the ranges in their
  /// `dlc.symbolic_dims` attributes (ir/DlcAttrs.h).
  std::map<std::string, DimRange> dimRanges;
  /// Compile-time evaluation of nodes whose inputs are all known (see
  /// frontend/ConstantFolding.h). Without one, only the dlc ops' folders
  /// fold constants (small shape arithmetic, data movement).
  ConstantEvaluator evaluateConstants;
  /// Receives each refusal of the dynamic-batch checks as a value, besides
  /// the error emitted (ir/BatchDependence.h).
  BatchDependenceSink onBatchDependence;
};

mlir::OwningOpRef<mlir::ModuleOp>
importOnnxFile(mlir::MLIRContext &context, llvm::StringRef path,
               const ImportOptions &options = {});

/// Imports a model already loaded (dlc::loadModel) from `path`, which
/// diagnostics name.
mlir::OwningOpRef<mlir::ModuleOp>
importOnnxModel(mlir::MLIRContext &context, llvm::StringRef path,
                const onnx::ModelProto &model,
                const ImportOptions &options = {});

/// Attribute names on @main: per-argument/result `dlc.name` (the ONNX value
/// name, a StringAttr) and `dlc.dtype` (a dlc_dtype code, i32).
inline constexpr llvm::StringLiteral kNameAttr = "dlc.name";
inline constexpr llvm::StringLiteral kDtypeAttr = "dlc.dtype";

} // namespace dlc

#endif
