//===- Pipeline.cpp - the CUDA pipeline, built in one place ---------------===//
#include "codegen/common/Passes.h"
#include "codegen/gpu/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"

#include "mlir/Transforms/Passes.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include <limits>

using namespace mlir;

bool dlc::CudaPipelineOptions::isArchSpecific(
    const std::vector<std::string> &archs) {
  return llvm::any_of(
      archs, [](const std::string &a) { return StringRef(a).ends_with("a"); });
}

std::string dlc::CudaPipelineOptions::findLibdevice() {
  SmallVector<std::string> roots;
  for (const char *var : {"CUDA_HOME", "CUDA_PATH", "CUDA_ROOT"})
    if (const char *v = getenv(var); v && *v)
      roots.push_back(v);
  roots.push_back("/usr/local/cuda");
  // The toolkit whose ptxas is on PATH (bin/ptxas -> nvvm/libdevice).
  if (llvm::ErrorOr<std::string> ptxas = llvm::sys::findProgramByName("ptxas")) {
    SmallString<256> real;
    if (!llvm::sys::fs::real_path(*ptxas, real))
      roots.push_back(llvm::sys::path::parent_path(
                          llvm::sys::path::parent_path(real))
                          .str());
  }
  for (const std::string &root : roots) {
    SmallString<256> path(root);
    llvm::sys::path::append(path, "nvvm", "libdevice", "libdevice.10.bc");
    if (llvm::sys::fs::exists(path))
      return path.str().str();
  }
  const char *debian = "/usr/lib/nvidia-cuda-toolkit/libdevice/libdevice.10.bc";
  return llvm::sys::fs::exists(debian) ? debian : "";
}

/// Tile and fuse on tensors into block and thread foralls (each block
/// forall a kernel), vectorize the threads' tiles, bufferize into the static
/// workspace, give the entry the CUDA host ABI, map the foralls to
/// gpu.launch, turn each remaining linalg op into a grid of threads and
/// outline the kernels.
static void buildKernels(OpPassManager &pm,
                         const dlc::CudaPipelineOptions &opts) {
  using namespace dlc;
  {
    OpPassManager &fpm = pm.nest<func::FuncOp>();
    GpuSelectStrategyOptions strategy;
    strategy.precision = opts.precision;
    strategy.warpgroups = opts.warpgroups;
    fpm.addPass(createGpuSelectStrategy(strategy));
    fpm.addPass(createGpuTileAndFuse());
    fpm.addPass(createGpuVectorize());
    fpm.addPass(createGpuRoundOperands());
    fpm.addPass(createCanonicalizerPass());
    fpm.addPass(createCSEPass());
  }
  buildBufferizePipeline(pm);
  pm.addPass(createGpuOutlineHostParts());
  pm.addPass(createMemoryPlan());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createHostAbi());
  {
    OpPassManager &fpm = pm.nest<func::FuncOp>();
    fpm.addPass(createGpuMapForall());
    fpm.addPass(createGpuLowerWarpReductions());
    fpm.addPass(createCanonicalizerPass());
    fpm.addPass(createCSEPass());
    fpm.addPass(createGpuHoistAccumulators());
    fpm.addPass(createCanonicalizerPass());
    fpm.addPass(createCSEPass());
    fpm.addPass(createGpuVectorToMma());
    fpm.addPass(createGpuVectorToWgmma());
    fpm.addPass(createCanonicalizerPass());
    fpm.addPass(createCSEPass());
    fpm.addPass(createGpuLowerVectors());
    fpm.addPass(createCanonicalizerPass());
    fpm.addPass(createCSEPass());
    fpm.addPass(createGpuPipelineKLoops());
    fpm.addPass(createGpuPlanSharedMemory());
    fpm.addPass(createCanonicalizerPass());
    fpm.addPass(createCSEPass());
    fpm.addPass(createConvertVectorToSCFPass(
        VectorTransferToSCFOptions().enableFullUnroll()));
    fpm.addPass(createCopyToLinalg());
    fpm.addPass(createLinalgGeneralizeNamedOpsPass());
    fpm.addPass(createParallelAny());
    fpm.addPass(createInterchangeReductions());
    fpm.addPass(createConvertLinalgToParallelLoopsPass());
    fpm.addPass(createCanonicalizerPass());
    fpm.addPass(createPromoteAccumulators());
    MapToBlocksOptions blocks;
    blocks.blockSize = opts.blockSize;
    fpm.addPass(createMapToBlocks(blocks));
    fpm.addPass(createGpuLowerTransfers());
  }
  pm.addPass(createConvertMathToFuncs());
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(createMergeKernelModules());
  pm.addPass(createGpuOccupancy());
}

/// cuda-emulator: kernels become host functions called per thread.
static void buildEmulator(OpPassManager &pm) {
  using namespace dlc;
  pm.addPass(createEmulateKernels());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createDynamicExpandShapes());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createConvertVectorToLLVMPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  buildHostToLLVMPipeline(pm);
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createEmulatorLaunches());
}

/// Kernels to PTX through NVVM (with libdevice), launches to runtime calls.
static void buildPtx(OpPassManager &pm, const dlc::CudaPipelineOptions &opts) {
  using namespace dlc;
  pm.addPass(createDynamicExpandShapes());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // PTX ISA 8.0 (CUDA 12.0) covers sm_90; the default ISA is too old for it.
  for (const std::string &arch : opts.archs) {
    GpuNVVMAttachTargetOptions target;
    target.chip = arch;
    target.features = "+ptx80";
    target.optLevel = 3;
    if (!opts.libdevice.empty())
      target.linkLibs.push_back(opts.libdevice);
    pm.addPass(createGpuNVVMAttachTarget(target));
  }
  {
    OpPassManager &kpm = pm.nest<gpu::GPUModuleOp>();
    kpm.addPass(createGpuLowerWarpgroupMma());
    kpm.addPass(createConvertNVGPUToNVVMPass());
    kpm.addPass(createConvertVectorToLLVMPass());
    ConvertGpuOpsToNVVMOpsOptions toNvvm;
    toNvvm.useBarePtrCallConv = true;
    kpm.addPass(createConvertGpuOpsToNVVMOps(toNvvm));
    kpm.addPass(createCanonicalizerPass());
    kpm.addPass(createCSEPass());
    kpm.addPass(createReconcileUnrealizedCastsPass());
  }
  GpuToLLVMConversionPassOptions toLLVM;
  toLLVM.hostBarePtrCallConv = true;
  toLLVM.kernelBarePtrCallConv = true;
  pm.addPass(createGpuToLLVMConversionPass(toLLVM));
  pm.addPass(createReconcileUnrealizedCastsPass());
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = "isa";
  pm.addPass(createGpuModuleToBinaryPass(binary));
  pm.addPass(createLaunchToRuntime());
  pm.addPass(createCanonicalizerPass());
}

void dlc::buildCudaPipeline(OpPassManager &pm, const CudaPipelineOptions &opts,
                            bool untilLinalg) {
  // Grouped convolutions with few channels per group tap by tap (one
  // elementwise kernel), the others in generic form.
  GroupedConvTapsOptions grouped;
  grouped.minFilterLanes = std::numeric_limits<int64_t>::max();
  grouped.generalize = true;
  buildGraphToLinalgPipeline(pm, /*indexChecks=*/true, grouped);
  if (untilLinalg)
    return;
  {
    OpPassManager &fpm = pm.nest<func::FuncOp>();
    fpm.addPass(createGpuConvToGemm());
    fpm.addPass(createCanonicalizerPass());
    fpm.addPass(createCSEPass());
    fpm.addPass(createGpuFoldRowBroadcasts());
    fpm.addPass(createCanonicalizerPass());
    fpm.addPass(createCSEPass());
  }
  GpuSelectPlacementOptions placement;
  placement.mode = opts.placement;
  placement.cpuNodes.assign(opts.cpuNodes.begin(), opts.cpuNodes.end());
  placement.gpuName = opts.placementGpu;
  pm.addPass(createGpuSelectPlacement(placement));
  buildKernels(pm, opts);
  if (opts.emulate)
    buildEmulator(pm);
  else
    buildPtx(pm, opts);
}

namespace {
/// The pipelines' options on the dlc-opt command line.
struct CudaPipelineCliOptions
    : public PassPipelineOptions<CudaPipelineCliOptions> {
  Option<std::string> precision{
      *this, "precision",
      llvm::cl::desc("contractions' precision: f32, tf32, f16 or bf16"),
      llvm::cl::init("f32")};
  Option<std::string> archs{
      *this, "archs",
      llvm::cl::desc("comma-separated PTX targets (sm_90a alone: Hopper's "
                     "warpgroup instructions)"),
      llvm::cl::init("sm_80,sm_90")};
  Option<std::string> placement{
      *this, "placement",
      llvm::cl::desc("kernels on the CPU: gpu (only cpu-nodes), auto (the "
                     "cost model) or off"),
      llvm::cl::init("gpu")};
  ListOption<std::string> cpuNodes{
      *this, "cpu-nodes",
      llvm::cl::desc("ONNX nodes whose kernels run on the CPU")};
  Option<bool> warpgroups{
      *this, "warpgroups",
      llvm::cl::desc("emulator: the schedule of sm_90a (wgmma)"),
      llvm::cl::init(false)};
};

static dlc::CudaPipelineOptions fromCli(const CudaPipelineCliOptions &cli) {
  dlc::CudaPipelineOptions opts;
  opts.precision = cli.precision;
  opts.archs.clear();
  llvm::SmallVector<llvm::StringRef> parts;
  llvm::StringRef(cli.archs).split(parts, ',');
  for (llvm::StringRef arch : parts)
    opts.archs.push_back(arch.str());
  opts.warpgroups =
      cli.warpgroups || dlc::CudaPipelineOptions::isArchSpecific(opts.archs);
  opts.placement = cli.placement;
  opts.cpuNodes.assign(cli.cpuNodes.begin(), cli.cpuNodes.end());
  return opts;
}
} // namespace

void dlc::registerCudaPipeline() {
  PassPipelineRegistration<CudaPipelineCliOptions>(
      "dlc-cuda-pipeline",
      "lower dlc ops to host LLVM code launching PTX kernels (sm_80, sm_90)",
      [](OpPassManager &pm, const CudaPipelineCliOptions &cli) {
        buildCudaPipeline(pm, fromCli(cli));
      });
  PassPipelineRegistration<CudaPipelineCliOptions>(
      "dlc-cuda-emulator-pipeline",
      "lower dlc ops to host LLVM code running the CUDA kernels on the CPU",
      [](OpPassManager &pm, const CudaPipelineCliOptions &cli) {
        CudaPipelineOptions opts = fromCli(cli);
        opts.emulate = true;
        buildCudaPipeline(pm, opts);
      });
}
