//===- RowKernels.h - the ops a row kernel recomputes ------------*- C++
//-*-===//
#ifndef DLC_CODEGEN_GPU_ROWKERNELS_H
#define DLC_CODEGEN_GPU_ROWKERNELS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/ADT/SetVector.h"

#include <optional>

namespace dlc::gpu_rows {

/// The producers a row kernel rooted at `root` (an elementwise op over
/// rows, its innermost loop the row) recomputes in each row: the
/// elementwise ops over the rows' elements or over the rows and the
/// reductions of whole rows it depends on, up to contractions, keeping
/// only those whose every user is in the chain (the others are read from
/// memory: another row kernel's output, say). std::nullopt when the
/// chain has no reduction, or when an op over the rows' elements reads no
/// input along the row (a gather: its length would come from its init
/// alone, which elementwise fusion drops).
std::optional<llvm::SetVector<mlir::Operation *>>
findRowChain(mlir::linalg::GenericOp root);

} // namespace dlc::gpu_rows

#endif
