//===- DlcGpuOps.cpp - GPU kernel ops of the CUDA pipeline ----------------===//
//
// Verifiers of the ops in DlcGpuOps.td.
//
//===----------------------------------------------------------------------===//
#include "ir/DlcAttrs.h"
#include "ir/DlcOps.h"

using namespace mlir;
using namespace dlc;

LogicalResult WarpgroupMmaOp::verify() {
  int64_t n = getN();
  if (n % 8 != 0)
    return emitOpError("n must be a multiple of 8, got ") << n;
  if (getPrecision() == GpuPrecision::F32)
    return emitOpError("takes tf32, f16 or bf16 operands, not ")
           << stringifyGpuPrecision(getPrecision());
  int64_t elements = cast<VectorType>(getAcc().getType()).getNumElements();
  if (elements != n / 2)
    return emitOpError("a thread holds n / 2 = ")
           << n / 2 << " accumulator elements, got " << elements;
  return success();
}
