//===- ConstantFolding.h - evaluate constant subgraphs at import -*- C++
//-*-===//
//
// Internal to the frontend. A node whose inputs are all known at compile
// time (initializers, Constant nodes, shapes of static tensors, results of
// other such nodes) is evaluated at compile time by dlc's own code: the
// values are cloned with the ops that compute them into a module of their
// own, which a ConstantEvaluator (the driver's: dlc's CPU pipeline, run in
// the JIT) runs. Importers that need a constant operand (Reshape's shape,
// Expand's shape, Resize's sizes) evaluate it on demand; at the end of the
// import every remaining constant subgraph is evaluated in one batch.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_FRONTEND_CONSTANTFOLDING_H
#define DLC_FRONTEND_CONSTANTFOLDING_H

#include "frontend/Importer.h"

#include "mlir/IR/Value.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

namespace dlc {

/// True when `v` is computed by pure dlc ops from dlc constants only (no
/// function argument reaches it): it can be evaluated at compile time. A
/// constant itself is not "computed".
bool isComputedFromConstants(mlir::Value v);

/// The block arguments (graph inputs) that `v` is computed from when it is
/// computed from constants and those arguments only (each once); nullopt
/// otherwise, or when it reads no argument.
std::optional<llvm::SmallVector<mlir::BlockArgument>>
argumentsOfComputation(mlir::Value v);

/// Evaluates `values` (each computed from constants, static shapes) with
/// `evaluate` and replaces all their uses with new dlc.constant ops, inserted
/// before each value's defining op. The old ops stay in place without uses.
/// Adds the constants the values were computed from to `read`. Returns the
/// new constants, or failure after a diagnostic at `loc`.
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
evaluateToConstants(llvm::ArrayRef<mlir::Value> values,
                    const ConstantEvaluator &evaluate, mlir::Location loc,
                    llvm::SmallPtrSetImpl<mlir::Operation *> &read);

/// The values computed from constants in `block` that something else reads
/// (an op that is not computed from constants, or the terminator), in
/// program order. A value that would be much larger than the constants it
/// is computed from (a broadcast) is not returned, but the computed values
/// it reads are.
llvm::SmallVector<mlir::Value> constantFrontier(mlir::Block &block);

/// Erases the ops of `block` that compute from constants only and whose
/// results have no uses (the ops replaced by evaluated constants), calling
/// `beforeErase` on each first.
void eraseDeadComputations(
    mlir::Block &block,
    llvm::function_ref<void(mlir::Operation *)> beforeErase);

} // namespace dlc

#endif
