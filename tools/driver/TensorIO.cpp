//===- TensorIO.cpp - ONNX TensorProto files for dlc run ------------------===//
#include "tools/driver/TensorIO.h"

#include "frontend/TensorData.h"

#include <fstream>
#include <sstream>

static std::string shapeStr(const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

bool dlc::loadTensorProto(const std::string &path, onnx::TensorProto &tensor,
                          std::string &error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = path + ": cannot open input tensor file";
    return false;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  if (!tensor.ParseFromString(ss.str())) {
    error = path + ": not an ONNX TensorProto";
    return false;
  }
  return true;
}

bool dlc::readTensorFile(const std::string &path, const TensorInfo &expected,
                         std::string &bytes, std::string &error) {
  onnx::TensorProto tensor;
  if (!loadTensorProto(path, tensor, error))
    return false;
  std::string what = "input '" + expected.name + "' (" + path + ")";
  // ONNX's backend test data stores bfloat16 tensors as their uint16 bits.
  bool bf16Bits = expected.dtype == toDlcDtype(onnx::TensorProto::BFLOAT16) &&
                  tensor.data_type() == onnx::TensorProto::UINT16;
  if (toDlcDtype(tensor.data_type()) != expected.dtype && !bf16Bits) {
    error = what + " has dtype " + onnxTypeName(tensor.data_type()) +
            ", the model expects " + onnxTypeName(toOnnxType(expected.dtype));
    return false;
  }
  std::vector<int64_t> shape(tensor.dims().begin(), tensor.dims().end());
  if (shape != expected.shape) {
    error = what + " has shape " + shapeStr(shape) + ", the model expects " +
            shapeStr(expected.shape);
    return false;
  }
  if (!tensorBytes(tensor, bytes, error)) {
    error = what + ": " + error;
    return false;
  }
  return true;
}

bool dlc::writeTensorFile(const std::string &path, const TensorInfo &info,
                          const std::string &bytes, std::string &error) {
  onnx::TensorProto tensor;
  tensor.set_name(info.name);
  tensor.set_data_type(toOnnxType(info.dtype));
  for (int64_t d : info.shape)
    tensor.add_dims(d);
  tensor.set_raw_data(bytes);
  std::ofstream out(path, std::ios::binary);
  if (!out || !tensor.SerializeToOstream(&out)) {
    error = path + ": cannot write output tensor file";
    return false;
  }
  return true;
}
