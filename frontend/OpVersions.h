//===- OpVersions.h - ONNX op versions newer than ONNX 1.12 knows -*- C++
//-*-===//
//
// ONNX 1.12, the library dlc links, knows opsets up to 17. Models of newer
// opsets import with its newest schemas; the ops whose semantics changed
// since (OpVersions.def, from ONNX's changelog up to opset 27) are checked
// here, so that a node of a version dlc does not implement is refused by
// name instead of compiled with an older version's meaning.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_FRONTEND_OPVERSIONS_H
#define DLC_FRONTEND_OPVERSIONS_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace dlc {

/// The newest default-domain opset whose changes dlc knows (ONNX 1.22's);
/// models of newer opsets are refused.
constexpr int64_t kNewestKnownOpset = 27;

/// A version of an op that changed more than its types.
struct OpVersionChange {
  llvm::StringRef op;
  int64_t version;
  bool implemented;
  llvm::StringRef change;
};

/// The version of default-domain op `op` in effect at `opset` when it is
/// one that dlc does not implement (a change after opset 17); nullopt when
/// dlc implements the op as it is at `opset`.
std::optional<OpVersionChange> unimplementedOpVersion(llvm::StringRef op,
                                                      int64_t opset);

} // namespace dlc

#endif
