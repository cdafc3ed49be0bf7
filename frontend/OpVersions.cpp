//===- OpVersions.cpp - ONNX op versions newer than ONNX 1.12 knows -------===//
#include "frontend/OpVersions.h"

using namespace llvm;

static const dlc::OpVersionChange kChanges[] = {
#define OP_VERSION(OP, VERSION, IMPLEMENTED, CHANGE)                           \
  {OP, VERSION, IMPLEMENTED, CHANGE},
#include "frontend/OpVersions.def"
};

std::optional<dlc::OpVersionChange> dlc::unimplementedOpVersion(StringRef op,
                                                                int64_t opset) {
  // The newest change at or before the opset is the op's meaning there
  // (versions in between only add types).
  const OpVersionChange *inEffect = nullptr;
  for (const OpVersionChange &c : kChanges)
    if (c.op == op && c.version <= opset &&
        (!inEffect || c.version > inEffect->version))
      inEffect = &c;
  if (!inEffect || inEffect->implemented)
    return std::nullopt;
  return *inEffect;
}
