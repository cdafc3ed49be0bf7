//===- AttributeCheck.h - every attribute honoured or refused ----*- C++
//-*-===//
//
// Internal to the frontend. An op importer reads the attributes it
// implements through NodeContext (which records their names); an attribute
// of the node that no importer read is honoured only when it holds the
// default of the op's ONNX schema at the model's opset. Any other value is
// refused, so that a model never compiles to an answer that ignores it.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_FRONTEND_ATTRIBUTECHECK_H
#define DLC_FRONTEND_ATTRIBUTECHECK_H

#include "mlir/IR/Location.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringSet.h"

#include "onnx/onnx_pb.h"

namespace onnx {
class OpSchema;
} // namespace onnx

#include <string>

namespace dlc {

/// The ONNX schema of `node`: ai.onnx ops at `opset`, other domains at the
/// newest version ONNX knows; null when ONNX has none.
const onnx::OpSchema *onnxSchema(const onnx::NodeProto &node, int64_t opset);

/// `attr`'s value as the error messages print it (`3`, `"NOTSET"`,
/// `[1, 2]`, `a tensor`, ...).
std::string formatAttributeValue(const onnx::AttributeProto &attr);

/// Reports at `loc` the first attribute of `node` that is not in `read` and
/// does not hold its schema default (ai.onnx ops at `opset`, other domains
/// at the newest version ONNX knows); the message names the node, the op,
/// the opset, the attribute and its value.
mlir::LogicalResult checkAttributesHandled(const onnx::NodeProto &node,
                                           int64_t opset,
                                           const llvm::StringSet<> &read,
                                           mlir::Location loc);

} // namespace dlc

#endif // DLC_FRONTEND_ATTRIBUTECHECK_H
