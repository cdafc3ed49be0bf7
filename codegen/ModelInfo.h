//===- ModelInfo.h - what the generated library says about a model -*- C++ -*-//
#ifndef DLC_CODEGEN_MODELINFO_H
#define DLC_CODEGEN_MODELINFO_H

#include "mlir/IR/BuiltinOps.h"

#include <optional>
#include <string>
#include <vector>

namespace dlc {

struct TensorInfo {
  std::string name;
  int dtype = 0; // dlc_dtype
  std::vector<int64_t> shape;
  uint64_t sizeBytes = 0; // of one sample for a batched tensor
  /// Models with a dynamic batch: the axis `shape` (which holds 1 there)
  /// grows along with the batch; -1 for tensors without one.
  int64_t batchAxis = -1;
  /// Models whose static batch runs as sub-batches (ModelInfo::batchSplit):
  /// the batch axis (`shape` and `sizeBytes` are of the whole batch); -1 for
  /// tensors without one.
  int64_t splitAxis = -1;
  /// Outputs whose size depends on data (NonZero, NonMaxSuppression, ...):
  /// `shape` holds -1 (DLC_DIM_DYNAMIC) at those dimensions, `maxShape` the
  /// upper bounds there, and `sizeBytes` is that of `maxShape`. Empty for
  /// other tensors.
  std::vector<int64_t> maxShape;
  /// Inputs with symbolic dimensions compiled as such: `shape` holds -1
  /// there, `minShape`/`maxShape` the declared range and `dimNames` the
  /// dimensions' names ("" where static). Empty for other tensors.
  std::vector<int64_t> minShape;
  std::vector<std::string> dimNames;
};

/// The target name of an image's sm number: 80 -> "sm_80"; an
/// architecture-specific target (its PTX runs on that capability only) is
/// negative: -90 -> "sm_90a" (see dlc_cuda_image).
inline std::string cudaArchName(int sm) {
  return "sm_" + std::to_string(sm < 0 ? -sm : sm) + (sm < 0 ? "a" : "");
}

/// What a CUDA model carries besides host code (see dlc_cuda_desc).
struct CudaImages {
  /// (sm number as in cudaArchName, PTX text)
  std::vector<std::pair<int, std::string>> ptx;
  /// Parallel to ptx where `dlc compile` assembled them (ptxas): each
  /// architecture's machine code; empty: PTX only.
  std::vector<std::string> cubins;
  std::vector<std::string> kernels;             // launch index -> name
  std::vector<uint32_t> kernelShared; // launch index -> dynamic shared bytes
  /// launch index -> the ONNX nodes its launches compute, space-separated
  std::vector<std::string> kernelNodes;
  uint64_t constantsSize = 0; // bytes of the device constants arena
};

struct ModelInfo {
  std::string name; // C identifier, the symbol prefix
  std::vector<TensorInfo> inputs, outputs;
  uint64_t workspaceSize = 0;
  uint64_t workspaceLiveSet = 0; // most intermediate bytes alive at once
  /// Run-time checks (dlc-memory-plan's dlc.checks): the byte offset in the
  /// workspace of the word a failed check writes its number (from 1) to,
  /// and the checks' messages; no checks: empty.
  uint64_t checkOffset = 0;
  std::vector<std::string> checks;
  /// Models compiled with clock stamps around their kernels
  /// (dlc-cpu-profile-kernels): the byte offset in the workspace of the
  /// stamps (one int64_t of nanoseconds before the first kernel and after
  /// each) and each kernel's ONNX nodes; not profiled: empty.
  uint64_t profileOffset = 0;
  std::vector<std::string> profileKernels;
  uint64_t weightsSize = 0; // bytes of constant tensors
  /// CUDA models with host parts (dlc-gpu-outline-host-parts): the bytes
  /// of the host workspace (0: none, and no such argument), each part's
  /// ONNX nodes and why it runs on the CPU, and the bytes the transfers
  /// move per run each way.
  uint64_t hostWorkspaceSize = 0;
  /// CPU models whose padded buffers keep their borders from call to call
  /// (dlc-cpu-fill-borders-once): the bytes of the state (0: none, and no
  /// such argument).
  uint64_t stateSize = 0;
  struct HostPart {
    std::vector<std::string> nodes, reasons;
  };
  std::vector<HostPart> hostParts;
  uint64_t busBytesToHost = 0, busBytesToDevice = 0;
  /// Set for models compiled with --target cuda.
  std::optional<CudaImages> cuda;
  /// --target cuda-emulator: the CUDA target's host ABI (workspace,
  /// constants arena, launch context), run on the CPU.
  bool cudaEmulated = false;
  /// The number of data-dependent output dimensions (the -1 entries of the
  /// outputs' shapes): the compiled code writes their sizes to one more
  /// argument, an int64_t array of this many entries, after the outputs.
  int64_t numDynamicDims = 0;
  /// The number of symbolic input dimensions (the -1 entries of the inputs'
  /// shapes): the compiled code reads their sizes from one more argument.
  int64_t numInputDynamicDims = 0;
  /// The dynamic batch dimension's name; empty for static models.
  std::string batchDim;
  /// The static batch runs as this many sub-batches (one call of the
  /// compiled code each); 0: it runs whole.
  int64_t batchSplit = 0;
  /// With batchSplit: the whole batch (of the tensors with a splitAxis).
  int64_t splitBatch = 0;
  /// A dynamic batch compiled as a symbolic dimension 1..batchChunk (at
  /// least 2): each call of the compiled code computes a chunk of up to that
  /// many samples; 0: one sample per call. The batched tensors' shapes and
  /// sizes are still those of one sample.
  int64_t batchChunk = 0;
};

/// Reads the batch axes of a dynamic-batch model (module attributes set by
/// the import and dlc-check-batch-independence) into `info`.
void extractBatchAxes(mlir::ModuleOp module, ModelInfo &info);

/// Reads inputs and outputs of `@main` (as imported: names, dtypes and
/// static shapes). Fails with a diagnostic on dynamic shapes.
mlir::FailureOr<ModelInfo> extractModelInfo(mlir::ModuleOp module,
                                            llvm::StringRef name);

/// Reads the outputs' bounds that dlc-bounded-results recorded into
/// `info` (maxShape and sizeBytes of outputs with dynamic dimensions).
mlir::LogicalResult extractOutputBounds(mlir::ModuleOp module, ModelInfo &info);

/// Reads the workspace size the memory plan recorded (0 if none).
uint64_t extractWorkspaceSize(mlir::ModuleOp module);
/// The run-time checks of the lowered @main (ModelInfo::checks).
void extractChecks(mlir::ModuleOp module, ModelInfo &info);
/// Reads the host parts of a CUDA model's @main (dlc.host_workspace_size,
/// dlc.host_parts, dlc.bus_bytes_*) into `info`.
void extractHostParts(mlir::ModuleOp module, ModelInfo &info);
/// Reads dlc.state_size of @main into `info` (ModelInfo::stateSize).
void extractState(mlir::ModuleOp module, ModelInfo &info);
/// Reads dlc.profile_offset and dlc.profile_kernels of @main into `info`.
void extractProfile(mlir::ModuleOp module, ModelInfo &info);

/// Reads the memory plan's live-set lower bound: the most bytes of
/// intermediate tensors alive at any one op (0 if none).
uint64_t extractWorkspaceLiveSet(mlir::ModuleOp module);

/// Bytes per element of a dlc_dtype code.
uint64_t dtypeSize(int dtype);
/// C-style name of a dlc_dtype code ("float", "int64_t", ...).
const char *dtypeCName(int dtype);

} // namespace dlc

#endif
