//===- KernelCosts.h - FLOPs and bytes of each fused kernel ------*- C++
//-*-===//
//
// A static count of what each kernel of a program does, on linalg on
// tensors after the shared front (buildGraphToLinalgPipeline): its
// floating-point operations and the bytes it must move at least (operands
// from memory once, results to memory once). Kernels are the units the
// targets' tile-and-fuse makes: a root (a contraction, convolution,
// reduction or other op that is not elementwise) with the fills and
// single-use elementwise producers it recomputes per tile and the
// elementwise epilogue it runs on its tiles; elementwise ops that no root
// takes run as kernels of their own.
//
// FLOPs: one per floating-point arithmetic operation in an op's body
// (add, sub, mul, div, min, max, negation, and each math function such as
// exp, tanh or erf, and comparisons, which a ReLU or max-pool may be
// written with), two per fused multiply-add, times the op's iteration
// count (so a multiply-accumulate counts 2: FLOPs are 2 x MACs for
// contractions); selects, conversions and integer arithmetic
// count none. A kernel whose count cannot be made (sizes known at run time
// only, data-dependent loops, ops without a formula) is unknown, never 0.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_CODEGEN_COMMON_KERNELCOSTS_H
#define DLC_CODEGEN_COMMON_KERNELCOSTS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/SetVector.h"

#include <string>
#include <vector>

namespace dlc {

/// The class of a kernel, from its root op.
enum class KernelKind {
  Convolution,
  Contraction,
  Reduction,
  Elementwise,
  DataMovement, // copies, pads, transposes, broadcasts, gathers: no FLOPs
  Other,
};

llvm::StringRef kernelKindName(KernelKind kind);

struct KernelCost {
  KernelKind kind = KernelKind::Other;
  /// The op that names the kernel (its root, or its first op).
  mlir::Operation *root = nullptr;
  /// The ONNX nodes the kernel computes (from the ops' locations), in
  /// program order, each once.
  std::vector<std::string> nodes;
  /// The FLOPs per run of each node (the first name of each op's
  /// location), and the node of the root (or first op).
  std::vector<std::pair<std::string, double>> nodeFlops;
  std::string rootNode;
  /// The number of ops in the kernel, and the ops, in program order.
  unsigned numOps = 0;
  std::vector<mlir::Operation *> ops;
  /// FLOPs per run of the program (iterations times loop trips) and the
  /// multiply-adds among them (2 FLOPs each).
  double flops = 0, macs = 0;
  /// Empty when `flops` is known; else why not.
  std::string unknownFlops;
  /// Bytes of activations (inputs and intermediate tensors) read, of
  /// constants (weights) read, and of results written, per run.
  double bytesRead = 0, weightBytes = 0, bytesWritten = 0;
  /// Empty when the bytes are known; else why not.
  std::string unknownBytes;
  /// The iterations of the root's parallel loops: the independent work
  /// items a GPU spreads over its threads (1: the kernel runs serially).
  double parallelism = 1;
  /// The iterations of the root's reduction loops per work item (1: none).
  double reductionExtent = 1;
  /// How many times the kernel runs per run of the program (loop trips).
  double trips = 1;

  double bytes() const { return bytesRead + weightBytes + bytesWritten; }
};

struct ProgramCosts {
  std::vector<KernelCost> kernels;
  /// Bytes of constant tensors the program reads.
  double weightBytes = 0;
  /// The most bytes of intermediate tensors alive at once, in program
  /// order (a lower bound of the workspace a memory plan needs); unknown
  /// sizes count 0.
  double peakLiveBytes = 0;
};

/// The ONNX node names in `loc` (NameLocs, also inside fused locations).
void collectNodeNames(mlir::Location loc,
                      llvm::SetVector<llvm::StringRef> &names);

/// Counts the kernels of `func` (linalg on tensors).
ProgramCosts analyzeKernelCosts(mlir::func::FuncOp func);

} // namespace dlc

#endif
