//===- Compiler.cpp - ONNX file -> generated model, end to end ------------===//
#include "tools/driver/Compiler.h"

#include "codegen/ModelAbi.h"
#include "codegen/cpu/Passes.h"
#include "codegen/cpu/Target.h"
#include "frontend/Importer.h"
#include "ir/DlcDialect.h"
#include "passes/Passes.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"
#include "llvm/IR/Module.h"

using namespace mlir;

void dlc::registerCompilerDialects(DialectRegistry &registry) {
  registry.insert<dlc::DlcDialect>();
  registerAllDialects(registry);
  registerAllExtensions(registry);
}

static void registerPassesOnce() {
  static bool done = [] {
    registerAllPasses();
    dlc::registerDlcPasses();
    dlc::registerDlcCpuPasses();
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
  CpuPipelineOptions pipelineOptions;
  pipelineOptions.vectorWidth = target->vectorWidth;
  buildCpuPipeline(pm, pipelineOptions, stopAt == Stage::Linalg);
  if (failed(pm.run(*module)))
    return failure();
  pipelineTimer.stop();
  if (stopAt == Stage::Linalg) {
    module->print(out);
    return success();
  }
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
