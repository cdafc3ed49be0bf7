//===- DecomposePads.cpp - tensor.pad -> fill + insert_slice ---------------===//
#include "codegen/cpu/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace dlc {
#define GEN_PASS_DEF_DECOMPOSEPADS
#include "codegen/cpu/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {
struct DecomposePadsPass : dlc::impl::DecomposePadsBase<DecomposePadsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    linalg::populateDecomposePadPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
