//===- Rounding.cpp - f32 values rounded to a lower precision ------------===//
#include "codegen/gpu/Rounding.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace dlc;

Value dlc::roundToPrecision(OpBuilder &b, Location loc, Value value,
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
