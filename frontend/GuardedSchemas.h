//===- GuardedSchemas.h - ONNX schemas with checked inference --*- C++ -*-===//
//
// ONNX 1.12's shape-inference functions trust some attributes: the one of
// LayerNormalization indexes the input's shape with its `axis` unchecked, the
// one of GatherND with its `batch_dims`, and both die (SIGSEGV) on a value
// out of range; those of the first RNN/GRU/LSTM and Gemm versions and of
// STFT read dimensions of inputs of the wrong rank, as do the convolutions'
// when input and weights differ in rank, and SplitToSequence's
// divides by a constant scalar split (found by fuzzing and by a sweep of
// every op's attributes, input ranks and constant inputs). The registry below
// hands ONNX's inference copies of such schemas whose inference function
// checks those attributes, ranks and constants first; a bad value then
// fails inference of that node only (an InferenceError, which ONNX records
// and goes on), and the importer reports it with the node's name.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_FRONTEND_GUARDEDSCHEMAS_H
#define DLC_FRONTEND_GUARDEDSCHEMAS_H

#include "onnx/defs/schema.h"

#include <map>
#include <memory>
#include <string>

namespace dlc {

/// ONNX's own registry, except for the ops whose inference needs a guard:
/// for those, a copy of the schema with the guard in front of its inference
/// function (made on first use, owned by this registry).
class GuardedSchemaRegistry final : public onnx::ISchemaRegistry {
public:
  const onnx::OpSchema *GetSchema(const std::string &key,
                                  const int maxInclusiveVersion,
                                  const std::string &domain) const override;

private:
  mutable std::map<const onnx::OpSchema *, std::unique_ptr<onnx::OpSchema>>
      guarded;
};

} // namespace dlc

#endif
