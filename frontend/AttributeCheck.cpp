//===- AttributeCheck.cpp - every attribute honoured or refused -----------===//

#include "frontend/AttributeCheck.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/raw_ostream.h"

#include "onnx/defs/schema.h"

#include <climits>

using namespace mlir;

const onnx::OpSchema *dlc::onnxSchema(const onnx::NodeProto &node,
                                      int64_t opset) {
  bool onnxDomain = node.domain().empty() || node.domain() == "ai.onnx";
  return onnx::OpSchemaRegistry::Schema(
      node.op_type(), onnxDomain ? (int)opset : INT_MAX, node.domain());
}

std::string dlc::formatAttributeValue(const onnx::AttributeProto &attr) {
  std::string out;
  llvm::raw_string_ostream os(out);
  auto list = [&](const auto &values, auto print) {
    os << "[";
    for (int i = 0; i < values.size(); ++i) {
      if (i == 8) {
        os << ", ... (" << values.size() << " values)";
        break;
      }
      os << (i ? ", " : "");
      print(values.Get(i));
    }
    os << "]";
  };
  auto quoted = [&](const std::string &s) {
    os << "\"";
    os.write_escaped(s.size() > 64 ? s.substr(0, 64) + "..." : s);
    os << "\"";
  };
  switch (attr.type()) {
  case onnx::AttributeProto::INT:
    os << attr.i();
    break;
  case onnx::AttributeProto::FLOAT:
    os << attr.f();
    break;
  case onnx::AttributeProto::STRING:
    quoted(attr.s());
    break;
  case onnx::AttributeProto::INTS:
    list(attr.ints(), [&](int64_t v) { os << v; });
    break;
  case onnx::AttributeProto::FLOATS:
    list(attr.floats(), [&](float v) { os << v; });
    break;
  case onnx::AttributeProto::STRINGS:
    list(attr.strings(), quoted);
    break;
  case onnx::AttributeProto::TENSOR:
    os << "a tensor";
    break;
  case onnx::AttributeProto::SPARSE_TENSOR:
    os << "a sparse tensor";
    break;
  case onnx::AttributeProto::GRAPH:
  case onnx::AttributeProto::GRAPHS:
    os << "a graph";
    break;
  default:
    os << "a value of attribute type " << (int)attr.type();
    break;
  }
  return out;
}

/// True when `value` is `dflt` (the same type and elements).
static bool sameValue(const onnx::AttributeProto &value,
                      const onnx::AttributeProto &dflt) {
  if (value.type() != dflt.type())
    return false;
  auto sameList = [](const auto &x, const auto &y) {
    if (x.size() != y.size())
      return false;
    for (int i = 0; i < x.size(); ++i)
      if (!(x.Get(i) == y.Get(i)))
        return false;
    return true;
  };
  switch (value.type()) {
  case onnx::AttributeProto::INT:
    return value.i() == dflt.i();
  case onnx::AttributeProto::FLOAT:
    return value.f() == dflt.f();
  case onnx::AttributeProto::STRING:
    return value.s() == dflt.s();
  case onnx::AttributeProto::INTS:
    return sameList(value.ints(), dflt.ints());
  case onnx::AttributeProto::FLOATS:
    return sameList(value.floats(), dflt.floats());
  case onnx::AttributeProto::STRINGS:
    return sameList(value.strings(), dflt.strings());
  default:
    return false; // tensors and graphs have no defaults dlc can ignore
  }
}

LogicalResult dlc::checkAttributesHandled(const onnx::NodeProto &node,
                                          int64_t opset,
                                          const llvm::StringSet<> &read,
                                          Location loc) {
  const onnx::OpSchema *schema = onnxSchema(node, opset);
  for (const onnx::AttributeProto &attr : node.attribute()) {
    if (read.contains(attr.name()))
      continue;
    const onnx::OpSchema::Attribute *info = nullptr;
    if (schema) {
      auto it = schema->attributes().find(attr.name());
      if (it != schema->attributes().end())
        info = &it->second;
    }
    if (info && info->default_value.has_type() &&
        sameValue(attr, info->default_value))
      continue;
    InFlightDiagnostic diag = emitError(loc);
    diag << node.op_type() << " (opset " << opset << "): attribute '"
         << attr.name() << "' = " << formatAttributeValue(attr)
         << " is not supported by dlc";
    if (!info)
      diag << " (the op's ONNX schema does not define it)";
    else if (info->default_value.has_type())
      diag << " (only its default, "
           << formatAttributeValue(info->default_value) << ", is)";
    return failure();
  }
  return success();
}
