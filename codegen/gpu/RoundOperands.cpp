//===- RoundOperands.cpp - contraction operands at the kernel's precision -===//
#include "codegen/gpu/Passes.h"
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

/// `value` (f32 or a vector of f32) rounded to `precision`, still in f32.
static Value roundTo(OpBuilder &b, Location loc, Value value,
                     GpuPrecision precision) {
  Type type = value.getType();
  if (!getElementTypeOrSelf(type).isF32() || precision == GpuPrecision::F32)
    return value;
  auto like = [&](Type element) -> Type {
    if (auto vector = dyn_cast<VectorType>(type))
      return vector.clone(element);
    return element;
  };
  if (precision == GpuPrecision::F16) {
    Value half = arith::TruncFOp::create(b, loc, like(b.getF16Type()), value);
    return arith::ExtFOp::create(b, loc, type, half);
  }
  Type i32 = like(b.getI32Type());
  auto constant = [&](uint32_t bits) -> Value {
    TypedAttr attr = b.getI32IntegerAttr(static_cast<int32_t>(bits));
    if (auto vector = dyn_cast<VectorType>(i32))
      attr = SplatElementsAttr::get(vector, attr);
    return arith::ConstantOp::create(b, loc, attr);
  };
  Value bits = arith::BitcastOp::create(b, loc, i32, value);
  Value bias, mask;
  if (precision == GpuPrecision::TF32) {
    // Round to nearest, ties away from zero: 13 bits dropped.
    bias = constant(0x1000);
    mask = constant(0xFFFFE000u);
  } else {
    // bf16: round to nearest, ties to even: 16 bits dropped.
    Value lsb = arith::AndIOp::create(
        b, loc, arith::ShRUIOp::create(b, loc, bits, constant(16)),
        constant(1));
    bias = arith::AddIOp::create(b, loc, constant(0x7FFF), lsb);
    mask = constant(0xFFFF0000u);
  }
  Value rounded = arith::BitcastOp::create(
      b, loc, type,
      arith::AndIOp::create(b, loc, arith::AddIOp::create(b, loc, bits, bias),
                            mask));
  // A NaN's payload could carry into the exponent or the sign.
  Value isNan =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, value, value);
  return arith::SelectOp::create(b, loc, isNan, value, rounded);
}

/// The precision of the contraction kernel whose K loop holds `op`; f32
/// outside one.
static GpuPrecision precisionAt(Operation *op) {
  for (auto loop = op->getParentOfType<scf::ForOp>(); loop;
       loop = loop->getParentOfType<scf::ForOp>())
    if (auto config = loop->getAttrOfType<GpuConfigAttr>(kGpuConfigAttrName))
      return config.getKind() == GpuKernelKind::Contraction
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
        operand->set(roundTo(b, contract.getLoc(), operand->get(), precision));
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
        Value rounded = roundTo(b, op.getLoc(), arg, precision);
        for (OpOperand *use : uses)
          use->set(rounded);
      }
    });
  }
};
} // namespace
