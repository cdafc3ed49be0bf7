//===- BatchSplit.cpp - a static batch as sub-batches ---------------------===//
#include "frontend/BatchSplit.h"
#include "frontend/GuardedSchemas.h"
#include "frontend/TensorData.h"

#include "onnx/onnx_pb.h"
#include "onnx/shape_inference/implementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <cstring>
#include <unordered_map>

using namespace mlir;

namespace {

/// The graph's constants by value name: initializers and Constant nodes'
/// `value` tensors.
llvm::StringMap<const onnx::TensorProto *>
constantsOf(const onnx::GraphProto &graph) {
  llvm::StringMap<const onnx::TensorProto *> constants;
  for (const auto &init : graph.initializer())
    constants[init.name()] = &init;
  for (const auto &node : graph.node())
    if (node.op_type() == "Constant" && node.output_size() == 1)
      for (const auto &attr : node.attribute())
        if (attr.name() == "value" && attr.has_t())
          constants[node.output(0)] = &attr.t();
  return constants;
}

/// The elements of a rank-1 int64 constant.
bool int64Values(const onnx::TensorProto *t, std::vector<int64_t> &values) {
  std::string bytes, error;
  if (!t || t->data_type() != onnx::TensorProto::INT64 || t->dims_size() != 1 ||
      !dlc::tensorBytes(*t, bytes, error))
    return false;
  values.resize(bytes.size() / sizeof(int64_t));
  if (!values.empty())
    std::memcpy(values.data(), bytes.data(), values.size() * sizeof(int64_t));
  return true;
}

/// Numpy broadcasting of two shapes; false if they do not broadcast.
bool broadcastShapes(std::vector<int64_t> a, std::vector<int64_t> b,
                     std::vector<int64_t> &out) {
  if (a.size() < b.size())
    std::swap(a, b);
  b.insert(b.begin(), a.size() - b.size(), 1);
  out.resize(a.size());
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i] != b[i] && a[i] != 1 && b[i] != 1)
      return false;
    out[i] = a[i] == 1 ? b[i] : a[i];
  }
  return true;
}

/// Adds an initializer named after `node`'s first output and makes it the
/// node's input `index`.
onnx::TensorProto &replaceInput(onnx::GraphProto &graph,
                                onnx::NodeProto &node, int index) {
  onnx::TensorProto &t = *graph.add_initializer();
  t.set_name(node.output(0) + "__dlc_split_" + std::to_string(index));
  node.set_input(index, t.name());
  return t;
}

/// Static exports write the batch B into constants: a Reshape to
/// [B, 128, 4, 32], an initial state of zeros [1, B, 64] that an Expand
/// broadcasts. Rewrites those that can follow the batch and give the same
/// result at B: a Reshape's leading B becomes 0 (copy the input's first
/// dimension, when that is B) or -1 (infer it); a uniform Expand operand
/// gets 1 for B where ONNX's data propagation shows the Expand's target
/// has B there. Each rewritten node gets its own new initializer.
void relaxBatchConstants(onnx::ModelProto &model, int64_t batch) {
  onnx::GraphProto &graph = *model.mutable_graph();
  llvm::StringMap<const onnx::TensorProto *> constants = constantsOf(graph);
  llvm::StringMap<std::vector<int64_t>> shapes; // as inferred at load
  for (const auto *list : {&graph.input(), &graph.value_info()})
    for (const auto &info : *list) {
      if (!info.type().tensor_type().has_shape())
        continue;
      std::vector<int64_t> dims;
      for (const auto &d : info.type().tensor_type().shape().dim())
        dims.push_back(d.has_dim_value() ? d.dim_value() : -1);
      shapes[info.name()] = dims;
    }

  // Expand operands: uniform constants with a dimension of size B.
  std::vector<onnx::NodeProto *> expands;
  for (auto &node : *graph.mutable_node()) {
    if (node.op_type() != "Expand" || node.input_size() != 2)
      continue;
    const onnx::TensorProto *data = constants.lookup(node.input(0));
    if (!data || llvm::none_of(data->dims(),
                               [&](int64_t d) { return d == batch; }))
      continue;
    expands.push_back(&node);
  }
  // The values of shape tensors (the Expand targets), by data propagation
  // on a copy (only models with such operands pay for it).
  std::unordered_map<std::string, onnx::TensorShapeProto> shapeData;
  if (!expands.empty()) {
    onnx::ModelProto copy = model;
    copy.mutable_graph()->clear_value_info();
    try {
      onnx::ShapeInferenceOptions options(false, 0, true);
      dlc::GuardedSchemaRegistry schemas;
      onnx::shape_inference::InferShapes(copy, &schemas, options, &shapeData);
    } catch (const std::exception &) {
      shapeData.clear();
    }
  }
  for (onnx::NodeProto *node : expands) {
    const onnx::TensorProto *data = constants.lookup(node->input(0));
    std::string bytes, error;
    if (!dlc::tensorBytes(*data, bytes, error))
      continue;
    int64_t n = 1;
    for (int64_t d : data->dims())
      n *= d;
    if (n == 0 || bytes.size() % n != 0)
      continue;
    size_t size = bytes.size() / n;
    bool uniform = true;
    for (size_t off = size; uniform && off < bytes.size(); off += size)
      uniform = std::memcmp(bytes.data(), bytes.data() + off, size) == 0;
    std::vector<int64_t> target;
    if (const onnx::TensorProto *t = constants.lookup(node->input(1))) {
      if (!int64Values(t, target))
        continue;
    } else {
      auto it = shapeData.find(node->input(1));
      if (it == shapeData.end())
        continue;
      for (const auto &d : it->second.dim()) {
        if (!d.has_dim_value())
          break;
        target.push_back(d.dim_value());
      }
      if ((int)target.size() != it->second.dim_size())
        continue;
    }
    std::vector<int64_t> dims(data->dims().begin(), data->dims().end());
    std::vector<int64_t> relaxed = dims, before, after;
    for (int64_t &d : relaxed)
      if (d == batch)
        d = 1;
    if (!uniform || !broadcastShapes(dims, target, before) ||
        !broadcastShapes(relaxed, target, after) || before != after)
      continue;
    int64_t m = 1;
    for (int64_t d : relaxed)
      m *= d;
    std::string out;
    for (int64_t i = 0; i < m; ++i)
      out.append(bytes.data(), size);
    onnx::TensorProto &t = replaceInput(graph, *node, 0);
    t.set_data_type(data->data_type());
    for (int64_t d : relaxed)
      t.add_dims(d);
    t.set_raw_data(out);
  }

  for (auto &node : *graph.mutable_node()) {
    if (node.op_type() != "Reshape" || node.input_size() != 2)
      continue;
    bool allowZero = false;
    for (const auto &attr : node.attribute())
      allowZero |= attr.name() == "allowzero" && attr.i() != 0;
    std::vector<int64_t> shape;
    if (allowZero || !int64Values(constants.lookup(node.input(1)), shape) ||
        shape.empty() || shape[0] != batch)
      continue;
    auto in = shapes.find(node.input(0));
    if (in != shapes.end() && !in->second.empty() && in->second[0] == batch)
      shape[0] = 0;
    else if (llvm::is_contained(shape, -1))
      continue;
    else
      shape[0] = -1;
    onnx::TensorProto &t = replaceInput(graph, node, 1);
    t.set_data_type(onnx::TensorProto::INT64);
    t.add_dims((int64_t)shape.size());
    t.set_raw_data(std::string(reinterpret_cast<const char *>(shape.data()),
                               shape.size() * sizeof(int64_t)));
  }
}

} // namespace

FailureOr<int64_t> dlc::makeBatchSymbolic(onnx::ModelProto &model,
                                          std::string &why) {
  onnx::GraphProto &graph = *model.mutable_graph();
  llvm::StringSet<> initNames;
  for (const auto &init : graph.initializer())
    initNames.insert(init.name());
  int64_t batch = 0;
  std::vector<onnx::TensorShapeProto *> batched;
  for (auto &input : *graph.mutable_input()) {
    if (initNames.contains(input.name()))
      continue;
    if (!input.type().has_tensor_type() ||
        !input.type().tensor_type().has_shape()) {
      why = "input '" + input.name() + "' has no tensor shape";
      return failure();
    }
    auto &shape = *input.mutable_type()->mutable_tensor_type()->mutable_shape();
    for (const auto &dim : shape.dim())
      if (!dim.has_dim_value()) {
        why.clear(); // a dynamic model: nothing to split
        return failure();
      }
    if (shape.dim_size() == 0) {
      why = "input '" + input.name() + "' is a scalar";
      return failure();
    }
    int64_t first = shape.dim(0).dim_value();
    if (batch && first != batch) {
      why = "input '" + input.name() + "' starts with " +
            std::to_string(first) + ", another input with " +
            std::to_string(batch);
      return failure();
    }
    batch = first;
    batched.push_back(&shape);
  }
  if (batch <= 1) {
    why.clear(); // no inputs, or a batch of 1: nothing to split
    return failure();
  }
  relaxBatchConstants(model, batch);
  for (onnx::TensorShapeProto *shape : batched)
    shape->mutable_dim(0)->set_dim_param(kSplitBatchDim.str());
  for (auto *list : {graph.mutable_output(), graph.mutable_value_info()})
    for (auto &info : *list)
      if (info.type().has_tensor_type() &&
          info.type().tensor_type().has_shape())
        for (auto &dim : *info.mutable_type()
                              ->mutable_tensor_type()
                              ->mutable_shape()
                              ->mutable_dim())
          dim.clear_value();
  return batch;
}
