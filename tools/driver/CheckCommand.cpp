//===- CheckCommand.cpp - dlc check
//-----------------------------------------===//
#include "analysis/Analyze.h"
#include "codegen/Library.h"
#include "codegen/ModelAbi.h"
#include "compiler/Compiler.h"
#include "compiler/Diagnostics.h"
#include "compiler/Executor.h"
#include "dlc/dlc_model_abi.h"
#include "dlc/dlc_runtime_text.h"
#include "tools/driver/Budget.h"
#include "tools/driver/Command.h"
#include "tools/driver/TensorIO.h"

#include "onnx/common/version.h"
#include "onnx/onnx_pb.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <thread>
#include <unistd.h>

using namespace llvm;

namespace dlc::driver {

/// Pre-flight: every node dlc cannot compile, at once; exit 0 only when the
/// whole model is supported.
int runCheck(const Args &args) {
  dlc::CompileOptions opts;
  if (!parseDims(args, opts))
    return kExitFailure;
  opts.keepGoing = true;
  dlc::BudgetLimits budget;
  if (!parseBudget(args, budget))
    return kExitFailure;
  dlc::CompileWatch watch(args.model, budget);
  opts.onPhase = [&](StringRef phase) { watch.setPhase(phase); };
  dlc::CompiledModel result;
  std::unique_ptr<mlir::MLIRContext> owned = dlc::createCompilerContext();
  mlir::MLIRContext &context = *owned;
  dlc::DiagnosticCollector diags(context);
  bool ok = succeeded(dlc::compileModel(context, args.model, opts,
                                        dlc::Stage::Linalg, nulls(), result));
  if (ok) {
    outs() << args.model << ": supported: every node imports and lowers\n";
    return kExitOk;
  }
  for (const dlc::CompileError &e : diags.errors())
    outs() << "  " << e.str() << "\n";
  outs() << args.model << ": not supported (the problems above)\n";
  return kExitCannotCompile;
}

} // namespace dlc::driver
