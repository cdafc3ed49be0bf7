//===- Passes.h - CPU code generation passes and pipeline --------*- C++ -*-===//
#ifndef DLC_CODEGEN_CPU_PASSES_H
#define DLC_CODEGEN_CPU_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

namespace dlc {
#define GEN_PASS_DECL
#include "codegen/cpu/Passes.h.inc"
#define GEN_PASS_REGISTRATION
#include "codegen/cpu/Passes.h.inc"

/// On a `linalg.fill`: it fills a border slab of a padded buffer with a
/// constant (dlc-cpu-decompose-pads), the same on every call.
inline constexpr llvm::StringLiteral kPadBorderAttrName = "dlc.pad_border";
/// On an argument of `@main`: the model's state, memory the runtime keeps
/// for an instance's life, zeroed at create (dlc-cpu-fill-borders-once).
inline constexpr llvm::StringLiteral kStateArgAttrName = "dlc.state";

struct CpuPipelineOptions {
  /// f32 lanes per vector register (16 for AVX-512, 8 for AVX2).
  int64_t vectorWidth = 16;
  /// Vector registers (32 for AVX-512, 16 for AVX2).
  int64_t vectorRegisters = 32;
  /// Masked vector loads are fast (AVX and later).
  bool maskedLoads = true;
  /// Masked vector stores are fast (AVX-512).
  bool maskedStores = true;
  /// Vector elements only extracted are read as scalar loads (x86 with AVX,
  /// dlc-cpu-lower-vectors).
  bool scalarElementLoads = true;
  /// Clock stamps around every kernel (dlc-cpu-profile-kernels).
  bool profile = false;
  /// The most bytes of model state (dlc-cpu-fill-borders-once).
  int64_t maxStateBytes = 2 << 20;
};

/// The whole CPU pipeline: dlc dialect -> LLVM dialect. Stops after the
/// linalg level when `untilLinalg` is set.
void buildCpuPipeline(mlir::OpPassManager &pm, const CpuPipelineOptions &opts,
                      bool untilLinalg = false);

/// Registers `dlc-cpu-pipeline` for dlc-opt.
void registerCpuPipeline();
} // namespace dlc

#endif
