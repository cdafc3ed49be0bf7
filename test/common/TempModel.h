//===- TempModel.h - an ONNX model written to a temporary file --*- C++ -*-===//
//
// For the library test suites (test/compiler, test/analysis), which build
// their models with ONNX's protobuf classes.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_TEST_COMMON_TEMPMODEL_H
#define DLC_TEST_COMMON_TEMPMODEL_H

#include "onnx/onnx_pb.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <unistd.h>

namespace dlc::test {

/// Writes `model` to a new file /tmp/PREFIX-XXXXXX and returns its path (the
/// caller removes it).
inline std::string writeTempModel(const onnx::ModelProto &model,
                                  const std::string &prefix) {
  std::string path = "/tmp/" + prefix + "-XXXXXX";
  int fd = mkstemp(path.data());
  EXPECT_GE(fd, 0);
  close(fd);
  std::ofstream out(path, std::ios::binary);
  model.SerializeToOstream(&out);
  return path;
}

} // namespace dlc::test

#endif
