//===- Pipeline.cpp - the CPU pipeline, built in one place ----------------===//
#include "codegen/common/Passes.h"
#include "codegen/cpu/Passes.h"

#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

/// Tile, fuse and vectorize on tensors, then bufferize into a static
/// workspace, then lower to the LLVM dialect.
static const char *kToLLVM =
    "func.func(dlc-cpu-pack-matmul-operands{{vector-width={0} vector-"
    "registers={1}},dlc-cpu-"
    "pointwise-convs{{vector-width={0}},resolve-ranked-shaped-type-result-"
    "dims,canonicalize,dlc-cpu-select-tiling{{"
    "vector-width={0} vector-registers={1}},dlc-cpu-tile-and-fuse,"
    "dlc-cpu-version-partial-tiles,"
    "canonicalize,cse,dlc-cpu-vectorize,dlc-cpu-pack-constant-reads,"
    "canonicalize,cse,"
    "loop-invariant-subset-hoisting,dlc-cpu-fold-loop-transposes{{vector-width="
    "{0}},canonicalize,dlc-cpu-decompose-pads,dlc-cpu-insert-parts),"
    "func.func(dlc-carry-loop-values-in-place,dlc-resolve-carried-dims),"
    "eliminate-empty-tensors,"
    "func.func(dlc-bound-dynamic-tensors),empty-tensor-"
    "to-alloc-tensor,"
    "one-shot-bufferize{{bufferize-function-boundaries=1 "
    "function-boundary-type-conversion=identity-layout-map},"
    "func.func(dlc-bound-dynamic-allocs,dlc-distinct-results),buffer-results-"
    "to-out-params{{hoist-"
    "static-allocs=1 modify-public-functions=1},"
    "canonicalize,cse,func.func(dlc-erase-copies-in-place{4}),dlc-memory-"
    "plan,"
    "canonicalize,"
    "func.func(dlc-cpu-prefetch-constant-blocks,dlc-cpu-parallel-copies,"
    "scf-forall-to-parallel),"
    "convert-scf-to-openmp,"
    "func.func(dlc-cpu-openmp-threads{{vector-width={0}},dlc-copy-to-linalg{{"
    "keep-contiguous=1},"
    "convert-linalg-to-"
    "loops,dlc-cpu-lower-vectors,convert-vector-to-scf{{full-unroll=1},"
    "dlc-cpu-widen-partial-vectors{{masked-loads={2} masked-stores={3}},"
    "lower-affine,convert-scf-to-cf,dlc-dynamic-expand-shapes),"
    "expand-strided-metadata,lower-affine,convert-math-to-funcs,convert-math-"
    "to-llvm,"
    "convert-math-to-libm,finalize-memref-to-llvm,"
    "convert-vector-to-llvm{{vector-contract-lowering=outerproduct "
    "vector-transpose-lowering=shuffle1d},"
    "convert-arith-to-llvm,convert-ub-to-llvm,convert-cf-to-llvm,"
    "convert-func-to-llvm{{use-bare-ptr-memref-call-conv=1},convert-openmp-to-"
    "llvm,"
    "reconcile-unrealized-casts,canonicalize,dlc-flatten-constant-globals";

void dlc::buildCpuPipeline(OpPassManager &pm, const CpuPipelineOptions &opts,
                           bool untilLinalg) {
  buildGraphToLinalgPipeline(pm, /*indexChecks=*/true);
  if (untilLinalg)
    return;
  std::string text =
      llvm::formatv(kToLLVM, opts.vectorWidth, opts.vectorRegisters,
                    int(opts.maskedLoads), int(opts.maskedStores),
                    opts.profile ? ",dlc-cpu-profile-kernels" : "")
          .str();
  if (failed(parsePassPipeline(text, pm, llvm::errs())))
    llvm::report_fatal_error("dlc: invalid built-in CPU pipeline");
}

void dlc::registerCpuPipeline() {
  PassPipelineRegistration<>(
      "dlc-cpu-pipeline", "lower dlc ops to the LLVM dialect for the host CPU",
      [](OpPassManager &pm) { buildCpuPipeline(pm, CpuPipelineOptions()); });
}
