//===- BatchSplit.h - a static batch as sub-batches ---------------*- C++ -*-===//
//
// A model whose inputs all have the same static first dimension B (the
// batch) can run as K sub-batches of B/K samples, on K threads at once, when
// its samples do not interact. The import's part: the model with that
// dimension made symbolic, so that the dynamic-batch import
// (frontend/DynamicBatch.h) and dlc-check-batch-independence can prove the
// samples apart, and so that it imports again with the batch at B/K.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_FRONTEND_BATCHSPLIT_H
#define DLC_FRONTEND_BATCHSPLIT_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace onnx {
class ModelProto;
} // namespace onnx

namespace dlc {

/// The symbolic name the static batch gets.
inline constexpr llvm::StringLiteral kSplitBatchDim = "dlc_split_batch";

/// Rewrites the constants in which a static export wrote the batch, where
/// that is exact at the batch (a Reshape's leading B, a uniform Expand
/// operand's B; see BatchSplit.cpp), then makes the first dimension of every
/// graph input of `model` the symbolic kSplitBatchDim, and forgets the
/// static sizes that ONNX's shape inference
/// recorded for the other values (graph outputs, value_info): they were
/// derived from the static batch. Returns the batch B; or failure, with the
/// reason in `why` for a scalar input or inputs whose first dimensions
/// differ, and `why` empty where there is nothing to split (no inputs, a
/// symbolic dimension, a batch of 1).
mlir::FailureOr<int64_t> makeBatchSymbolic(onnx::ModelProto &model,
                                           std::string &why);

} // namespace dlc

#endif
