//===- Target.h - the host CPU target and LLVM emission ----------*- C++ -*-===//
#ifndef DLC_CODEGEN_CPU_TARGET_H
#define DLC_CODEGEN_CPU_TARGET_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Target/TargetMachine.h"

#include <memory>
#include <string>

namespace dlc {

struct CpuTarget {
  std::string triple;
  std::string cpu;
  std::string features;
  /// f32 lanes of the widest usable vector registers.
  int64_t vectorWidth = 4;
  /// Vector registers (32 with AVX-512, else 16).
  int64_t vectorRegisters = 16;
  /// Masked vector loads are single instructions (x86 with AVX: vmaskmovps,
  /// AVX-512's mask registers).
  bool maskedLoads = false;
  /// Masked vector stores are fast (AVX-512; AVX2's vmaskmovps stores are
  /// microcoded on AMD cores).
  bool maskedStores = false;
  /// A scalar load broadcasts straight from memory (x86 with AVX:
  /// vbroadcastss; NEON's FMAs take a lane of a register instead).
  bool scalarElementLoads = false;
};

/// The host target, or the given `mcpu`/`mtriple`. The CPU name is derived
/// from the host's features (hypervisors can misreport the model name).
llvm::Expected<CpuTarget> resolveCpuTarget(llvm::StringRef mcpu,
                                           llvm::StringRef mtriple);

llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createTargetMachine(const CpuTarget &target);

/// LLVM dialect module -> optimized LLVM IR module (O3, for `tm`).
llvm::Expected<std::unique_ptr<llvm::Module>>
translateToLLVM(mlir::ModuleOp module, llvm::LLVMContext &llvmContext,
                llvm::TargetMachine &tm);

/// Runs LLVM's O3 pipeline for `tm` on `module`.
void optimizeModule(llvm::Module &module, llvm::TargetMachine &tm);

enum class EmitKind { Object, Assembly };
/// Emits `module` as an object file or assembly text into `out`.
llvm::Error emitMachineCode(llvm::Module &module, llvm::TargetMachine &tm,
                            EmitKind kind, llvm::SmallVectorImpl<char> &out);

} // namespace dlc

#endif
