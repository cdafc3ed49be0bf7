//===- Pipeline.cpp - the graph-to-linalg front shared by all targets -----===//
#include "codegen/common/Passes.h"
#include "passes/Passes.h"

#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

/// Graph level: dlc ops to linalg on tensors, fused elementwise.
/// dlc-check-batch-independence runs before canonicalization, which would
/// fold the index of a unit batch loop to 0.
static const char *kToLinalg = "dlc-check-batch-independence,canonicalize,cse,"
                               "dlc-bounded-arguments,"
                               "resolve-ranked-shaped-type-result-dims,"
                               "canonicalize,"
                               "dlc-bounded-results,canonicalize,cse,"
                               "func.func(dlc-zero-size-tensors),"
                               "canonicalize,cse,"
                               "func.func(dlc-fuse-elementwise),"
                               "canonicalize,cse,"
                               "func.func(dlc-resolve-carried-dims)";

void dlc::buildGraphToLinalgPipeline(OpPassManager &pm, bool indexChecks) {
  std::string pipeline = std::string("dlc-lower-to-linalg{index-checks=") +
                         (indexChecks ? "true" : "false") + "}," + kToLinalg;
  if (failed(parsePassPipeline(pipeline, pm, llvm::errs())))
    llvm::report_fatal_error("dlc: invalid built-in linalg pipeline");
}
