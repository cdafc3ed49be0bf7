//===- Pipeline.cpp - the graph-to-linalg front shared by all targets -----===//
#include "codegen/common/Passes.h"
#include "passes/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

/// Graph level: dlc ops to linalg on tensors, fused elementwise.
/// dlc-check-batch-independence runs before canonicalization, which would
/// fold the index of a unit batch loop to 0.
void dlc::buildGraphToLinalgPipeline(OpPassManager &pm, bool indexChecks,
                                     const GroupedConvTapsOptions &grouped) {
  LowerToLinalgOptions lower;
  lower.indexChecks = indexChecks;
  pm.addPass(createLowerToLinalg(lower));
  pm.addPass(createCheckBatchIndependence());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createBoundedArguments());
  pm.addPass(memref::createResolveRankedShapeTypeResultDimsPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createBoundedResults());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addNestedPass<func::FuncOp>(createZeroSizeTensors());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addNestedPass<func::FuncOp>(createGroupedConvTaps(grouped));
  pm.addNestedPass<func::FuncOp>(createFuseElementwise());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addNestedPass<func::FuncOp>(createResolveCarriedDims());
}

/// Tensors to buffers: loop-carried values and dynamic tensors given their
/// buffers, one-shot bufferization with identity layouts at the function
/// boundary, results turned into out-parameters.
void dlc::buildBufferizePipeline(OpPassManager &pm) {
  {
    OpPassManager &fpm = pm.nest<func::FuncOp>();
    fpm.addPass(createCarryLoopValuesInPlace());
    fpm.addPass(createResolveCarriedDims());
  }
  pm.addPass(bufferization::createEmptyTensorEliminationPass());
  pm.addNestedPass<func::FuncOp>(createBoundDynamicTensors());
  pm.addPass(bufferization::createEmptyTensorToAllocTensorPass());
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  {
    OpPassManager &fpm = pm.nest<func::FuncOp>();
    fpm.addPass(createBoundDynamicAllocs());
    fpm.addPass(createDistinctResults());
  }
  bufferization::BufferResultsToOutParamsPassOptions outParams;
  outParams.hoistStaticAllocs = true;
  outParams.modifyPublicFunctions = true;
  pm.addPass(bufferization::createBufferResultsToOutParamsPass(outParams));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void dlc::buildHostToLLVMPipeline(OpPassManager &pm) {
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  ConvertFuncToLLVMPassOptions funcToLLVM;
  funcToLLVM.useBarePtrCallConv = true;
  pm.addPass(createConvertFuncToLLVMPass(funcToLLVM));
}
