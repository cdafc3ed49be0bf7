//===- KernelUtils.h - helpers for building gpu.launch kernels --*- C++ -*-===//
#ifndef DLC_CODEGEN_GPU_KERNELUTILS_H
#define DLC_CODEGEN_GPU_KERNELUTILS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
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

/// The declaration in `module` of the runtime's copy `name(ctx, dst, src,
/// bytes)` between device and host memory (`dlcrt_cuda_read`,
/// `dlcrt_cuda_write`), added the first time.
mlir::func::FuncOp runtimeCopyFunction(mlir::ModuleOp module,
                                       llvm::StringRef name);
} // namespace dlc

#endif
