//===- KernelUtils.h - helpers for building gpu.launch kernels --*- C++ -*-===//
#ifndef DLC_CODEGEN_GPU_KERNELUTILS_H
#define DLC_CODEGEN_GPU_KERNELUTILS_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace dlc {
/// Clones into `launch` the views, reshapes and scalar arithmetic computing
/// the values it captures (transitively), so that kernels receive whole
/// buffers (identity layouts, passed as bare pointers) and scalars only;
/// fails, naming the type, when a captured buffer is not one.
mlir::LogicalResult sinkIntoLaunch(mlir::gpu::LaunchOp launch);

/// Whether `type` is a memref in the GPU address space `space` (shared
/// memory: Workgroup; a thread's own buffers: Private).
bool inAddressSpace(mlir::Type type, mlir::gpu::AddressSpace space);
} // namespace dlc

#endif
