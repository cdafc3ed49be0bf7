//===- ModelLoader.cpp - read and check ONNX ModelProtos ------------------===//
//
// The only place that calls into ONNX's C++ library, which reports errors by
// throwing: every exception is caught here.
//
//===----------------------------------------------------------------------===//
#include "frontend/ModelLoader.h"
#include "frontend/GuardedSchemas.h"
#include "frontend/OpVersions.h"

#include "onnx/checker.h"
#include "onnx/defs/parser.h"
#include "onnx/defs/schema.h"
#include "onnx/shape_inference/implementation.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace fs = std::filesystem;

/// Newest versions that Debian's ONNX 1.12 knows.
static constexpr int64_t kMaxCheckedOpset = 17;
static constexpr int64_t kMaxCheckedIrVersion = 8;

int64_t dlc::getOnnxOpset(const onnx::ModelProto &model) {
  for (const auto &opset : model.opset_import())
    if (opset.domain().empty() || opset.domain() == "ai.onnx")
      return opset.version();
  return 1;
}

/// ONNX 1.12's checker expands the function bodies of ops such as
/// LayerNormalization and dies (SIGSEGV) on a node with an attribute their
/// schema does not define (found by fuzzing): such nodes are refused
/// before it runs, in every graph of the model.
static bool checkFunctionOpAttributes(const onnx::GraphProto &graph,
                                      int64_t opset, std::string &error) {
  for (const onnx::NodeProto &node : graph.node()) {
    for (const onnx::AttributeProto &attr : node.attribute()) {
      if (attr.has_g() && !checkFunctionOpAttributes(attr.g(), opset, error))
        return false;
      for (const onnx::GraphProto &g : attr.graphs())
        if (!checkFunctionOpAttributes(g, opset, error))
          return false;
    }
    if (!node.domain().empty() && node.domain() != "ai.onnx")
      continue;
    const onnx::OpSchema *schema =
        onnx::OpSchemaRegistry::Schema(node.op_type(), (int)opset, "");
    if (!schema ||
        !(schema->HasFunction() || schema->HasContextDependentFunction()))
      continue;
    for (const onnx::AttributeProto &attr : node.attribute())
      if (!schema->attributes().count(attr.name())) {
        error = "node '" + (node.name().empty() ? "<unnamed>" : node.name()) +
                "' (" + node.op_type() + ", opset " + std::to_string(opset) +
                "): attribute '" + attr.name() +
                "' is not defined by the op's schema";
        return false;
      }
  }
  return true;
}

/// ONNX 1.12's shape inference of the convolutions reads past its arrays
/// (SIGSEGV) when the data and the weights differ in rank (found by
/// fuzzing a ConvInteger): where both ranks are declared (graph inputs,
/// initializers, value_info), such nodes are refused before it runs; so are
/// windowed ops with strides or dilations <= 0, which it divides by.
static bool checkConvRanks(const onnx::GraphProto &graph, std::string &error) {
  std::map<std::string, int> ranks;
  auto declare = [&](const onnx::ValueInfoProto &v) {
    if (v.type().has_tensor_type() && v.type().tensor_type().has_shape())
      ranks[v.name()] = v.type().tensor_type().shape().dim_size();
  };
  for (const auto &v : graph.input())
    declare(v);
  for (const auto &v : graph.value_info())
    declare(v);
  for (const auto &t : graph.initializer())
    ranks[t.name()] = t.dims_size();
  for (const onnx::NodeProto &node : graph.node()) {
    for (const onnx::AttributeProto &attr : node.attribute()) {
      if (attr.has_g() && !checkConvRanks(attr.g(), error))
        return false;
      for (const onnx::GraphProto &g : attr.graphs())
        if (!checkConvRanks(g, error))
          return false;
    }
    if (!node.domain().empty() && node.domain() != "ai.onnx")
      continue;
    const std::string &op = node.op_type();
    // ... and divides by strides and dilations (SIGFPE at 0).
    static const std::set<std::string> windowed = {
        "Conv",        "ConvInteger", "QLinearConv", "ConvTranspose",
        "AveragePool", "MaxPool",     "LpPool"};
    if (windowed.count(op))
      for (const onnx::AttributeProto &attr : node.attribute())
        if (attr.name() == "strides" || attr.name() == "dilations")
          for (int64_t v : attr.ints())
            if (v <= 0) {
              error = "node '" +
                      (node.name().empty() ? "<unnamed>" : node.name()) +
                      "' (" + op + "): " + attr.name() +
                      " must be positive, got " + std::to_string(v);
              return false;
            }
    int data = 0, weight;
    if (op == "Conv" || op == "ConvInteger" || op == "ConvTranspose")
      weight = 1;
    else if (op == "QLinearConv")
      weight = 3;
    else
      continue;
    if (node.input_size() <= weight)
      continue;
    auto x = ranks.find(node.input(data)), w = ranks.find(node.input(weight));
    if (x == ranks.end() || w == ranks.end() || x->second == w->second)
      continue;
    error = "node '" + (node.name().empty() ? "<unnamed>" : node.name()) +
            "' (" + op + "): the input has rank " + std::to_string(x->second) +
            " and the weights rank " + std::to_string(w->second) +
            "; they must be equal";
    return false;
  }
  return true;
}

static bool readFile(const std::string &path, std::string &data,
                     std::string &error) {
  std::error_code ec;
  if (!fs::exists(path, ec)) {
    error = "no such file";
    return false;
  }
  if (fs::is_directory(path, ec)) {
    error = "is a directory, expected an .onnx file";
    return false;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot open file";
    return false;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  data = ss.str();
  return true;
}

/// Replaces external-data references of `tensor` by its bytes.
static bool loadExternalData(onnx::TensorProto &tensor, const fs::path &baseDir,
                             std::string &error) {
  std::string location;
  uint64_t offset = 0, length = 0;
  bool hasLength = false;
  // A decimal count of bytes; anything else is refused (not thrown).
  auto parseCount = [&](const std::string &key, const std::string &text,
                        uint64_t &value) {
    value = 0;
    bool ok = !text.empty() && text.size() <= 19 &&
              text.find_first_not_of("0123456789") == std::string::npos;
    for (char c : ok ? text : std::string())
      value = value * 10 + static_cast<uint64_t>(c - '0');
    if (!ok)
      error = "tensor '" + tensor.name() + "': external data " + key + " '" +
              text + "' is not a count of bytes";
    return ok;
  };
  for (const auto &entry : tensor.external_data()) {
    if (entry.key() == "location")
      location = entry.value();
    else if (entry.key() == "offset") {
      if (!parseCount("offset", entry.value(), offset))
        return false;
    } else if (entry.key() == "length") {
      if (!parseCount("length", entry.value(), length))
        return false;
      hasLength = true;
    }
  }
  if (location.empty()) {
    error = "tensor '" + tensor.name() + "' has external data without a location";
    return false;
  }
  fs::path rel(location);
  std::error_code ec;
  // The model's directory, absolute (a model named without a directory is
  // in the current one), symbolic links resolved, as is the data's path:
  // neither `..` nor a link may lead out of it.
  fs::path base = fs::weakly_canonical(
      fs::absolute(baseDir.empty() ? fs::path(".") : baseDir, ec), ec);
  fs::path full = fs::weakly_canonical(base / rel, ec);
  auto [baseEnd, fullIt] =
      std::mismatch(base.begin(), base.end(), full.begin(), full.end());
  if (rel.is_absolute() || ec || baseEnd != base.end()) {
    error = "tensor '" + tensor.name() + "': external data location '" +
            location + "' is outside the model's directory";
    return false;
  }
  std::ifstream in(full, std::ios::binary);
  if (!in) {
    error = "tensor '" + tensor.name() + "': cannot open external data file '" +
            full.string() + "'";
    return false;
  }
  in.seekg(0, std::ios::end);
  uint64_t size = in.tellg();
  if (!hasLength)
    length = size >= offset ? size - offset : 0;
  if (offset > size || length > size - offset) {
    error = "tensor '" + tensor.name() + "': external data file '" + location +
            "' is too short (" + std::to_string(size) +
            " bytes; the data is at offset " + std::to_string(offset) +
            (hasLength ? ", " + std::to_string(length) + " bytes long)" : ")");
    return false;
  }
  std::string bytes(length, '\0');
  in.seekg(offset);
  in.read(bytes.data(), length);
  tensor.set_raw_data(std::move(bytes));
  tensor.clear_external_data();
  tensor.set_data_location(onnx::TensorProto::DEFAULT);
  return true;
}

static bool loadAllExternalData(onnx::GraphProto &graph,
                                const fs::path &baseDir, std::string &error) {
  for (auto &tensor : *graph.mutable_initializer())
    if (tensor.data_location() == onnx::TensorProto::EXTERNAL &&
        !loadExternalData(tensor, baseDir, error))
      return false;
  for (auto &node : *graph.mutable_node())
    for (auto &attr : *node.mutable_attribute()) {
      if (attr.has_t() && attr.t().data_location() == onnx::TensorProto::EXTERNAL &&
          !loadExternalData(*attr.mutable_t(), baseDir, error))
        return false;
      if (attr.has_g() && !loadAllExternalData(*attr.mutable_g(), baseDir, error))
        return false;
    }
  return true;
}

bool dlc::loadModel(const std::string &path, onnx::ModelProto &model,
                    std::string &error) {
  std::string data;
  if (!readFile(path, data, error))
    return false;
  try {
    if (fs::path(path).extension() == ".onnxtxt") {
      auto status = onnx::OnnxParser::Parse(model, data.c_str());
      if (!status.IsOK()) {
        error = "not valid ONNX text: " + status.ErrorMessage();
        for (char &c : error)
          if (c == '\n')
            c = ' ';
        return false;
      }
    } else if (data.empty()) {
      error = "empty file, not an ONNX model";
      return false;
    } else if (!model.ParseFromString(data)) {
      error = "not an ONNX model (protobuf parse failed; is the file "
              "truncated or of another format?)";
      return false;
    }
    if (!model.has_graph()) {
      error = "not an ONNX model (no graph)";
      return false;
    }
    if (!loadAllExternalData(*model.mutable_graph(),
                             fs::path(path).parent_path(), error))
      return false;
    int64_t opset = getOnnxOpset(model);
    if (opset < 1 || opset > kNewestKnownOpset) {
      error = "the model imports opset " + std::to_string(opset) +
              " of the default ONNX domain; dlc knows opsets 1 to " +
              std::to_string(kNewestKnownOpset) + " (ONNX 1.22)";
      return false;
    }
    if (opset <= kMaxCheckedOpset && model.ir_version() <= kMaxCheckedIrVersion) {
      if (!checkFunctionOpAttributes(model.graph(), opset, error) ||
          !checkConvRanks(model.graph(), error)) {
        error = "invalid ONNX model: " + error;
        return false;
      }
      onnx::checker::check_model(model);
      GuardedSchemaRegistry schemas;
      onnx::shape_inference::InferShapes(model, &schemas);
    }
  } catch (const std::exception &e) {
    std::string what = e.what();
    while (!what.empty() && (what.back() == '\n' || what.back() == ' '))
      what.pop_back();
    for (char &c : what)
      if (c == '\n')
        c = ' ';
    error = "invalid ONNX model: " + what;
    return false;
  }
  return true;
}
