//===- Alignment.h - provable alignment of kernel memory accesses -*- C++ -*-===//
#ifndef DLC_CODEGEN_GPU_ALIGNMENT_H
#define DLC_CODEGEN_GPU_ALIGNMENT_H

#include "mlir/IR/Operation.h"

namespace dlc {
/// Sets the `alignment` of every vector.load and vector.store under `root`
/// to the largest power of two, up to the access's size, that its address
/// is provably a multiple of: buffers the entry receives (inputs, outputs,
/// workspace, constants) are 16-byte aligned, as are shared memory views;
/// the element offset is the indices times the memref's static strides,
/// whose divisibility is derived from constants, products, sums and loop
/// bounds. PTX loads and stores 16 bytes at once only when aligned.
void annotateVectorAlignment(mlir::Operation *root);
} // namespace dlc

#endif
