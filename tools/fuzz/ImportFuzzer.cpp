//===- ImportFuzzer.cpp - libFuzzer target: model bytes -> dlc IR --------===//
//
// Model bytes -> load (parse, external data, ONNX's checker and shape
// inference) -> import (which verifies its module), as `dlc compile
// --emit=mlir` without the constant evaluator. The bytes are written to a model
// file in a private directory, so external-data locations resolve as they would
// for a real model. Any input may be rejected with a diagnostic; crashes,
// sanitizer reports, leaks and timeouts are the findings. Built by
// scripts/fuzz.sh.
//
//===----------------------------------------------------------------------===//
#include "frontend/Importer.h"
#include "ir/DlcDialect.h"
#include "tools/fuzz/FuzzInput.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string &path = dlc::fuzz::writeInputFile("model.onnx", data, size);

  mlir::DialectRegistry registry;
  registry.insert<dlc::DlcDialect, mlir::func::FuncDialect,
                  mlir::arith::ArithDialect, mlir::tensor::TensorDialect,
                  mlir::scf::SCFDialect>();
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();
  // Diagnostics are expected; they are not findings.
  mlir::ScopedDiagnosticHandler quiet(
      &context, [](mlir::Diagnostic &) { return mlir::success(); });
  // The importer verifies what it built; a module it returns is valid.
  (void)dlc::importOnnxFile(context, path);
  return 0;
}
