//===- LaunchParams.h - kernel parameter arrays in the LLVM dialect -*- C++ -*-===//
#ifndef DLC_CODEGEN_GPU_LAUNCHPARAMS_H
#define DLC_CODEGEN_GPU_LAUNCHPARAMS_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace dlc {
/// The `void **` parameter array of a kernel launch (cuLaunchKernel's
/// `kernelParams`, also the cuda-emulator's): one stack slot per value and
/// an array of their addresses, all allocated in `func`'s entry block (so
/// that launches inside host loops reuse them) and filled before the
/// builder's insertion point. Returns the array.
mlir::Value packLaunchParams(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::LLVM::LLVMFuncOp func,
                             mlir::ValueRange values);
} // namespace dlc

#endif
