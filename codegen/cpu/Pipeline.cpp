//===- Pipeline.cpp - the CPU pipeline, built in one place ----------------===//
#include "codegen/common/Passes.h"
#include "codegen/cpu/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void dlc::buildCpuPipeline(OpPassManager &pm, const CpuPipelineOptions &opts,
                           bool untilLinalg) {
  // Groups of at least 8 filters (a 256-bit vector) or a whole vector run
  // vectorized along their filters; smaller ones tap by tap along the
  // output columns (measured on RegNetY's and ResNeXt's grouped
  // convolutions, docs/performance.md).
  GroupedConvTapsOptions grouped;
  grouped.minFilterLanes = std::min<int64_t>(opts.vectorWidth, 8);
  buildGraphToLinalgPipeline(pm, /*indexChecks=*/true, grouped);
  if (untilLinalg)
    return;
  // Tile, fuse and vectorize on tensors.
  {
    OpPassManager &fpm = pm.nest<func::FuncOp>();
    PackMatmulOperandsOptions pack;
    pack.vectorWidth = opts.vectorWidth;
    pack.vectorRegisters = opts.vectorRegisters;
    fpm.addPass(createPackMatmulOperands(pack));
    PointwiseConvsOptions pointwise;
    pointwise.vectorWidth = opts.vectorWidth;
    fpm.addPass(createPointwiseConvs(pointwise));
    fpm.addPass(memref::createResolveRankedShapeTypeResultDimsPass());
    fpm.addPass(createCanonicalizerPass());
    SelectTilingOptions tiling;
    tiling.vectorWidth = opts.vectorWidth;
    tiling.vectorRegisters = opts.vectorRegisters;
    fpm.addPass(createSelectTiling(tiling));
    fpm.addPass(createTileAndFuse());
    fpm.addPass(createVersionPartialTiles());
    fpm.addPass(createCanonicalizerPass());
    fpm.addPass(createCSEPass());
    fpm.addPass(createVectorize());
    fpm.addPass(createPackConstantReads());
    fpm.addPass(createCanonicalizerPass());
    fpm.addPass(createCSEPass());
    fpm.addPass(createLoopInvariantSubsetHoistingPass());
    FoldLoopTransposesOptions transposes;
    transposes.vectorWidth = opts.vectorWidth;
    fpm.addPass(createFoldLoopTransposes(transposes));
    fpm.addPass(createCanonicalizerPass());
    fpm.addPass(createDecomposePads());
    fpm.addPass(createInsertParts());
  }
  // Bufferize into the static workspace.
  buildBufferizePipeline(pm);
  {
    OpPassManager &fpm = pm.nest<func::FuncOp>();
    fpm.addPass(createEraseCopiesInPlace());
    FillBordersOnceOptions borders;
    borders.maxStateBytes = opts.maxStateBytes;
    fpm.addPass(createFillBordersOnce(borders));
    if (opts.profile)
      fpm.addPass(createProfileKernels());
  }
  pm.addPass(createMemoryPlan());
  pm.addPass(createCanonicalizerPass());
  {
    OpPassManager &fpm = pm.nest<func::FuncOp>();
    fpm.addPass(createPrefetchConstantBlocks());
    fpm.addPass(createParallelCopies());
    fpm.addPass(createForallToParallelLoopPass());
  }
  pm.addPass(createConvertSCFToOpenMPPass());
  // Loops, vectors and OpenMP regions to the LLVM dialect.
  {
    OpPassManager &fpm = pm.nest<func::FuncOp>();
    OpenMPThreadsOptions threads;
    threads.vectorWidth = opts.vectorWidth;
    fpm.addPass(createOpenMPThreads(threads));
    CopyToLinalgOptions copies;
    copies.keepContiguous = true;
    fpm.addPass(createCopyToLinalg(copies));
    fpm.addPass(createConvertLinalgToLoopsPass());
    LowerVectorsOptions lower;
    lower.scalarElementLoads = opts.scalarElementLoads;
    fpm.addPass(createLowerVectors(lower));
    fpm.addPass(createConvertVectorToSCFPass(
        VectorTransferToSCFOptions().enableFullUnroll()));
    WidenPartialVectorsOptions widen;
    widen.maskedLoads = opts.maskedLoads;
    widen.maskedStores = opts.maskedStores;
    fpm.addPass(createWidenPartialVectors(widen));
    fpm.addPass(createLowerAffinePass());
    fpm.addPass(createSCFToControlFlowPass());
    fpm.addPass(createDynamicExpandShapes());
  }
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createConvertMathToFuncs());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  ConvertVectorToLLVMPassOptions vectorToLLVM;
  vectorToLLVM.vectorContractLowering =
      vector::VectorContractLowering::OuterProduct;
  vectorToLLVM.vectorTransposeLowering =
      vector::VectorTransposeLowering::Shuffle1D;
  pm.addPass(createConvertVectorToLLVMPass(vectorToLLVM));
  buildHostToLLVMPipeline(pm);
  pm.addPass(createConvertOpenMPToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createFlattenConstantGlobals());
}

namespace {
/// dlc-opt's options of `dlc-cpu-pipeline` (defaults: AVX-512's).
struct CpuPipelineCLOptions : public PassPipelineOptions<CpuPipelineCLOptions> {
  Option<int64_t> vectorWidth{*this, "vector-width",
                              llvm::cl::desc("f32 lanes per vector register"),
                              llvm::cl::init(16)};
  Option<int64_t> vectorRegisters{*this, "vector-registers",
                                  llvm::cl::desc("vector registers"),
                                  llvm::cl::init(32)};
  Option<bool> maskedStores{*this, "masked-stores",
                            llvm::cl::desc("masked vector stores are fast"),
                            llvm::cl::init(true)};
};
} // namespace

void dlc::registerCpuPipeline() {
  PassPipelineRegistration<CpuPipelineCLOptions>(
      "dlc-cpu-pipeline",
      "lower dlc ops to the LLVM dialect for the host CPU (AVX2: "
      "vector-width=8 vector-registers=16 masked-stores=false)",
      [](OpPassManager &pm, const CpuPipelineCLOptions &cl) {
        CpuPipelineOptions opts;
        opts.vectorWidth = cl.vectorWidth;
        opts.vectorRegisters = cl.vectorRegisters;
        opts.maskedStores = cl.maskedStores;
        buildCpuPipeline(pm, opts);
      });
}
