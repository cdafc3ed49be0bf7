//===- Compiler.cpp - ONNX file -> generated model, end to end ------------===//
#include "compiler/Compiler.h"
#include "compiler/ConstantEvaluator.h"
#include "compiler/Cubins.h"

#include "codegen/ModelAbi.h"
#include "codegen/common/Passes.h"
#include "codegen/cpu/Passes.h"
#include "codegen/cpu/Target.h"
#include "codegen/gpu/Passes.h"
#include "frontend/BatchSplit.h"
#include "frontend/Importer.h"
#include "frontend/ModelLoader.h"
#include "ir/DlcDialect.h"
#include "passes/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FormatVariadic.h"

#include "onnx/onnx_pb.h"

using namespace mlir;
using namespace dlc;

void dlc::registerCompilerDialects(DialectRegistry &registry) {
  registry.insert<dlc::DlcDialect>();
  registerAllDialects(registry);
  registerAllExtensions(registry);
  // gpu-module-to-binary translates kernels to LLVM IR and PTX.
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
}

std::unique_ptr<MLIRContext> dlc::createCompilerContext() {
  DialectRegistry registry;
  registerCompilerDialects(registry);
  auto context = std::make_unique<MLIRContext>(registry);
  context->disableMultithreading();
  context->printOpOnDiagnostic(false);
  return context;
}

static void registerPassesOnce() {
  static bool done = [] {
    registerAllPasses();
    dlc::registerDlcPasses();
    dlc::registerDlcCommonPasses();
    dlc::registerDlcCpuPasses();
    dlc::registerDlcGpuPasses();
    return true;
  }();
  (void)done;
}

namespace {
/// Per input and output, the batch axis that the dynamic-batch checks found
/// (-1: none).
struct BatchAxes {
  std::vector<int64_t> inputs, outputs;
};

/// A static batch run as sub-batches: what the import proved.
struct BatchSplit {
  int64_t batch = 0, parts = 0;
  BatchAxes axes;
};
} // namespace

/// The batch axes of a module's inputs and outputs (`probed`, read after
/// extractBatchAxes).
static BatchAxes batchAxesOf(const ModelInfo &probed) {
  BatchAxes axes;
  for (const TensorInfo &t : probed.inputs)
    axes.inputs.push_back(t.batchAxis);
  for (const TensorInfo &t : probed.outputs)
    axes.outputs.push_back(t.batchAxis);
  return axes;
}

/// Calls `fn` on each input and output of `info` with its batch axis from
/// `axes`; fails (naming `what`) when the counts differ.
static LogicalResult
forEachBatchAxis(ModelInfo &info, const BatchAxes &axes, StringRef what,
                 Location loc,
                 function_ref<LogicalResult(TensorInfo &, int64_t)> fn) {
  for (auto [list, axesOf] : {std::pair{&info.inputs, &axes.inputs},
                              std::pair{&info.outputs, &axes.outputs}}) {
    if (list->size() != axesOf->size())
      return emitError(loc) << what << ": " << axesOf->size()
                            << " batch axes for " << list->size() << " tensors";
    for (auto [t, axis] : llvm::zip(*list, *axesOf))
      if (failed(fn(t, axis)))
        return failure();
  }
  return success();
}

namespace {
/// While alive, silences the context's diagnostics and keeps the first
/// error's text in `why` (with its ONNX node's name), unless `why` already
/// holds a reason.
class FirstError {
public:
  FirstError(MLIRContext *context, std::string &why)
      : handler(context, [&why](Diagnostic &diag) {
          if (diag.getSeverity() == DiagnosticSeverity::Error && why.empty()) {
            why = diag.str();
            if (auto name = dyn_cast<NameLoc>(diag.getLocation()))
              why = "node '" + name.getName().str() + "': " + why;
          }
          return success();
        }) {}

private:
  ScopedDiagnosticHandler handler;
};
} // namespace

namespace {
/// What one sample of a model lowered to linalg moves: the weights' bytes
/// (which every call of the compiled code reads again) and the bytes its
/// linalg ops write.
struct SampleBytes {
  uint64_t weights = 0, tensors = 0;
};
} // namespace

static SampleBytes measureSample(ModuleOp perSample) {
  auto bytesOf = [](ShapedType t) -> uint64_t {
    if (!t.hasStaticShape() || !t.getElementType().isIntOrFloat())
      return 0;
    return (t.getNumElements() * t.getElementTypeBitWidth() + 7) / 8;
  };
  // Weights as ModelInfo::weightsSize counts them, but without splats,
  // which are not read from memory.
  uint64_t weights = 0, tensors = 0;
  perSample.walk([&](Operation *op) {
    if (auto value = op->getAttrOfType<ElementsAttr>("value")) {
      auto dense = dyn_cast<DenseElementsAttr>(value);
      if (!dense || !dense.isSplat())
        weights += bytesOf(value.getShapedType());
    } else if (isa<linalg::LinalgOp>(op)) {
      for (Type t : op->getResultTypes())
        if (auto shaped = dyn_cast<RankedTensorType>(t))
          tensors += bytesOf(shaped);
    }
  });
  return {weights, tensors};
}

/// The number of sub-batches for a batch of `batch` (at least 2), from the
/// model lowered at one sample: the smallest sub-batch whose intermediate
/// tensors (bytes written by linalg ops) are at least the weights' bytes,
/// which every sub-batch reads again. Small sub-batches keep each thread's
/// tensors in its caches (MobileNetV2 at batch 8 scales 1.3x on two
/// threads as two sub-batches of 4, 2.0x as eight of 1); weight-bound models
/// (an LSTM's recurrent matmuls) keep large ones.
static int64_t chooseBatchSplit(int64_t batch, ModuleOp perSample) {
  SampleBytes bytes = measureSample(perSample);
  int64_t sub = 1;
  for (int64_t s = 1; s <= batch / 2; ++s)
    if (batch % s == 0) {
      sub = s;
      if ((uint64_t)s * bytes.tensors >= bytes.weights)
        break;
    }
  return batch / sub;
}

/// The most samples of a dynamic batch that one call of the compiled code
/// computes, by the batch split's rule: the smallest chunk whose
/// intermediate tensors are at least the weights' bytes (CNNs: one sample;
/// an LSTM, whose recurrent matmuls are weight-bound, many), at most
/// kMaxBatchChunk samples and, beyond one sample, at most kMaxChunkBytes of
/// tensors (each worker's workspace holds a chunk).
static constexpr int64_t kMaxBatchChunk = 64;
static constexpr uint64_t kMaxChunkBytes = 64ull << 20;
static int64_t chooseBatchChunk(ModuleOp perSample) {
  SampleBytes bytes = measureSample(perSample);
  int64_t chunk = 1;
  while (chunk < kMaxBatchChunk &&
         (uint64_t)chunk * bytes.tensors < bytes.weights &&
         (uint64_t)(chunk + 1) * bytes.tensors <= kMaxChunkBytes)
    ++chunk;
  return chunk;
}

/// Lowers a model to linalg and proves its samples independent
/// (dlc-check-batch-independence).
static void addBatchProof(OpPassManager &pm,
                          const BatchDependenceSink &sink = nullptr) {
  pm.addPass(createLowerToLinalg());
  pm.addPass(sink ? createCheckBatchIndependence(sink)
                  : createCheckBatchIndependence());
}

/// Imports `path` with its static batch split into `parts` sub-batches, or
/// returns null (with the reason in `why`, diagnostics silenced) when that
/// cannot be proven right: the model is imported once more with a symbolic
/// batch, which the dynamic-batch checks (at import and
/// dlc-check-batch-independence) must accept, and then at the sub-batch.
static OwningOpRef<ModuleOp>
importSplitBatch(MLIRContext &context, StringRef path,
                 const ImportOptions &importOptions, int64_t parts,
                 BatchSplit &split, std::string &why) {
  onnx::ModelProto model;
  if (!loadModel(path.str(), model, why)) {
    why.clear(); // the import proper reports it
    return nullptr;
  }
  FailureOr<int64_t> batch = makeBatchSymbolic(model, why);
  if (failed(batch))
    return nullptr;
  if (parts && *batch % parts != 0) {
    why = "the batch of " + std::to_string(*batch) + " is not a multiple of " +
          std::to_string(parts);
    return nullptr;
  }
  // The dynamic-batch checks' first refusal, as a value (without their
  // advice to fix a dynamic batch, which this batch is not to the user);
  // any other error by its text.
  std::optional<BatchDependence> refusal;
  std::string firstError;
  Location firstErrorLoc = UnknownLoc::get(&context);
  ScopedDiagnosticHandler quiet(&context, [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error && firstError.empty()) {
      firstError = diag.str();
      firstErrorLoc = diag.getLocation();
    }
    return success();
  });
  BatchDependenceSink sink = [&](const BatchDependence &d) {
    if (!refusal)
      refusal = d;
  };
  auto explain = [&] {
    if (!why.empty() || (!refusal && firstError.empty()))
      return;
    Location loc = refusal ? refusal->loc : firstErrorLoc;
    std::string where;
    if (auto name = dyn_cast<NameLoc>(loc))
      where = "node '" + name.getName().str() + "': ";
    why = "the samples are not proven independent: " + where +
          (refusal ? refusal->finding : firstError);
  };
  ImportOptions probing = importOptions;
  probing.onBatchDependence = sink;
  OwningOpRef<ModuleOp> probe = importOnnxModel(context, path, model, probing);
  if (!probe) {
    explain();
    return nullptr;
  }
  PassManager pm(&context);
  addBatchProof(pm, sink);
  if (failed(pm.run(*probe))) {
    explain();
    return nullptr;
  }
  FailureOr<ModelInfo> probed = extractModelInfo(*probe, "probe");
  if (failed(probed)) {
    explain();
    return nullptr;
  }
  if (!parts)
    parts = chooseBatchSplit(*batch, *probe);
  extractBatchAxes(*probe, *probed);
  ImportOptions at = importOptions;
  at.dimValues[kSplitBatchDim.str()] = *batch / parts;
  OwningOpRef<ModuleOp> module = importOnnxModel(context, path, model, at);
  if (!module) {
    explain();
    return nullptr;
  }
  split.batch = *batch;
  split.parts = parts;
  split.axes = batchAxesOf(*probed);
  return module;
}

namespace {
/// A dynamic batch compiled for chunks of samples: what the per-sample
/// import proved and the chunk.
struct BatchChunk {
  std::string dim;
  int64_t size = 0;
  BatchAxes axes;
};
} // namespace

/// Runs the passes `build` adds on a copy of `module` with its diagnostics
/// silenced; the first error's text goes to `why`.
static OwningOpRef<ModuleOp>
tryPipeline(ModuleOp module, function_ref<void(OpPassManager &)> build,
            std::string &why) {
  MLIRContext *context = module.getContext();
  FirstError quiet(context, why);
  OwningOpRef<ModuleOp> copy = module.clone();
  PassManager pm(context);
  build(pm);
  if (failed(pm.run(*copy)))
    return nullptr;
  return copy;
}

/// Lowered to linalg only (index checks off: nothing runs).
static void addLowering(OpPassManager &pm) {
  pm.addPass(createLowerToLinalg());
}

/// A model imported with a dynamic batch (`perSample`, at one sample, the
/// samples proven apart at import): imports it again with the batch a
/// symbolic dimension 1..K, so that one call of the compiled code computes
/// up to K samples (`chunkOption`, or chosen from the model), or returns
/// null, with the reason in `why` when a chunk was wanted but cannot be
/// compiled (the batch then runs one sample per call).
static OwningOpRef<ModuleOp>
importChunkedBatch(MLIRContext &context, StringRef path,
                   const ImportOptions &importOptions, ModuleOp perSample,
                   int64_t chunkOption, BatchChunk &chunk, std::string &why) {
  auto dim = perSample->getAttrOfType<StringAttr>(kBatchDimAttr);
  if (!dim || chunkOption == 1)
    return nullptr;
  // The lowered program's own proof; its errors are reported by the
  // per-sample compile that follows a null return.
  std::string ignored;
  OwningOpRef<ModuleOp> probe = tryPipeline(
      perSample, [](OpPassManager &pm) { addBatchProof(pm); }, ignored);
  if (!probe)
    return nullptr;
  FailureOr<ModelInfo> probed = extractModelInfo(*probe, "probe");
  if (failed(probed))
    return nullptr;
  extractBatchAxes(*probe, *probed);
  int64_t size = chunkOption ? chunkOption : chooseBatchChunk(*probe);
  if (size < 2)
    return nullptr;
  for (const TensorInfo &t : probed->outputs)
    if (!t.maxShape.empty() ||
        llvm::any_of(t.shape, [](int64_t d) { return d < 0; })) {
      why = "output '" + t.name + "' has a data-dependent shape";
      return nullptr;
    }
  ImportOptions at = importOptions;
  at.dimRanges[dim.str()] = DimRange{1, size};
  OwningOpRef<ModuleOp> module;
  {
    FirstError quiet(&context, why);
    module = importOnnxFile(context, path, at);
  }
  if (!module || !tryPipeline(*module, addLowering, why)) {
    if (why.empty())
      why = "the model does not import with a symbolic batch";
    return nullptr;
  }
  chunk.dim = dim.str();
  chunk.size = size;
  chunk.axes = batchAxesOf(*probed);
  return module;
}

/// Gives `info` (read from the module compiled with the batch a symbolic
/// dimension 1..chunk.size) the dynamic batch's description: the batched
/// tensors' shapes hold 1 at the batch axis and their sizes are one
/// sample's, as for a batch run one sample per call.
static LogicalResult applyBatchChunk(const BatchChunk &chunk, ModelInfo &info,
                                     Location loc) {
  auto apply = [&](TensorInfo &t, int64_t axis) -> LogicalResult {
    int64_t others = llvm::count_if(t.shape, [](int64_t d) { return d < 0; });
    if (axis < 0) {
      if (others)
        return emitError(loc) << "batch chunk: '" << t.name
                              << "' has dynamic dimensions but no batch";
      return success();
    }
    if (axis >= (int64_t)t.shape.size() || t.shape[axis] >= 0 || others != 1 ||
        t.sizeBytes % chunk.size != 0)
      return emitError(loc)
             << "batch chunk: '" << t.name
             << "' is not dynamic along exactly its batch axis " << axis;
    t.batchAxis = axis;
    t.shape[axis] = 1;
    t.sizeBytes /= chunk.size;
    t.minShape.clear();
    t.maxShape.clear();
    t.dimNames.clear();
    return success();
  };
  if (failed(forEachBatchAxis(info, chunk.axes, "batch chunk", loc, apply)))
    return failure();
  info.batchDim = chunk.dim;
  info.batchChunk = chunk.size;
  return success();
}

/// Gives `info` (read from the module compiled at the sub-batch) the whole
/// batch: shapes and sizes of the batched tensors grow `split.parts` times.
static LogicalResult applyBatchSplit(const BatchSplit &split, ModelInfo &info,
                                     Location loc) {
  auto apply = [&](TensorInfo &t, int64_t axis) -> LogicalResult {
    if (axis < 0)
      return success();
    if (axis >= (int64_t)t.shape.size() ||
        t.shape[axis] * split.parts != split.batch)
      return emitError(loc)
             << "batch split: '" << t.name
             << "' has no dimension of the sub-batch at axis " << axis;
    // The whole batch's size, checked as the importer checks one tensor's.
    uint64_t bytes = 0;
    if (__builtin_mul_overflow(t.sizeBytes, static_cast<uint64_t>(split.parts),
                               &bytes) ||
        bytes > kMaxTensorBytes)
      return emitError(loc)
             << "'" << t.name << "' at the batch of " << split.batch
             << " needs more than 2^48 bytes (256 TiB), dlc's "
                "limit for one tensor";
    t.splitAxis = axis;
    t.shape[axis] *= split.parts;
    t.sizeBytes = bytes;
    return success();
  };
  if (failed(forEachBatchAxis(info, split.axes, "batch split", loc, apply)))
    return failure();
  info.batchSplit = split.parts;
  info.splitBatch = split.batch;
  return success();
}

namespace {
/// Reports each pass of a pipeline as the compile's phase.
class PhaseInstrumentation : public PassInstrumentation {
public:
  explicit PhaseInstrumentation(std::function<void(StringRef)> report)
      : report(std::move(report)) {}
  void runBeforePass(Pass *pass, Operation *) override {
    // Adaptors of nested pipelines have no argument; their passes report.
    if (!pass->getArgument().empty())
      report(("pass '" + pass->getArgument() + "'").str());
  }

private:
  std::function<void(StringRef)> report;
};
} // namespace

/// compileModel without the device-memory planning.
static LogicalResult compileOnce(MLIRContext &context, StringRef path,
                                 const CompileOptions &options, Stage stopAt,
                                 raw_ostream &out, CompiledModel &result) {
  registerPassesOnce();
  auto phase = [&](StringRef name) {
    if (options.onPhase)
      options.onPhase(name);
  };
  Location fileLoc = FileLineColLoc::get(&context, path, 0, 0);
  if (!isValidModelName(options.name))
    return emitError(fileLoc)
           << "--name '" << options.name << "' is not a C identifier";
  // --time-passes: one tree of wall times, import to machine code; the
  // report prints when the manager goes out of scope.
  DefaultTimingManager timing;
  timing.setEnabled(options.timePasses);
  TimingScope rootTimer = timing.getRootScope();

  ImportOptions importOptions;
  importOptions.knownInputs = options.knownInputs;
  importOptions.keepGoing = options.keepGoing;
  importOptions.exposeNodeOutputs = options.exposeNodeOutputs;
  importOptions.dimValues = options.dimValues;
  importOptions.dimRanges = options.dimRanges;
  TimingScope importTimer = rootTimer.nest("ONNX import");
  phase("ONNX import");
  // Constant subgraphs run with the CPU code; --time-passes shows their
  // total under the import.
  importOptions.evaluateConstants = [&](ModuleOp constants) {
    TimingScope evalTimer = importTimer.nest("constant evaluation");
    phase("constant evaluation");
    auto evaluated = evaluateConstantsOnCpu(constants);
    phase("ONNX import");
    return evaluated;
  };
  OwningOpRef<ModuleOp> module;
  BatchSplit split;
  // The graph-level views (--emit=mlir|linalg) show the whole batch.
  bool trySplit = options.batchSplit != 1 &&
                  (options.target == Target::Cpu || options.batchSplit >= 2) &&
                  stopAt >= Stage::Llvm && !options.keepGoing &&
                  !options.exposeNodeOutputs && options.dimRanges.empty();
  if (trySplit) {
    module = importSplitBatch(context, path, importOptions, options.batchSplit,
                              split, result.batchSplitSkipped);
    if (!module)
      split = BatchSplit();
  }
  if (!module)
    module = importOnnxFile(context, path, importOptions);
  if (!module)
    return failure();
  // A dynamic batch on the CPU runs in chunks of samples where that
  // compiles. CUDA kernels over dynamic sizes are not tiled yet
  // (dlc-gpu-select-strategy), so there it keeps one sample per call.
  BatchChunk chunk;
  if (options.target == Target::Cpu && stopAt >= Stage::Llvm &&
      !options.keepGoing && !options.exposeNodeOutputs &&
      options.dimRanges.empty())
    if (OwningOpRef<ModuleOp> chunked = importChunkedBatch(
            context, path, importOptions, *module, options.batchChunk, chunk,
            result.batchChunkSkipped))
      module = std::move(chunked);
  importTimer.stop();
  if (stopAt == Stage::Mlir) {
    module->print(out);
    return success();
  }

  auto target = resolveCpuTarget(options.mcpu, options.mtriple);
  if (!target)
    return emitError(fileLoc) << llvm::toString(target.takeError());
  FailureOr<ModelInfo> info = extractModelInfo(*module, options.name);
  if (failed(info))
    return failure();
  if (split.parts && failed(applyBatchSplit(split, *info, fileLoc)))
    return failure();
  // Output shapes that follow from symbolic input dimensions are computed
  // on the host on every target; the CUDA pipeline refuses shapes that
  // depend on values in device memory (dlc-gpu-map-to-blocks).
  if (info->numDynamicDims && split.parts)
    for (const TensorInfo &t : info->outputs)
      if (!t.maxShape.empty())
        return emitError(fileLoc)
               << "output '" << t.name
               << "' has a data-dependent shape, which dlc supports without "
                  "a batch split only";

  PassManager pm(&context);
  TimingScope pipelineTimer = rootTimer.nest("MLIR pipeline");
  if (options.timePasses)
    pm.enableTiming(pipelineTimer);
  if (options.onPhase)
    pm.addInstrumentation(std::make_unique<PhaseInstrumentation>(phase));
  bool cuda = options.target == Target::Cuda;
  bool emulated = options.target == Target::CudaEmulator;
  if (stopAt == Stage::Ptx && !cuda)
    return emitError(fileLoc) << "--emit=ptx needs --target cuda";
  if (cuda || emulated) {
    CudaPipelineOptions cudaOptions;
    cudaOptions.archs = options.gpuArchs;
    cudaOptions.warpgroups =
        dlc::CudaPipelineOptions::isArchSpecific(options.gpuArchs);
    cudaOptions.emulate = emulated;
    cudaOptions.precision = options.gpuPrecision;
    cudaOptions.placement = options.placement;
    cudaOptions.cpuNodes = options.cpuNodes;
    buildCudaPipeline(pm, cudaOptions, stopAt == Stage::Linalg);
  } else {
    CpuPipelineOptions pipelineOptions;
    pipelineOptions.vectorWidth = target->vectorWidth;
    pipelineOptions.vectorRegisters = target->vectorRegisters;
    pipelineOptions.maskedLoads = target->maskedLoads;
    pipelineOptions.maskedStores = target->maskedStores;
    pipelineOptions.scalarElementLoads = target->scalarElementLoads;
    pipelineOptions.profile = options.profile;
    if (options.cpuStateBytes >= 0)
      pipelineOptions.maxStateBytes = options.cpuStateBytes;
    buildCpuPipeline(pm, pipelineOptions, stopAt == Stage::Linalg);
  }
  if (failed(pm.run(*module)))
    return failure();
  pipelineTimer.stop();
  extractBatchAxes(*module, *info);
  if (failed(extractOutputBounds(*module, *info)))
    return failure();
  if (chunk.size && failed(applyBatchChunk(chunk, *info, fileLoc)))
    return failure();
  if (stopAt == Stage::Linalg && options.inspectLinalg) {
    options.inspectLinalg(*module, *info);
    return success();
  }
  if (stopAt == Stage::Linalg) {
    module->print(out);
    return success();
  }
  if (cuda) {
    FailureOr<CudaImages> images = extractCudaImages(*module);
    if (failed(images))
      return emitError(fileLoc) << "the CUDA pipeline produced no PTX";
    info->cuda = *images;
    if (stopAt == Stage::Ptx) {
      if (images->kernels.empty())
        out << "// dlc: no kernels (the model launches nothing)\n";
      for (auto [name, shared] :
           llvm::zip(images->kernels, images->kernelShared))
        out << "// dlc: kernel " << name << " shared " << shared << "\n";
      for (auto &[sm, ptx] : images->ptx)
        out << "// dlc: PTX for " << dlc::cudaArchName(sm) << ", "
            << images->kernels.size() << " kernels\n"
            << ptx << "\n";
      return success();
    }
    // Machine code for each architecture, where the toolkit is here; the
    // PTX stays for newer GPUs (and drivers that refuse the cubin).
    if (options.gpuCubins && !images->kernels.empty()) {
      std::string ptxas = findPtxas();
      if (!ptxas.empty()) {
        phase("ptxas");
        if (llvm::Error err = assembleCubins(*info->cuda, ptxas))
          return emitError(fileLoc)
                 << "assembling the CUDA kernels into cubins failed: "
                 << toString(std::move(err))
                 << " (--gpu-cubin off embeds the PTX alone)";
      }
    }
  }
  info->cudaEmulated = emulated;
  info->workspaceSize = extractWorkspaceSize(*module);
  info->workspaceLiveSet = extractWorkspaceLiveSet(*module);
  extractChecks(*module, *info);
  extractProfile(*module, *info);
  extractHostParts(*module, *info);
  extractState(*module, *info);
  result.info = *info;
  if (options.inspectPlan) {
    options.inspectPlan(*info);
    return success();
  }

  auto tm = createTargetMachine(*target);
  if (!tm)
    return emitError(fileLoc) << llvm::toString(tm.takeError());
  llvm::LLVMContext llvmContext;
  TimingScope translateTimer = rootTimer.nest("Translate to LLVM IR");
  phase("translation to LLVM IR");
  auto llvmModule = translateToLLVM(*module, llvmContext, **tm);
  translateTimer.stop();
  if (!llvmModule)
    return emitError(fileLoc) << llvm::toString(llvmModule.takeError());
  if (llvm::Error err = addModelAbi(**llvmModule, *info, options.apiWrappers))
    return emitError(fileLoc) << llvm::toString(std::move(err));
  TimingScope optTimer = rootTimer.nest("LLVM O3");
  phase("LLVM O3");
  optimizeModule(**llvmModule, **tm);
  optTimer.stop();
  if (stopAt == Stage::Llvm) {
    (*llvmModule)->print(out, nullptr);
    return success();
  }
  llvm::SmallVector<char, 0> code;
  EmitKind kind = stopAt == Stage::Asm ? EmitKind::Assembly : EmitKind::Object;
  TimingScope codegenTimer = rootTimer.nest("LLVM machine code");
  phase("LLVM machine code");
  if (llvm::Error err = emitMachineCode(**llvmModule, **tm, kind, code))
    return emitError(fileLoc) << llvm::toString(std::move(err));
  codegenTimer.stop();
  if (stopAt == Stage::Asm) {
    out << llvm::StringRef(code.data(), code.size());
    return success();
  }
  result.object = std::move(code);
  return success();
}

/// The device memory one run of a CUDA model needs (as create checks it):
/// the workspace, the constants (the weights on the emulator) and the
/// device copies of one call's inputs and outputs.
static uint64_t deviceBytes(const ModelInfo &info) {
  uint64_t bytes = info.workspaceSize +
                   (info.cuda ? info.cuda->constantsSize : info.weightsSize);
  for (const auto *list : {&info.inputs, &info.outputs})
    for (const TensorInfo &t : *list)
      bytes += t.splitAxis >= 0 && info.batchSplit
                   ? t.sizeBytes / info.batchSplit
                   : t.sizeBytes;
  return bytes;
}

/// Bytes for the compile's report: exact below 10 KiB, else in KiB, MiB
/// or GiB with one decimal.
static std::string human(uint64_t bytes) {
  if (bytes < 10240)
    return std::to_string(bytes) + " bytes";
  double value = double(bytes);
  const char *unit = "KiB";
  for (const char *next : {"MiB", "GiB"}) {
    if (value < 10240.0 * 1024)
      break;
    value /= 1024;
    unit = next;
  }
  return llvm::formatv("{0:f1} {1}", value / 1024, unit).str();
}

LogicalResult dlc::compileModel(MLIRContext &context, StringRef path,
                                const CompileOptions &options, Stage stopAt,
                                raw_ostream &out, CompiledModel &result) {
  bool gpu =
      options.target == Target::Cuda || options.target == Target::CudaEmulator;
  if (!gpu || !options.gpuMemory || options.batchSplit != 0 ||
      stopAt < Stage::Llvm || options.inspectPlan || options.keepGoing ||
      options.exposeNodeOutputs)
    return compileOnce(context, path, options, stopAt, out, result);
  Location fileLoc = FileLineColLoc::get(&context, path, 0, 0);
  uint64_t budget = options.gpuMemory;
  // The memory plan of the model compiled as `parts` sub-batches (1:
  // whole), up to its PTX; `split` says whether it was split as asked.
  auto probe = [&](int64_t parts, ModelInfo &info,
                   std::string &why) -> LogicalResult {
    CompileOptions o = options;
    o.batchSplit = parts;
    o.onPhase = nullptr;
    bool planned = false;
    o.inspectPlan = [&](const ModelInfo &i) {
      info = i;
      planned = true;
    };
    CompiledModel r;
    if (failed(compileOnce(context, path, o, Stage::Obj, llvm::nulls(), r)) ||
        !planned)
      return failure();
    why = r.batchSplitSkipped;
    return success();
  };
  auto compileWith = [&](int64_t parts) {
    CompileOptions o = options;
    o.batchSplit = parts;
    return compileOnce(context, path, o, stopAt, out, result);
  };
  ModelInfo whole;
  std::string why;
  if (failed(probe(1, whole, why)))
    return failure();
  uint64_t need = deviceBytes(whole);
  if (need <= budget) {
    if (failed(compileWith(1)))
      return failure();
    result.memoryPlan =
        llvm::formatv("device memory: a run needs {0} of the --gpu-memory "
                      "of {1}",
                      human(need), human(budget))
            .str();
    return success();
  }
  auto tooLarge = [&]() {
    return emitError(fileLoc)
           << "a run needs " << human(need) << " of device memory (workspace "
           << human(whole.workspaceSize)
           << ", constants and device copies of the inputs and outputs), "
              "more than the --gpu-memory of "
           << human(budget);
  };
  if (!whole.batchDim.empty())
    return tooLarge() << " for one sample of the dynamic batch '"
                      << whole.batchDim << "'";
  // The batch, and the sub-batches that divide it, fewest first: the first
  // whose estimate (the constants once, the rest in proportion) fits is
  // compiled and checked against its own plan.
  onnx::ModelProto model;
  std::string error;
  FailureOr<int64_t> batch = failure();
  if (loadModel(path.str(), model, error))
    batch = makeBatchSymbolic(model, error);
  if (failed(batch) || *batch < 2)
    return tooLarge() << ", and its batch cannot run as sub-batches: "
                      << (failed(batch) ? error
                                        : std::string("the batch is 1"));
  uint64_t fixed = whole.cuda ? whole.cuda->constantsSize : whole.weightsSize;
  int tries = 0;
  for (int64_t parts = 2; parts <= *batch && tries < 4; ++parts) {
    if (*batch % parts != 0 ||
        fixed + (need - fixed) / uint64_t(parts) > budget)
      continue;
    ++tries;
    ModelInfo split;
    if (failed(probe(parts, split, why)))
      return failure();
    if (!split.batchSplit)
      return tooLarge() << ", and its batch of " << *batch
                        << " cannot run as sub-batches: " << why;
    uint64_t part = deviceBytes(split);
    if (part > budget)
      continue;
    if (failed(compileWith(parts)))
      return failure();
    result.memoryPlan =
        llvm::formatv(
            "device memory: the batch of {0} needs {1}, more than "
            "the --gpu-memory of {2}: it runs as {3} sub-batches of {4}, "
            "each needing {5}",
            *batch, human(need), human(budget), parts, *batch / parts,
            human(part))
            .str();
    return success();
  }
  return tooLarge() << ", even as sub-batches of the batch of " << *batch
                    << " (the constants alone take " << human(fixed) << ")";
}
