//===- PipelineFuzzer.cpp - libFuzzer target: model bytes -> object code --===//
//
// Model bytes -> the whole CPU pipeline (load, import, constant evaluation,
// tiling, fusion, vectorization, bufferization, LLVM) -> an ELF object, as
// `dlc compile --emit=obj --target cpu` does. Models above kMaxBytes are
// skipped so that every execution stays short (the node-test models are far
// below it); the object is built for a fixed CPU (x86-64-v3), so that a run
// takes the same paths on every machine. Any input may be rejected with a
// diagnostic; crashes, sanitizer reports, leaks and timeouts are the
// findings, and so is a success without object code. Built by
// scripts/fuzz.sh.
//
//===----------------------------------------------------------------------===//
#include "compiler/Compiler.h"
#include "tools/fuzz/FuzzInput.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include <cstdint>
#include <cstdlib>

static constexpr size_t kMaxBytes = 64 * 1024;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > kMaxBytes)
    return -1; // not added to the corpus
  const std::string &path = dlc::fuzz::writeInputFile("model.onnx", data, size);

  mlir::DialectRegistry registry;
  dlc::registerCompilerDialects(registry);
  mlir::MLIRContext context(registry);
  context.disableMultithreading();
  // Diagnostics are expected; they are not findings.
  mlir::ScopedDiagnosticHandler quiet(
      &context, [](mlir::Diagnostic &) { return mlir::success(); });
  dlc::CompileOptions options;
  options.mcpu = "x86-64-v3";
  options.mtriple = "x86_64-unknown-linux-gnu";
  dlc::CompiledModel result;
  if (succeeded(dlc::compileModel(context, path, options, dlc::Stage::Obj,
                                  llvm::nulls(), result)) &&
      result.object.empty())
    abort(); // success must mean object code
  return 0;
}
