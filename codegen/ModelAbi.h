//===- ModelAbi.h - descriptor and C API of a generated model ----*- C++ -*-===//
#ifndef DLC_CODEGEN_MODELABI_H
#define DLC_CODEGEN_MODELABI_H

#include "codegen/ModelInfo.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

namespace dlc {

/// Adds to `module` (which defines the lowered `main`) the entry point
/// `<name>_entry(void **args)`, the `dlc_model_desc` global `<name>_desc`
/// (see runtime/include/dlc/dlc_model_abi.h) and, with `apiWrappers`, the
/// public `<name>_*` functions of the generated header, which forward to
/// the runtime.
llvm::Error addModelAbi(llvm::Module &module, const ModelInfo &info,
                        bool apiWrappers);

/// The generated C header `<name>.h` (golden-tested).
std::string generateHeader(const ModelInfo &info);

/// True if `name` is a valid C identifier usable as a symbol prefix.
bool isValidModelName(llvm::StringRef name);

} // namespace dlc

#endif
