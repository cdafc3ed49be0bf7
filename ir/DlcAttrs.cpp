//===- DlcAttrs.cpp - dlc attributes ---------------------------------------===//
#include "ir/DlcAttrs.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace dlc;

#include "ir/DlcEnums.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "ir/DlcAttrs.cpp.inc"

LogicalResult
GpuConfigAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      GpuKernelKind kind, ArrayRef<int64_t> workgroup,
                      ArrayRef<int64_t> thread, ArrayRef<int64_t> reduction,
                      int64_t pipelineDepth, GpuPrecision precision,
                      ArrayRef<int64_t> mma) {
  if (thread.size() != workgroup.size() ||
      (!reduction.empty() && reduction.size() != workgroup.size()))
    return emitError() << "workgroup, thread and reduction tiles must have one "
                          "size per loop";
  for (auto [w, t] : llvm::zip(workgroup, thread)) {
    if (w < 0 || t < 0)
      return emitError() << "tile sizes must not be negative";
    if (t > 0 && w > 0 && w % t != 0)
      return emitError() << "a thread tile of " << t
                         << " does not divide the workgroup tile of " << w;
  }
  if (pipelineDepth < 1)
    return emitError() << "pipeline_depth must be at least 1";
  if (!mma.empty()) {
    if (kind != GpuKernelKind::Contraction || mma.size() != workgroup.size())
      return emitError() << "mma needs a contraction and one size per loop";
    if (precision == GpuPrecision::F32)
      return emitError() << "mma needs a precision below f32";
    for (auto [w, t, i] : llvm::zip(workgroup, thread, mma)) {
      // The m loop of a warpgroup instruction (m64): each of the group's
      // four warps holds 16 of its rows, the block a whole number of
      // groups. (An n loop of 64 has warp tiles of 64, checked below.)
      if (i == 64 && t == 16) {
        if (w % 64 != 0)
          return emitError() << "a warpgroup instruction of m = 64 needs a "
                                "workgroup tile that is a multiple of 64, got "
                             << w;
        continue;
      }
      if (i < 0 || (i > 0 && (t <= 0 || t % i != 0)))
        return emitError() << "an instruction tile of " << i
                           << " does not divide the warp tile of " << t;
    }
  }
  return success();
}

int64_t GpuConfigAttr::getNumThreads() const {
  int64_t threads = 1;
  for (auto [w, t] : llvm::zip(getWorkgroup(), getThread()))
    if (w > 0 && t > 0)
      threads *= w / t;
  // A reduction kernel's thread tiles are warps of `reduction` lanes.
  if (getKind() == GpuKernelKind::Reduction)
    for (int64_t lanes : getReduction())
      if (lanes > 0)
        threads *= lanes;
  // A tensor-core contraction's thread tiles are warps.
  if (usesMma())
    threads *= 32;
  return threads;
}

void DlcDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "ir/DlcAttrs.cpp.inc"
      >();
}

LogicalResult
SymbolicDimAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        StringRef name, int64_t min, int64_t max) {
  if (name.empty())
    return emitError() << "a symbolic dimension needs a name";
  if (min < 1 || max < min)
    return emitError() << "symbolic dimension '" << name << "' has the range "
                       << min << ".." << max << "; it needs 1 <= min <= max";
  return success();
}
