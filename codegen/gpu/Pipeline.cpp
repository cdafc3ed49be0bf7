//===- Pipeline.cpp - the CUDA pipeline, built in one place ---------------===//
#include "codegen/common/Passes.h"
#include "codegen/gpu/Passes.h"

#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

/// Tile and fuse on tensors into block and thread foralls (each block
/// forall a kernel), vectorize the threads' tiles, bufferize into the static
/// workspace, give the entry the CUDA host ABI, map the foralls to
/// gpu.launch, turn each remaining linalg op into a grid of threads and
/// outline the kernels.
static const char *kPrologue =
    "func.func(dlc-gpu-conv-to-gemm,canonicalize,cse,dlc-gpu-fold-row-"
    "broadcasts,canonicalize,cse)";

/// After the placement (dlc-gpu-select-placement, built in C++: node
/// names are not pass-option text).
static const char *kToKernels =
    "func.func(dlc-gpu-select-strategy{{precision={1} warpgroups={2}},"
    "dlc-gpu-tile-and-fuse,dlc-gpu-vectorize,dlc-gpu-round-operands,"
    "canonicalize,cse),"
    "func.func(dlc-carry-loop-values-in-place,dlc-resolve-carried-dims),"
    "eliminate-empty-tensors,"
    "func.func(dlc-bound-dynamic-tensors),empty-tensor-to-alloc-tensor,"
    "one-shot-bufferize{{bufferize-function-boundaries=1 "
    "function-boundary-type-conversion=identity-layout-map},"
    "func.func(dlc-bound-dynamic-allocs,dlc-distinct-results),buffer-"
    "results-to-out-params{{hoist-"
    "static-allocs=1 modify-public-functions=1},"
    "canonicalize,cse,dlc-gpu-outline-host-parts,dlc-memory-plan,"
    "canonicalize,dlc-gpu-host-abi,"
    "func.func(dlc-gpu-map-forall,dlc-gpu-lower-warp-reductions,canonicalize,"
    "cse,"
    "dlc-gpu-hoist-accumulators,"
    "canonicalize,cse,dlc-gpu-vector-to-mma,dlc-gpu-vector-to-wgmma,"
    "canonicalize,"
    "cse,"
    "dlc-gpu-lower-vectors,canonicalize,cse,dlc-gpu-pipeline-"
    "k-loops,"
    "dlc-gpu-plan-shared-memory,canonicalize,cse,"
    "convert-vector-to-scf{{full-unroll=1},"
    "dlc-copy-to-linalg,linalg-generalize-named-ops,dlc-gpu-parallel-any,"
    "dlc-gpu-interchange-reductions,convert-linalg-to-parallel-loops,"
    "canonicalize,dlc-gpu-promote-accumulators,"
    "dlc-gpu-map-to-blocks{{block-size={0}},dlc-gpu-lower-transfers),"
    "convert-math-to-funcs,gpu-kernel-outlining,dlc-gpu-merge-kernel-modules,"
    "dlc-gpu-occupancy";

/// Kernels to PTX through NVVM (with libdevice), launches to runtime calls.
static const char *kToPtx =
    "dlc-dynamic-expand-shapes,expand-strided-metadata,lower-affine,convert-"
    "scf-to-cf,canonicalize,cse,{0}"
    "gpu.module(dlc-gpu-lower-warpgroup-mma,convert-nvgpu-to-nvvm,convert-"
    "vector-to-llvm,convert-gpu-to-"
    "nvvm{{use-bare-ptr-memref-call-conv=1},"
    "canonicalize,cse,reconcile-unrealized-casts),"
    "gpu-to-llvm{{use-bare-pointers-for-host=1 "
    "use-bare-pointers-for-kernels=1},"
    "reconcile-unrealized-casts,"
    "gpu-module-to-binary{{format=isa},dlc-gpu-launch-to-runtime,canonicalize";

/// cuda-emulator: kernels become host functions called per thread.
static const char *kEmulate =
    "dlc-gpu-emulate-kernels,canonicalize,dlc-dynamic-expand-shapes,"
    "expand-strided-metadata,lower-affine,"
    "convert-scf-to-cf,convert-math-to-llvm,convert-math-to-libm,convert-"
    "vector-to-llvm,"
    "finalize-memref-to-llvm,convert-arith-to-llvm,convert-ub-to-llvm,"
    "convert-cf-to-llvm,convert-func-to-llvm{use-bare-ptr-memref-call-conv=1},"
    "reconcile-unrealized-casts,canonicalize,dlc-gpu-emulator-launches";

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

void dlc::buildCudaPipeline(OpPassManager &pm, const CudaPipelineOptions &opts,
                            bool untilLinalg) {
  buildGraphToLinalgPipeline(pm, /*indexChecks=*/true);
  if (untilLinalg)
    return;
  if (failed(parsePassPipeline(kPrologue, pm, llvm::errs())))
    llvm::report_fatal_error("dlc: invalid built-in CUDA pipeline");
  GpuSelectPlacementOptions placement;
  placement.mode = opts.placement;
  placement.cpuNodes.assign(opts.cpuNodes.begin(), opts.cpuNodes.end());
  placement.gpuName = opts.placementGpu;
  pm.addPass(createGpuSelectPlacement(placement));
  std::string kernels =
      llvm::formatv(kToKernels, opts.blockSize, opts.precision,
                    opts.warpgroups ? "true" : "false")
          .str();
  if (opts.emulate) {
    if (failed(parsePassPipeline(kernels + "," + kEmulate, pm, llvm::errs())))
      llvm::report_fatal_error("dlc: invalid built-in CUDA emulator pipeline");
    return;
  }
  // PTX ISA 8.0 (CUDA 12.0) covers sm_90; the default ISA is too old for it.
  std::string attach;
  for (const std::string &arch : opts.archs)
    attach += "nvvm-attach-target{chip=" + arch + " features=+ptx80 O=3" +
              (opts.libdevice.empty() ? "" : " l=" + opts.libdevice) + "},";
  std::string text = kernels + "," + llvm::formatv(kToPtx, attach).str();
  if (failed(parsePassPipeline(text, pm, llvm::errs())))
    llvm::report_fatal_error("dlc: invalid built-in CUDA pipeline");
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
