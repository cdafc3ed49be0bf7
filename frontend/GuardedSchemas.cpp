//===- GuardedSchemas.cpp - ONNX schemas with checked inference -----------===//
#include "frontend/GuardedSchemas.h"

#include "onnx/defs/shape_inference.h"
#include "onnx/defs/tensor_proto_util.h"

#include <optional>

using namespace dlc;

namespace {

/// The rank of input `input` where the node has it and its shape is known.
std::optional<int64_t> knownRank(onnx::InferenceContext &ctx, size_t input) {
  if (ctx.getNumInputs() <= input || !onnx::hasInputShape(ctx, input))
    return std::nullopt;
  return ctx.getInputType(input)->tensor_type().shape().dim_size();
}

/// Fails inference unless the int attribute `name` (default `dflt`) is an
/// axis of input `input` when that input's rank is known.
void requireAxis(onnx::InferenceContext &ctx, const char *name, int64_t dflt,
                 size_t input) {
  std::optional<int64_t> rank = knownRank(ctx, input);
  int64_t axis = onnx::getAttribute(ctx, name, dflt);
  if (rank && (axis < -*rank || axis >= *rank))
    fail_shape_inference("attribute '", name, "' (", axis,
                         ") is out of range for the input of rank ", *rank);
}

/// Fails inference unless input `input`, where its rank is known, has rank
/// `rank`.
void requireRank(onnx::InferenceContext &ctx, size_t input, int64_t rank,
                 const char *what) {
  std::optional<int64_t> actual = knownRank(ctx, input);
  if (actual && *actual != rank)
    fail_shape_inference(what, " must have rank ", rank, ", not ", *actual);
}

/// The first versions' inference of RNN, GRU and LSTM reads X's first two
/// dimensions whatever its rank.
void guardRecurrent(onnx::InferenceContext &ctx) {
  requireRank(ctx, 0, 3, "X");
}

/// Gemm-6's reads two dimensions of A and of B.
void guardGemm(onnx::InferenceContext &ctx) {
  requireRank(ctx, 0, 2, "A");
  requireRank(ctx, 1, 2, "B");
}

/// STFT's reads three dimensions of the signal, one of the window.
void guardSTFT(onnx::InferenceContext &ctx) {
  requireRank(ctx, 0, 3, "the signal");
  requireRank(ctx, 2, 1, "the window");
}

void guardLayerNormalization(onnx::InferenceContext &ctx) {
  requireAxis(ctx, "axis", -1, 0);
}

/// batch_dims counts leading dimensions of both inputs: [0, min(ranks)).
void guardGatherND(onnx::InferenceContext &ctx) {
  int64_t batchDims = onnx::getAttribute(ctx, "batch_dims", 0);
  for (size_t i = 0; i < 2; ++i)
    if (std::optional<int64_t> rank = knownRank(ctx, i);
        rank && (batchDims < 0 || batchDims >= *rank))
      fail_shape_inference("attribute 'batch_dims' (", batchDims,
                           ") is out of range for input ", i, " of rank ",
                           *rank);
}

/// SplitToSequence's divides the axis by a scalar `split` (SIGFPE at 0).
void guardSplitToSequence(onnx::InferenceContext &ctx) {
  if (ctx.getNumInputs() < 2)
    return;
  const onnx::TensorProto *split = ctx.getInputData(1);
  if (!split || split->dims_size() != 0 ||
      split->data_type() != onnx::TensorProto::INT64)
    return;
  std::vector<int64_t> values = onnx::ParseData<int64_t>(split);
  if (values.size() == 1 && values[0] <= 0)
    fail_shape_inference("a scalar split must be positive, got ", values[0]);
}

/// The convolutions' inference indexes the weights' shape by the input's
/// spatial rank: the ranks must agree (the loader checks declared ranks
/// before inference; this covers values whose rank only inference knows).
template <size_t Weight> void guardConv(onnx::InferenceContext &ctx) {
  std::optional<int64_t> x = knownRank(ctx, 0), w = knownRank(ctx, Weight);
  if (x && w && *x != *w)
    fail_shape_inference("the input has rank ", *x, " and the weights rank ",
                         *w, "; they must be equal");
}

using Guard = void (*)(onnx::InferenceContext &);

Guard guardFor(const std::string &op, const std::string &domain) {
  if (!domain.empty() && domain != "ai.onnx")
    return nullptr;
  if (op == "LayerNormalization")
    return guardLayerNormalization;
  if (op == "GatherND")
    return guardGatherND;
  if (op == "RNN" || op == "GRU" || op == "LSTM")
    return guardRecurrent;
  if (op == "Gemm")
    return guardGemm;
  if (op == "STFT")
    return guardSTFT;
  if (op == "SplitToSequence")
    return guardSplitToSequence;
  if (op == "Conv" || op == "ConvInteger" || op == "ConvTranspose")
    return guardConv<1>;
  if (op == "QLinearConv")
    return guardConv<3>;
  return nullptr;
}

} // namespace

const onnx::OpSchema *
GuardedSchemaRegistry::GetSchema(const std::string &key,
                                 const int maxInclusiveVersion,
                                 const std::string &domain) const {
  const onnx::OpSchema *schema = onnx::OpSchemaRegistry::Instance()->GetSchema(
      key, maxInclusiveVersion, domain);
  Guard guard = guardFor(key, domain);
  if (!schema || !guard || !schema->has_type_and_shape_inference_function())
    return schema;
  std::unique_ptr<onnx::OpSchema> &copy = guarded[schema];
  if (!copy) {
    copy = std::make_unique<onnx::OpSchema>(*schema);
    copy->TypeAndShapeInferenceFunction(
        [guard, infer = schema->GetTypeAndShapeInferenceFunction()](
            onnx::InferenceContext &ctx) {
          guard(ctx);
          infer(ctx);
        });
  }
  return copy.get();
}
