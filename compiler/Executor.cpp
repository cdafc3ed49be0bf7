//===- Executor.cpp - load a compiled model into this process -------------===//
#include "compiler/Executor.h"

#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"

using namespace llvm;

dlc::LoadedModel::~LoadedModel() = default;

Expected<std::unique_ptr<dlc::LoadedModel>>
dlc::LoadedModel::load(StringRef object, StringRef name) {
  InitializeNativeTarget();
  InitializeNativeTargetAsmPrinter();
  // Parallel loops call the OpenMP runtime (libomp), which generated
  // libraries link and this process loads once.
  std::string error;
  if (sys::DynamicLibrary::LoadLibraryPermanently(DLC_LIBOMP_PATH, &error))
    return createStringError(inconvertibleErrorCode(),
                             "cannot load the OpenMP runtime " +
                                 Twine(DLC_LIBOMP_PATH) + ": " + error);
  auto jit = orc::LLJITBuilder().create();
  if (!jit)
    return jit.takeError();
  auto generator = orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
      (*jit)->getDataLayout().getGlobalPrefix());
  if (!generator)
    return generator.takeError();
  (*jit)->getMainJITDylib().addGenerator(std::move(*generator));
  // CUDA host code launches kernels through the runtime linked into dlc.
  orc::MangleAndInterner mangle((*jit)->getExecutionSession(),
                                (*jit)->getDataLayout());
  // cuda-emulator code launches host kernels through the emulator.
  auto callable = [](auto *fn) {
    return orc::ExecutorSymbolDef(orc::ExecutorAddr::fromPtr(fn),
                                  JITSymbolFlags::Exported |
                                      JITSymbolFlags::Callable);
  };
  if (Error err = (*jit)->getMainJITDylib().define(orc::absoluteSymbols(
          {{mangle("dlcrt_cuda_launch"), callable(&dlcrt_cuda_launch)},
           {mangle("dlcrt_profile_clock"), callable(&dlcrt_profile_clock)},
           {mangle("dlcrt_emu_launch"), callable(&dlcrt_emu_launch)},
           {mangle("dlcrt_emu_barrier"), callable(&dlcrt_emu_barrier)},
           {mangle("dlcrt_emu_shuffle"), callable(&dlcrt_emu_shuffle)},
           {mangle("dlcrt_emu_mma_sync"), callable(&dlcrt_emu_mma_sync)},
           {mangle("dlcrt_emu_ldmatrix"), callable(&dlcrt_emu_ldmatrix)}})))
    return std::move(err);
  if (Error err = (*jit)->addObjectFile(
          MemoryBuffer::getMemBufferCopy(object, name + ".o")))
    return std::move(err);
  auto sym = (*jit)->lookup((name + "_desc").str());
  if (!sym)
    return sym.takeError();
  auto model = std::unique_ptr<LoadedModel>(new LoadedModel());
  model->modelDesc = sym->toPtr<const dlc_model_desc *>();
  model->jit = std::move(*jit);
  return model;
}

dlc_tensor dlc::tensorOver(std::string &buffer, const TensorInfo &info) {
  dlc_tensor v;
  v.data = buffer.data();
  v.size_bytes = buffer.size();
  v.dtype = (dlc_dtype)info.dtype;
  v.rank = info.shape.size();
  v.shape = info.shape.data();
  return v;
}
