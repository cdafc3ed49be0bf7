//===- Passes.h - target-independent code generation passes -----*- C++ -*-===//
#ifndef DLC_CODEGEN_COMMON_PASSES_H
#define DLC_CODEGEN_COMMON_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

namespace dlc {
#define GEN_PASS_DECL
#include "codegen/common/Passes.h.inc"
#define GEN_PASS_REGISTRATION
#include "codegen/common/Passes.h.inc"

/// The target-independent front of every pipeline: dlc ops to linalg on
/// tensors, elementwise ops fused.
/// With `indexChecks`, the run-time indices of Gather, GatherElements and
/// dlc.check_indices are checked (dlc.report, lowered by dlc-memory-plan).
/// `grouped` says which grouped convolutions the target runs tap by tap.
void buildGraphToLinalgPipeline(mlir::OpPassManager &pm, bool indexChecks,
                                const GroupedConvTapsOptions &grouped);

/// Tensors to buffers, shared by the CPU and CUDA pipelines.
void buildBufferizePipeline(mlir::OpPassManager &pm);

/// Arithmetic, control flow and functions to the LLVM dialect, with bare
/// pointers for memrefs (the entry's ABI), shared by the host code of the
/// CPU pipeline and of the CUDA emulator.
void buildHostToLLVMPipeline(mlir::OpPassManager &pm);
} // namespace dlc

#endif
