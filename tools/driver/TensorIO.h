//===- TensorIO.h - ONNX TensorProto files for dlc run -----------*- C++ -*-===//
#ifndef DLC_TOOLS_DRIVER_TENSORIO_H
#define DLC_TOOLS_DRIVER_TENSORIO_H

#include "codegen/ModelInfo.h"

#include <string>

namespace onnx {
class TensorProto;
}

namespace dlc {

/// Parses a TensorProto file.
bool loadTensorProto(const std::string &path, onnx::TensorProto &tensor,
                     std::string &error);

/// Reads a TensorProto file and checks it against `expected` (dtype, shape).
/// On failure returns false with a one-line `error`.
bool readTensorFile(const std::string &path, const TensorInfo &expected,
                    std::string &bytes, std::string &error);

/// Writes `bytes` as a TensorProto described by `info`.
bool writeTensorFile(const std::string &path, const TensorInfo &info,
                     const std::string &bytes, std::string &error);

} // namespace dlc

#endif
