//===- Compiler.cpp - ONNX file -> generated model, end to end ------------===//
#include "tools/driver/Compiler.h"

#include "codegen/ModelAbi.h"
#include "codegen/cpu/Passes.h"
#include "codegen/cpu/Target.h"
#include "codegen/gpu/Passes.h"
#include "frontend/Importer.h"
#include "ir/DlcDialect.h"
#include "passes/Passes.h"

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

using namespace mlir;

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

static void registerPassesOnce() {
  static bool done = [] {
    registerAllPasses();
    dlc::registerDlcPasses();
    dlc::registerDlcCpuPasses();
    dlc::registerDlcGpuPasses();
    return true;
  }();
  (void)done;
}

LogicalResult dlc::compileModel(MLIRContext &context, StringRef path,
                                const CompileOptions &options, Stage stopAt,
                                raw_ostream &out, CompiledModel &result) {
  registerPassesOnce();
  Location fileLoc = FileLineColLoc::get(&context, path, 0, 0);
  if (!isValidModelName(options.name))
    return emitError(fileLoc) << "--name '" << options.name
                              << "' is not a C identifier";
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
  TimingScope importTimer = rootTimer.nest("ONNX import");
  OwningOpRef<ModuleOp> module = importOnnxFile(context, path, importOptions);
  importTimer.stop();
  if (!module)
    return failure();
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

  PassManager pm(&context);
  TimingScope pipelineTimer = rootTimer.nest("MLIR pipeline");
  if (options.timePasses)
    pm.enableTiming(pipelineTimer);
  bool cuda = options.target == Target::Cuda;
  bool emulated = options.target == Target::CudaEmulator;
  if (stopAt == Stage::Ptx && !cuda)
    return emitError(fileLoc) << "--emit=ptx needs --target cuda";
  if (cuda || emulated) {
    CudaPipelineOptions cudaOptions;
    cudaOptions.archs = options.gpuArchs;
    cudaOptions.emulate = emulated;
    buildCudaPipeline(pm, cudaOptions, stopAt == Stage::Linalg);
  } else {
    CpuPipelineOptions pipelineOptions;
    pipelineOptions.vectorWidth = target->vectorWidth;
    buildCpuPipeline(pm, pipelineOptions, stopAt == Stage::Linalg);
  }
  if (failed(pm.run(*module)))
    return failure();
  pipelineTimer.stop();
  extractBatchAxes(*module, *info);
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
      for (auto &[sm, ptx] : images->ptx)
        out << "// dlc: PTX for sm_" << sm << ", " << images->kernels.size()
            << " kernels\n"
            << ptx << "\n";
      return success();
    }
  }
  info->cudaEmulated = emulated;
  info->workspaceSize = extractWorkspaceSize(*module);
  info->workspaceLiveSet = extractWorkspaceLiveSet(*module);
  result.info = *info;

  auto tm = createTargetMachine(*target);
  if (!tm)
    return emitError(fileLoc) << llvm::toString(tm.takeError());
  llvm::LLVMContext llvmContext;
  TimingScope translateTimer = rootTimer.nest("Translate to LLVM IR");
  auto llvmModule = translateToLLVM(*module, llvmContext, **tm);
  translateTimer.stop();
  if (!llvmModule)
    return emitError(fileLoc) << llvm::toString(llvmModule.takeError());
  if (llvm::Error err =
          addModelAbi(**llvmModule, *info, options.apiWrappers))
    return emitError(fileLoc) << llvm::toString(std::move(err));
  TimingScope optTimer = rootTimer.nest("LLVM O3");
  optimizeModule(**llvmModule, **tm);
  optTimer.stop();
  if (stopAt == Stage::Llvm) {
    (*llvmModule)->print(out, nullptr);
    return success();
  }
  llvm::SmallVector<char, 0> code;
  EmitKind kind = stopAt == Stage::Asm ? EmitKind::Assembly : EmitKind::Object;
  TimingScope codegenTimer = rootTimer.nest("LLVM machine code");
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
