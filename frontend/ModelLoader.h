//===- ModelLoader.h - read and check ONNX ModelProtos -----------*- C++ -*-===//
#ifndef DLC_FRONTEND_MODELLOADER_H
#define DLC_FRONTEND_MODELLOADER_H

#include "onnx/onnx_pb.h"

#include <string>

namespace dlc {

/// Loads `path` into `model`: parses it, pulls in external-data tensors
/// (refusing locations outside the model's directory), and runs ONNX's
/// checker and shape inference where its opset allows. On failure returns
/// false and sets `error` to a one-line message.
bool loadModel(const std::string &path, onnx::ModelProto &model,
               std::string &error);

/// The model's ai.onnx opset version (1 if absent).
int64_t getOnnxOpset(const onnx::ModelProto &model);

} // namespace dlc

#endif
