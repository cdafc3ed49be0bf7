//===- TensorFileFuzzer.cpp - libFuzzer target: dlc run's tensor reader ---===//
//
// Bytes as an input_<i>.pb file -> `dlc run`'s reader (readTensorFile),
// checked against a few expectations a compiled model could have (dtypes,
// static shapes, a scalar, an empty tensor) and, as `dlc run` does for an
// input with symbolic dimensions, against the file's own shape. A file is
// accepted or refused with a message; crashes, sanitizer reports, leaks,
// out-of-memory and timeouts are the findings, and so is an accepted file
// whose bytes do not match the expected shape and dtype exactly. Built by
// scripts/fuzz.sh.
//
//===----------------------------------------------------------------------===//
#include "frontend/TensorData.h"
#include "tools/driver/TensorIO.h"
#include "tools/fuzz/FuzzInput.h"

#include "dlc/dlc_runtime.h"

#include <cstdint>
#include <cstdlib>

static void check(const std::string &path, const dlc::TensorInfo &expected) {
  std::string bytes, error;
  if (!dlc::readTensorFile(path, expected, bytes, error)) {
    if (error.empty())
      abort(); // a refusal names its reason
    return;
  }
  uint64_t n = dlc::dtypeSize(expected.dtype);
  for (int64_t d : expected.shape)
    n *= d;
  if (bytes.size() != n)
    abort(); // accepted bytes are exactly the expected tensor's
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string &path = dlc::fuzz::writeInputFile("input_0.pb", data, size);
  static const dlc::TensorInfo expectations[] = {
      {"x", DLC_DTYPE_F32, {2, 3}},  {"ids", DLC_DTYPE_I64, {4}},
      {"mask", DLC_DTYPE_BOOL, {3}}, {"h", DLC_DTYPE_F16, {2, 2}},
      {"b", DLC_DTYPE_BF16, {2}},    {"u", DLC_DTYPE_U32, {1, 2}},
      {"d", DLC_DTYPE_F64, {}},      {"e", DLC_DTYPE_I8, {0, 5}},
  };
  for (const dlc::TensorInfo &expected : expectations)
    check(path, expected);

  // Symbolic dimensions take the file's sizes (the runtime checks their
  // ranges afterwards): the reader then meets any declared shape, however
  // large, negative or overflowing, and must size nothing from it.
  onnx::TensorProto proto;
  std::string error;
  if (!dlc::loadTensorProto(path, proto, error))
    return 0;
  dlc::TensorInfo fromFile;
  fromFile.name = "s";
  fromFile.dtype = dlc::toDlcDtype(proto.data_type());
  if (!fromFile.dtype)
    return 0;
  fromFile.shape.assign(proto.dims().begin(), proto.dims().end());
  check(path, fromFile);
  return 0;
}
