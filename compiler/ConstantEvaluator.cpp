//===- ConstantEvaluator.cpp - run constant subgraphs at compile time -----===//
#include "compiler/ConstantEvaluator.h"
#include "compiler/Executor.h"

#include "codegen/ModelAbi.h"
#include "codegen/ModelInfo.h"
#include "codegen/cpu/Passes.h"
#include "codegen/cpu/Target.h"
#include "frontend/Importer.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/IR/LLVMContext.h"

using namespace mlir;

/// The dlc_dtype holding elements of `type` (signedness does not matter
/// for bytes); 0 when none does.
static int dtypeOf(Type type) {
  if (type.isF32())
    return DLC_DTYPE_F32;
  if (type.isF64())
    return DLC_DTYPE_F64;
  if (type.isF16())
    return DLC_DTYPE_F16;
  if (type.isBF16())
    return DLC_DTYPE_BF16;
  if (type.isInteger(1))
    return DLC_DTYPE_BOOL;
  if (type.isInteger(8))
    return DLC_DTYPE_I8;
  if (type.isInteger(16))
    return DLC_DTYPE_I16;
  if (type.isInteger(32))
    return DLC_DTYPE_I32;
  if (type.isInteger(64))
    return DLC_DTYPE_I64;
  return 0;
}

FailureOr<std::vector<std::string>>
dlc::evaluateConstantsOnCpu(ModuleOp module) {
  MLIRContext *ctx = module.getContext();
  Location loc = module.getLoc();
  auto fail = [&](const Twine &why) {
    return emitError(loc) << "compile-time evaluation of constants: " << why;
  };
  auto func = module.lookupSymbol<func::FuncOp>("main");
  if (!func || func.getNumArguments() != 0)
    return fail("expects @main without arguments"), failure();
  Builder b(ctx);
  for (auto [i, type] : llvm::enumerate(func.getResultTypes())) {
    int dtype = dtypeOf(cast<RankedTensorType>(type).getElementType());
    if (!dtype)
      return fail("no dtype holds " + llvm::Twine(i)), failure();
    func.setResultAttr(i, kNameAttr, b.getStringAttr("c" + Twine(i)));
    func.setResultAttr(i, kDtypeAttr, b.getI32IntegerAttr(dtype));
  }
  const std::string name = "dlc_constants";
  FailureOr<ModelInfo> info = extractModelInfo(module, name);
  if (failed(info))
    return failure();

  auto target = resolveCpuTarget("", "");
  if (!target)
    return fail(llvm::toString(target.takeError())), failure();
  PassManager pm(ctx);
  CpuPipelineOptions options;
  options.vectorWidth = target->vectorWidth;
  options.vectorRegisters = target->vectorRegisters;
  options.maskedLoads = target->maskedLoads;
  options.maskedStores = target->maskedStores;
  options.scalarElementLoads = target->scalarElementLoads;
  buildCpuPipeline(pm, options);
  if (failed(pm.run(module)))
    return failure();
  info->workspaceSize = extractWorkspaceSize(module);
  extractChecks(module, *info);
  extractState(module, *info);

  auto tm = createTargetMachine(*target);
  if (!tm)
    return fail(llvm::toString(tm.takeError())), failure();
  llvm::LLVMContext llvmContext;
  auto llvmModule = translateToLLVM(module, llvmContext, **tm);
  if (!llvmModule)
    return fail(llvm::toString(llvmModule.takeError())), failure();
  if (llvm::Error err = addModelAbi(**llvmModule, *info, /*apiWrappers=*/false))
    return fail(llvm::toString(std::move(err))), failure();
  optimizeModule(**llvmModule, **tm);
  llvm::SmallVector<char, 0> object;
  if (llvm::Error err =
          emitMachineCode(**llvmModule, **tm, EmitKind::Object, object))
    return fail(llvm::toString(std::move(err))), failure();

  auto loaded =
      LoadedModel::load(StringRef(object.data(), object.size()), name);
  if (!loaded)
    return fail(llvm::toString(loaded.takeError())), failure();
  dlc_options runOptions;
  dlc_options_init(&runOptions);
  runOptions.num_threads = 1;
  dlcrt_model *model = nullptr;
  if (dlc_status *s =
          dlcrt_model_create((*loaded)->desc(), &runOptions, &model)) {
    std::string msg = dlc_status_message(s);
    dlc_status_free(s);
    return fail(msg), failure();
  }
  std::vector<std::string> results;
  std::vector<dlc_tensor> outputs;
  for (const TensorInfo &t : info->outputs)
    results.emplace_back(t.sizeBytes, '\0');
  for (auto [t, buffer] : llvm::zip(info->outputs, results))
    outputs.push_back(tensorOver(buffer, t));
  dlc_status *s =
      dlcrt_model_run(model, nullptr, 0, outputs.data(), outputs.size());
  dlcrt_model_destroy(model);
  if (s) {
    std::string msg = dlc_status_message(s);
    dlc_status_free(s);
    return fail(msg), failure();
  }
  return results;
}
