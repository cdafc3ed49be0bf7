//===- ConstantEvaluator.h - run constant subgraphs at compile time -*- C++
//-*-//
#ifndef DLC_COMPILER_CONSTANTEVALUATOR_H
#define DLC_COMPILER_CONSTANTEVALUATOR_H

#include "mlir/IR/BuiltinOps.h"

#include <string>
#include <vector>

namespace dlc {

/// The import's ConstantEvaluator (frontend/Importer.h): compiles
/// `module`'s `@main` (no arguments, dlc ops) with dlc's CPU pipeline for
/// the host, loads the object into this process with the JIT, runs it on
/// one thread and returns each result's row-major bytes. The values are
/// those the compiled model would compute, by the same code. Fails with a
/// diagnostic at the module's location.
mlir::FailureOr<std::vector<std::string>>
evaluateConstantsOnCpu(mlir::ModuleOp module);

} // namespace dlc

#endif
