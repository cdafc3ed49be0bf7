//===- Compiler.h - ONNX file -> generated model, end to end -----*- C++
//-*-===//
#ifndef DLC_COMPILER_COMPILER_H
#define DLC_COMPILER_COMPILER_H

#include "codegen/ModelInfo.h"
#include "frontend/DynamicBatch.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <map>
#include <memory>
#include <vector>

namespace onnx {
class TensorProto;
}

namespace dlc {

/// What `dlc compile --emit=` stops at.
enum class Stage { Mlir, Linalg, Ptx, Llvm, Asm, Obj, Lib };

/// CudaEmulator: the CUDA target's program with its kernels compiled for the
/// host and run one thread at a time (dlc-gpu-emulate-kernels); a testing
/// aid for machines without a GPU.
enum class Target { Cpu, Cuda, CudaEmulator };

struct CompileOptions {
  std::string name = "model"; // symbol prefix
  std::string mcpu, mtriple;
  Target target = Target::Cpu;
  /// --target cuda: the PTX architectures embedded.
  std::vector<std::string> gpuArchs = {"sm_80", "sm_90"};
  /// --target cuda, objects and libraries: assemble each architecture's
  /// PTX into a cubin with ptxas where it is found (`--gpu-cubin auto`), so
  /// that create loads machine code instead of JIT-compiling the PTX; off:
  /// PTX only.
  bool gpuCubins = true;
  /// --target cuda-emulator: the precision of contraction kernels ("f32",
  /// "tf32", "f16", "bf16": operands rounded, f32 accumulation).
  std::string gpuPrecision = "f32";
  /// --target cuda|cuda-emulator: which kernels run on the CPU, as host
  /// parts of the model (dlc-gpu-select-placement): "gpu" (only
  /// `cpuNodes`), "auto" (the cost model) or "off" (none).
  std::string placement = "gpu";
  std::vector<std::string> cpuNodes;
  bool apiWrappers = true; // the public <name>_* functions
  bool timePasses = false;
  /// Input values known at compile time (see ImportOptions::knownInputs).
  std::vector<const onnx::TensorProto *> knownInputs;
  /// Report every problem instead of stopping at the first (`dlc check`).
  bool keepGoing = false;
  /// Every node's outputs become model outputs (ImportOptions).
  bool exposeNodeOutputs = false;
  /// CPU: clock stamps around every kernel (ModelInfo::profileOffset).
  bool profile = false;
  /// Called as the compile enters each phase ("ONNX import", "pass
  /// 'NAME'", "LLVM O3", ...); the driver's budget reports it.
  std::function<void(llvm::StringRef)> onPhase;
  /// Sizes of symbolic input dimensions (`--dim NAME=SIZE`).
  std::map<std::string, int64_t> dimValues;
  /// Ranges of symbolic input dimensions compiled as such
  /// (`--dim NAME=MIN..MAX`, see ImportOptions::dimRanges).
  std::map<std::string, DimRange> dimRanges;
  /// Stage::Linalg: called with the program (linalg on tensors) and the
  /// model's interface instead of printing the program (`dlc analyze`).
  std::function<void(mlir::ModuleOp, const ModelInfo &)> inspectLinalg;
  /// Models with a static batch: run it as this many sub-batches (on the
  /// CPU on separate threads when there are threads to spare, for CUDA one
  /// after the other), if the samples are proven apart (see
  /// frontend/BatchSplit.h); 1 keeps the batch whole; 0 chooses: on the CPU
  /// from the model (weights against intermediate tensors), for CUDA from
  /// gpuMemory.
  int64_t batchSplit = 0;
  /// --target cuda|cuda-emulator: the device memory a run may use (bytes;
  /// 0: no limit, `--gpu-memory`). A static batch whose run needs more
  /// (workspace, constants, device copies of the inputs and outputs) is
  /// compiled as the fewest sub-batches that fit (batchSplit 0 only).
  uint64_t gpuMemory = 0;
  /// CPU: the most bytes of model state (padded buffers whose borders the
  /// first run fills, dlc-cpu-fill-borders-once; `--cpu-state`); -1: the
  /// pipeline's default.
  int64_t cpuStateBytes = -1;
  /// Called with the model's interface once its memory plan is known
  /// (workspace and constant sizes), before LLVM; the compile stops there.
  std::function<void(const ModelInfo &)> inspectPlan;
  /// CPU models with a dynamic batch: the most samples one call of the
  /// compiled code computes (the batch compiled as a symbolic dimension
  /// 1..batchChunk); 1 runs one sample per call; 0 chooses from the model.
  int64_t batchChunk = 0;
};

struct CompiledModel {
  ModelInfo info;
  llvm::SmallVector<char, 0> object; // ELF object, at Stage::Obj and Lib
  /// Why a static batch was not split (empty when it was, or when no split
  /// was asked for).
  std::string batchSplitSkipped;
  /// With CompileOptions::gpuMemory: how the run fits in it (a line for
  /// the compile's report); empty otherwise.
  std::string memoryPlan;
  /// Why a dynamic batch runs one sample per call although a chunk was
  /// chosen or asked for (empty otherwise).
  std::string batchChunkSkipped;
};

/// Compiles `path`. Textual stages (mlir, linalg, llvm, asm) are printed to
/// `out` and stop there. Errors are emitted as MLIR diagnostics; returns
/// failure after them.
mlir::LogicalResult compileModel(mlir::MLIRContext &context,
                                 llvm::StringRef path,
                                 const CompileOptions &options, Stage stopAt,
                                 llvm::raw_ostream &out, CompiledModel &result);

/// A registry with every dialect the compiler uses.
void registerCompilerDialects(mlir::DialectRegistry &registry);

/// A context for compileModel as the tools use it: every dialect the
/// compiler uses, one thread (the compile's budget counts one), and
/// diagnostics without the op printed after them.
std::unique_ptr<mlir::MLIRContext> createCompilerContext();

} // namespace dlc

#endif
