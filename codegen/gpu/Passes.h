//===- Passes.h - CUDA code generation passes and pipeline -------*- C++ -*-===//
#ifndef DLC_CODEGEN_GPU_PASSES_H
#define DLC_CODEGEN_GPU_PASSES_H

#include "codegen/ModelInfo.h"
#include "ir/DlcDialect.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

#include <string>
#include <vector>

namespace dlc {
#define GEN_PASS_DECL
#include "codegen/gpu/Passes.h.inc"
#define GEN_PASS_REGISTRATION
#include "codegen/gpu/Passes.h.inc"

struct CudaPipelineOptions {
  /// PTX targets embedded in the library ("sm_80", "sm_90", ...).
  std::vector<std::string> archs = {"sm_80", "sm_90"};
  /// Threads per block of the elementwise grids.
  int64_t blockSize = 256;
  /// Contractions' precision (dlc-gpu-select-strategy): "f32", "tf32",
  /// "f16" or "bf16".
  std::string precision = "f32";
  /// Hopper's warpgroup instructions (wgmma) for the contractions that
  /// fit: set for an sm_90a build (whose PTX runs on sm_90 only) and for
  /// the emulator of one.
  bool warpgroups = false;
  /// Whether `archs` names an architecture-specific target (sm_90a).
  static bool isArchSpecific(const std::vector<std::string> &archs);
  /// dlc-gpu-select-placement: "gpu" (only `cpuNodes` on the CPU), "auto"
  /// (the cost model, with the datasheet of `placementGpu`) or "off".
  std::string placement = "gpu";
  std::vector<std::string> cpuNodes;
  std::string placementGpu = "h100";
  /// cuda-emulator: compile the kernels for the host instead (see
  /// dlc-gpu-emulate-kernels); the result is a CPU model.
  bool emulate = false;
  /// libdevice bitcode linked into the kernels (CUDA's math functions);
  /// empty: none (kernels that call math functions are then refused).
  std::string libdevice = findLibdevice();

  /// libdevice.10.bc of the CUDA toolkit at $CUDA_HOME, $CUDA_PATH,
  /// $CUDA_ROOT, /usr/local/cuda, the one whose ptxas is on PATH, or
  /// Debian's nvidia-cuda-toolkit; empty if none.
  static std::string findLibdevice();
};

/// The whole CUDA pipeline: dlc dialect -> host code in the LLVM dialect
/// calling the dlc CUDA runtime, with the PTX of every kernel recorded in
/// module attributes (see dlc-gpu-launch-to-runtime). Stops after the
/// linalg level when `untilLinalg` is set.
void buildCudaPipeline(mlir::OpPassManager &pm, const CudaPipelineOptions &opts,
                       bool untilLinalg = false);

/// Registers `dlc-cuda-pipeline` for dlc-opt.
void registerCudaPipeline();

/// Reads `dlc.cuda_ptx`, `dlc.cuda_kernels` and the size of
/// `@dlc_constants`; failure if absent.
mlir::FailureOr<CudaImages> extractCudaImages(mlir::ModuleOp module);
} // namespace dlc

#endif
