//===- Diagnostics.h - the compiler's errors as values -----------*- C++
//-*-===//
#ifndef DLC_COMPILER_DIAGNOSTICS_H
#define DLC_COMPILER_DIAGNOSTICS_H

#include "mlir/IR/MLIRContext.h"

#include <string>
#include <vector>

namespace dlc {

/// One problem the compiler found, read from the diagnostic's location and
/// text (never parsed back out of a formatted message): the model file, the
/// ONNX node it concerns and its op type (empty when none, e.g. a file that
/// does not load) and the reason, with the diagnostic's notes.
struct CompileError {
  std::string file;
  std::string node;
  std::string op;
  std::string message;
  std::vector<std::string> notes;

  /// "model.onnx: node 'conv1': Conv (opset 13): ... (note)".
  std::string str() const;
};

/// While alive, collects the context's error diagnostics as CompileErrors.
class DiagnosticCollector {
public:
  explicit DiagnosticCollector(mlir::MLIRContext &context);
  ~DiagnosticCollector();
  const std::vector<CompileError> &errors() const { return collected; }
  /// All errors on one line, separated by "; ".
  std::string oneLine() const;

private:
  mlir::MLIRContext &context;
  uint64_t handlerId;
  std::vector<CompileError> collected;
};

} // namespace dlc

#endif
