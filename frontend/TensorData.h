//===- TensorData.h - ONNX tensor data and type helpers ----------*- C++ -*-===//
#ifndef DLC_FRONTEND_TENSORDATA_H
#define DLC_FRONTEND_TENSORDATA_H

#include "onnx/onnx_pb.h"

#include <string>

namespace dlc {

/// Little-endian packed bytes of `tensor`, from raw_data or typed fields;
/// false with `error` set when the data does not match the dims.
bool tensorBytes(const onnx::TensorProto &tensor, std::string &bytes,
                 std::string &error);
/// dlc_dtype code of an ONNX TensorProto data type; 0 if unsupported.
int toDlcDtype(int onnxType);
/// ONNX TensorProto data type of a dlc_dtype code.
int toOnnxType(int dlcDtype);
/// Readable name of an ONNX TensorProto data type ("FLOAT", "STRING", ...).
std::string onnxTypeName(int onnxType);

} // namespace dlc

#endif
