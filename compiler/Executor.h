//===- Executor.h - load a compiled model into this process ------*- C++
//-*-===//
#ifndef DLC_COMPILER_EXECUTOR_H
#define DLC_COMPILER_EXECUTOR_H

#include "codegen/ModelInfo.h"

#include "dlc/dlc_model_abi.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>

namespace llvm::orc {
class LLJIT;
}

namespace dlc {

/// The object code of a compiled model, linked into this process with
/// LLVM's JIT linker; the same object `dlc compile` puts in the library.
class LoadedModel {
public:
  static llvm::Expected<std::unique_ptr<LoadedModel>>
  load(llvm::StringRef object, llvm::StringRef name);
  ~LoadedModel();
  const dlc_model_desc *desc() const { return modelDesc; }

private:
  std::unique_ptr<llvm::orc::LLJIT> jit;
  const dlc_model_desc *modelDesc = nullptr;
};

/// A dlc_tensor over `buffer` (which must hold `info.sizeBytes` bytes and
/// outlive it) with `info`'s dtype and shape.
dlc_tensor tensorOver(std::string &buffer, const TensorInfo &info);

} // namespace dlc

#endif
