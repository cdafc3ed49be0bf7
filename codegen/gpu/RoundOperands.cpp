//===- RoundOperands.cpp - contraction operands at the kernel's precision -===//
#include "codegen/gpu/Passes.h"
#include "codegen/gpu/Rounding.h"
#include "ir/DlcAttrs.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace dlc {
#define GEN_PASS_DEF_GPUROUNDOPERANDS
#include "codegen/gpu/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;

/// The precision of the contraction kernel whose K loop holds `op`; f32
/// outside one.
static GpuPrecision precisionAt(Operation *op) {
  for (auto loop = op->getParentOfType<scf::ForOp>(); loop;
       loop = loop->getParentOfType<scf::ForOp>())
    if (auto config = loop->getAttrOfType<GpuConfigAttr>(kGpuConfigAttrName))
      // (On tensor cores, dlc-gpu-vector-to-mma rounds the fragments.)
      return config.getKind() == GpuKernelKind::Contraction && !config.usesMma()
                 ? config.getPrecision()
                 : GpuPrecision::F32;
  return GpuPrecision::F32;
}

namespace {
struct RoundOperandsPass : dlc::impl::GpuRoundOperandsBase<RoundOperandsPass> {
  using Base::Base;
  void runOnOperation() override {
    OpBuilder b(&getContext());
    getOperation().walk([&](vector::ContractionOp contract) {
      GpuPrecision precision = precisionAt(contract);
      if (precision == GpuPrecision::F32)
        return;
      b.setInsertionPoint(contract);
      for (OpOperand *operand :
           {&contract.getLhsMutable(), &contract.getRhsMutable()})
        operand->set(
            roundToPrecision(b, contract.getLoc(), operand->get(), precision));
    });
    // A K step left unvectorized: its inputs rounded in its body.
    getOperation().walk([&](linalg::GenericOp op) {
      GpuPrecision precision = precisionAt(op);
      if (precision == GpuPrecision::F32 || op.getNumReductionLoops() == 0)
        return;
      Block &body = op.getRegion().front();
      b.setInsertionPointToStart(&body);
      for (OpOperand *input : op.getDpsInputOperands()) {
        BlockArgument arg = op.getMatchingBlockArgument(input);
        SmallVector<OpOperand *> uses;
        for (OpOperand &use : arg.getUses())
          uses.push_back(&use);
        Value rounded = roundToPrecision(b, op.getLoc(), arg, precision);
        for (OpOperand *use : uses)
          use->set(rounded);
      }
    });
  }
};
} // namespace
