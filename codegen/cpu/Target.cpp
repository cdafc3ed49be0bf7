//===- Target.cpp - the host CPU target and LLVM emission -----------------===//
#include "codegen/cpu/Target.h"

#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

static void initializeLLVMTargets() {
  // Every target LLVM was built with: `--mtriple` cross-compiles (AArch64
  // libraries from an x86 host).
  static bool done = [] {
    InitializeAllTargetInfos();
    InitializeAllTargets();
    InitializeAllTargetMCs();
    InitializeAllAsmPrinters();
    InitializeAllAsmParsers();
    return true;
  }();
  (void)done;
}

Expected<dlc::CpuTarget> dlc::resolveCpuTarget(StringRef mcpu,
                                               StringRef mtriple) {
  initializeLLVMTargets();
  CpuTarget target;
  target.triple = mtriple.empty() ? sys::getProcessTriple() : mtriple.str();
  bool host = mtriple.empty() || mtriple == sys::getProcessTriple();
  StringMap<bool> features;
  if (host && mcpu.empty())
    features = sys::getHostCPUFeatures();
  Triple triple(target.triple);
  if (!mcpu.empty()) {
    target.cpu = mcpu.str();
  } else if (host && triple.isX86()) {
    // Name the ISA level the features support: the model name reported
    // under hypervisors (e.g. "rocketlake") can carry tuning that splits
    // 512-bit vectors.
    if (features.lookup("avx512f") && features.lookup("avx512bw") &&
        features.lookup("avx512vl") && features.lookup("avx512dq"))
      target.cpu = "x86-64-v4";
    else if (features.lookup("avx2") && features.lookup("fma"))
      target.cpu = "x86-64-v3";
    else
      target.cpu = "x86-64";
  } else if (host) {
    target.cpu = sys::getHostCPUName().str();
  } else {
    target.cpu = "generic";
  }
  SmallVector<std::string> attrs;
  for (auto &f : features)
    attrs.push_back((f.second ? "+" : "-") + f.first().str());
  llvm::sort(attrs);
  target.features = llvm::join(attrs, ",");
  if (triple.isX86()) {
    bool avx512 = features.lookup("avx512f") || target.cpu == "x86-64-v4" ||
                  StringRef(target.cpu).contains("avx512");
    bool avx = features.lookup("avx") || target.cpu == "x86-64-v3";
    target.vectorWidth = avx512 ? 16 : avx ? 8 : 4;
    target.vectorRegisters = avx512 ? 32 : 16;
    target.maskedLoads = avx512 || avx;
    target.maskedStores = avx512;
    target.scalarElementLoads = avx512 || avx;
  } else if (triple.isAArch64()) {
    // NEON (every AArch64 core): 128-bit vectors, 32 registers; SVE's
    // scalable vectors are not used.
    target.vectorWidth = 4;
    target.vectorRegisters = 32;
  }
  return target;
}

Expected<std::unique_ptr<TargetMachine>>
dlc::createTargetMachine(const CpuTarget &target) {
  initializeLLVMTargets();
  std::string error;
  Triple triple(target.triple);
  const Target *t = TargetRegistry::lookupTarget(triple, error);
  if (!t)
    return createStringError(inconvertibleErrorCode(),
                             "unknown target '" + target.triple + "': " + error);
  TargetOptions options;
  std::unique_ptr<TargetMachine> tm(t->createTargetMachine(
      triple, target.cpu, target.features, options, Reloc::PIC_, std::nullopt,
      CodeGenOptLevel::Aggressive));
  if (!tm)
    return createStringError(inconvertibleErrorCode(),
                             "cannot create a target machine for " +
                                 target.triple);
  return tm;
}

Expected<std::unique_ptr<Module>>
dlc::translateToLLVM(mlir::ModuleOp module, LLVMContext &llvmContext,
                     TargetMachine &tm) {
  mlir::DialectRegistry registry;
  mlir::registerBuiltinDialectTranslation(registry);
  mlir::registerLLVMDialectTranslation(registry);
  mlir::registerOpenMPDialectTranslation(registry);
  module->getContext()->appendDialectRegistry(registry);
  std::unique_ptr<Module> llvmModule =
      mlir::translateModuleToLLVMIR(module, llvmContext, "dlc_model");
  if (!llvmModule)
    return createStringError(inconvertibleErrorCode(),
                             "translation to LLVM IR failed");
  llvmModule->setDataLayout(tm.createDataLayout());
  llvmModule->setTargetTriple(tm.getTargetTriple());
  for (Function &f : *llvmModule)
    if (!f.isDeclaration()) {
      f.addFnAttr("target-cpu", tm.getTargetCPU());
      if (!tm.getTargetFeatureString().empty())
        f.addFnAttr("target-features", tm.getTargetFeatureString());
    }
  return llvmModule;
}

void dlc::optimizeModule(Module &module, TargetMachine &tm) {
  LoopAnalysisManager lam;
  FunctionAnalysisManager fam;
  CGSCCAnalysisManager cgam;
  ModuleAnalysisManager mam;
  PassBuilder pb(&tm);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  ModulePassManager mpm = pb.buildPerModuleDefaultPipeline(OptimizationLevel::O3);
  mpm.run(module, mam);
}

Error dlc::emitMachineCode(Module &module, TargetMachine &tm, EmitKind kind,
                           SmallVectorImpl<char> &out) {
  raw_svector_ostream os(out);
  legacy::PassManager pm;
  CodeGenFileType type = kind == EmitKind::Object ? CodeGenFileType::ObjectFile
                                                  : CodeGenFileType::AssemblyFile;
  if (tm.addPassesToEmitFile(pm, os, nullptr, type))
    return createStringError(inconvertibleErrorCode(),
                             "the target cannot emit this file type");
  pm.run(module);
  return Error::success();
}
