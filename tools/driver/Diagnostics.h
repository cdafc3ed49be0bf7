//===- Diagnostics.h - user-facing error messages ----------------*- C++ -*-===//
#ifndef DLC_TOOLS_DRIVER_DIAGNOSTICS_H
#define DLC_TOOLS_DRIVER_DIAGNOSTICS_H

#include "mlir/IR/MLIRContext.h"

#include <string>
#include <vector>

namespace dlc {

/// Collects the context's error diagnostics as readable lines:
/// "model.onnx: node 'conv1': Conv (opset 13): ...".
class DiagnosticCollector {
public:
  explicit DiagnosticCollector(mlir::MLIRContext &context);
  ~DiagnosticCollector();
  const std::vector<std::string> &errors() const { return messages; }
  /// All errors on one line, separated by "; ".
  std::string oneLine() const;

private:
  mlir::MLIRContext &context;
  uint64_t handlerId;
  std::vector<std::string> messages;
};

} // namespace dlc

#endif
