//===- ElementwiseMath.cpp - the scalar table of elementwise ops ----------===//
//
// One scalar builder per elementwise dlc op; a single pattern turns each op
// into a broadcasting linalg.generic around its builder.
//
//===----------------------------------------------------------------------===//
#include "ir/DlcOps.h"
#include "passes/lowering/Patterns.h"
#include "passes/lowering/Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <limits>

using namespace mlir;

namespace {

Value fconst(OpBuilder &b, Location loc, Type t, double v) {
  return arith::ConstantOp::create(b, loc, b.getFloatAttr(t, v));
}
Value iconst(OpBuilder &b, Location loc, Type t, int64_t v) {
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, v));
}
bool isFloat(Value v) { return isa<FloatType>(v.getType()); }
float alphaOf(Operation *op) {
  return op->getAttrOfType<FloatAttr>("alpha").getValueAsDouble();
}
float betaOf(Operation *op) {
  return op->getAttrOfType<FloatAttr>("beta").getValueAsDouble();
}

using ScalarFn = Value (*)(OpBuilder &, Location, ValueRange, Operation *);

template <typename MathOp>
Value unaryMath(OpBuilder &b, Location l, ValueRange a, Operation *) {
  return MathOp::create(b, l, a[0]);
}

Value selectF(OpBuilder &b, Location l, arith::CmpFPredicate p, Value x,
              Value y, Value ifTrue, Value ifFalse) {
  Value c = arith::CmpFOp::create(b, l, p, x, y);
  return arith::SelectOp::create(b, l, c, ifTrue, ifFalse);
}

Value buildReciprocal(OpBuilder &b, Location l, ValueRange a, Operation *) {
  return arith::DivFOp::create(b, l, fconst(b, l, a[0].getType(), 1), a[0]);
}
Value buildSoftplus(OpBuilder &b, Location l, ValueRange a, Operation *) {
  // max(x, 0) + log1p(exp(-|x|)): no overflow for large x.
  Type t = a[0].getType();
  Value zero = fconst(b, l, t, 0);
  Value pos = arith::MaximumFOp::create(b, l, a[0], zero);
  Value negAbs = arith::NegFOp::create(b, l, math::AbsFOp::create(b, l, a[0]));
  Value e = math::ExpOp::create(b, l, negAbs);
  return arith::AddFOp::create(b, l, pos, math::Log1pOp::create(b, l, e));
}
Value buildSoftsign(OpBuilder &b, Location l, ValueRange a, Operation *) {
  Type t = a[0].getType();
  Value den = arith::AddFOp::create(b, l, fconst(b, l, t, 1),
                                    math::AbsFOp::create(b, l, a[0]));
  return arith::DivFOp::create(b, l, a[0], den);
}
Value clamp01(OpBuilder &b, Location l, Value v) {
  Type t = v.getType();
  Value lo = arith::MaximumFOp::create(b, l, v, fconst(b, l, t, 0));
  return arith::MinimumFOp::create(b, l, lo, fconst(b, l, t, 1));
}
Value buildHardSwish(OpBuilder &b, Location l, ValueRange a, Operation *) {
  Type t = a[0].getType();
  Value v = math::FmaOp::create(b, l, a[0], fconst(b, l, t, 1.0 / 6.0),
                                fconst(b, l, t, 0.5));
  return arith::MulFOp::create(b, l, a[0], clamp01(b, l, v));
}
Value buildAbs(OpBuilder &b, Location l, ValueRange a, Operation *) {
  if (isFloat(a[0]))
    return math::AbsFOp::create(b, l, a[0]);
  // select(x < 0, -x, x): math.absi only lowers on 1-D vectors.
  Value zero = iconst(b, l, a[0].getType(), 0);
  Value neg = arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, a[0], zero);
  return arith::SelectOp::create(b, l, neg,
                                 arith::SubIOp::create(b, l, zero, a[0]), a[0]);
}
Value buildNeg(OpBuilder &b, Location l, ValueRange a, Operation *) {
  if (isFloat(a[0]))
    return arith::NegFOp::create(b, l, a[0]);
  return arith::SubIOp::create(b, l, iconst(b, l, a[0].getType(), 0), a[0]);
}
Value buildSign(OpBuilder &b, Location l, ValueRange a, Operation *) {
  Type t = a[0].getType();
  if (isFloat(a[0])) {
    Value zero = fconst(b, l, t, 0), one = fconst(b, l, t, 1),
          mone = fconst(b, l, t, -1);
    Value neg = selectF(b, l, arith::CmpFPredicate::OLT, a[0], zero, mone, zero);
    return selectF(b, l, arith::CmpFPredicate::OGT, a[0], zero, one, neg);
  }
  Value zero = iconst(b, l, t, 0);
  Value gt = arith::CmpIOp::create(b, l, arith::CmpIPredicate::sgt, a[0], zero);
  Value lt = arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, a[0], zero);
  Value neg = arith::SelectOp::create(b, l, lt, iconst(b, l, t, -1), zero);
  return arith::SelectOp::create(b, l, gt, iconst(b, l, t, 1), neg);
}
Value buildNot(OpBuilder &b, Location l, ValueRange a, Operation *) {
  return arith::XOrIOp::create(b, l, a[0], iconst(b, l, a[0].getType(), -1));
}

Value buildLeakyRelu(OpBuilder &b, Location l, ValueRange a, Operation *op) {
  Type t = a[0].getType();
  Value scaled = arith::MulFOp::create(b, l, a[0], fconst(b, l, t, alphaOf(op)));
  return selectF(b, l, arith::CmpFPredicate::OLT, a[0], fconst(b, l, t, 0),
                 scaled, a[0]);
}
Value buildElu(OpBuilder &b, Location l, ValueRange a, Operation *op) {
  Type t = a[0].getType();
  Value em1 = math::ExpM1Op::create(b, l, a[0]);
  Value neg = arith::MulFOp::create(b, l, em1, fconst(b, l, t, alphaOf(op)));
  return selectF(b, l, arith::CmpFPredicate::OLT, a[0], fconst(b, l, t, 0), neg,
                 a[0]);
}
Value buildSelu(OpBuilder &b, Location l, ValueRange a, Operation *op) {
  Type t = a[0].getType();
  Value em1 = math::ExpM1Op::create(b, l, a[0]);
  Value neg = arith::MulFOp::create(b, l, em1, fconst(b, l, t, alphaOf(op)));
  Value v = selectF(b, l, arith::CmpFPredicate::OLE, a[0], fconst(b, l, t, 0),
                    neg, a[0]);
  return arith::MulFOp::create(b, l, v, fconst(b, l, t, betaOf(op)));
}
Value buildHardSigmoid(OpBuilder &b, Location l, ValueRange a, Operation *op) {
  Type t = a[0].getType();
  Value v = math::FmaOp::create(b, l, a[0], fconst(b, l, t, alphaOf(op)),
                                fconst(b, l, t, betaOf(op)));
  return clamp01(b, l, v);
}
Value buildThresholdedRelu(OpBuilder &b, Location l, ValueRange a,
                           Operation *op) {
  Type t = a[0].getType();
  return selectF(b, l, arith::CmpFPredicate::OGT, a[0],
                 fconst(b, l, t, alphaOf(op)), a[0], fconst(b, l, t, 0));
}
Value buildCelu(OpBuilder &b, Location l, ValueRange a, Operation *op) {
  Type t = a[0].getType();
  Value alpha = fconst(b, l, t, alphaOf(op)), zero = fconst(b, l, t, 0);
  Value e = math::ExpM1Op::create(b, l, arith::DivFOp::create(b, l, a[0], alpha));
  Value neg = arith::MinimumFOp::create(b, l, zero,
                                        arith::MulFOp::create(b, l, alpha, e));
  return arith::AddFOp::create(b, l, arith::MaximumFOp::create(b, l, zero, a[0]),
                               neg);
}
Value buildShrink(OpBuilder &b, Location l, ValueRange a, Operation *op) {
  Type t = a[0].getType();
  Value lambd = fconst(b, l, t, alphaOf(op)), bias = fconst(b, l, t, betaOf(op));
  Value hi = selectF(b, l, arith::CmpFPredicate::OGT, a[0], lambd,
                     arith::SubFOp::create(b, l, a[0], bias), fconst(b, l, t, 0));
  return selectF(b, l, arith::CmpFPredicate::OLT, a[0],
                 arith::NegFOp::create(b, l, lambd),
                 arith::AddFOp::create(b, l, a[0], bias), hi);
}

Value buildPow(OpBuilder &b, Location l, ValueRange a, Operation *) {
  if (isFloat(a[0]))
    return math::PowFOp::create(b, l, a[0], a[1]);
  return math::IPowIOp::create(b, l, a[0], a[1]);
}
Value buildMax(OpBuilder &b, Location l, ValueRange a, Operation *) {
  if (isFloat(a[0]))
    return arith::MaximumFOp::create(b, l, a[0], a[1]);
  return arith::MaxSIOp::create(b, l, a[0], a[1]);
}
Value buildMin(OpBuilder &b, Location l, ValueRange a, Operation *) {
  if (isFloat(a[0]))
    return arith::MinimumFOp::create(b, l, a[0], a[1]);
  return arith::MinSIOp::create(b, l, a[0], a[1]);
}
Value buildFmod(OpBuilder &b, Location l, ValueRange a, Operation *) {
  if (isFloat(a[0]))
    return arith::RemFOp::create(b, l, a[0], a[1]);
  return arith::RemSIOp::create(b, l, a[0], a[1]);
}
Value buildMod(OpBuilder &b, Location l, ValueRange a, Operation *) {
  // Python semantics: the result has the divisor's sign.
  Type t = a[0].getType();
  Value r = arith::RemSIOp::create(b, l, a[0], a[1]);
  Value zero = iconst(b, l, t, 0);
  Value rNeg = arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, r, zero);
  Value dNeg =
      arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, a[1], zero);
  Value rNonZero =
      arith::CmpIOp::create(b, l, arith::CmpIPredicate::ne, r, zero);
  Value differ = arith::XOrIOp::create(b, l, rNeg, dNeg);
  Value fix = arith::AndIOp::create(b, l, differ, rNonZero);
  return arith::SelectOp::create(b, l, fix, arith::AddIOp::create(b, l, r, a[1]),
                                 r);
}
Value buildPRelu(OpBuilder &b, Location l, ValueRange a, Operation *) {
  Value scaled = arith::MulFOp::create(b, l, a[0], a[1]);
  return selectF(b, l, arith::CmpFPredicate::OLT, a[0],
                 fconst(b, l, a[0].getType(), 0), scaled, a[0]);
}
template <typename ArithOp>
Value intBinary(OpBuilder &b, Location l, ValueRange a, Operation *) {
  return ArithOp::create(b, l, a[0], a[1]);
}

template <arith::CmpFPredicate FP, arith::CmpIPredicate IP>
Value compare(OpBuilder &b, Location l, ValueRange a, Operation *) {
  if (isFloat(a[0]))
    return arith::CmpFOp::create(b, l, FP, a[0], a[1]);
  return arith::CmpIOp::create(b, l, IP, a[0], a[1]);
}
Value buildIsNaN(OpBuilder &b, Location l, ValueRange a, Operation *) {
  return arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNO, a[0], a[0]);
}
Value buildIsInf(OpBuilder &b, Location l, ValueRange a, Operation *op) {
  auto isInf = cast<dlc::IsInfOp>(op);
  Type t = a[0].getType();
  double inf = std::numeric_limits<double>::infinity();
  Value result = iconst(b, l, b.getI1Type(), 0);
  if (isInf.getDetectPositive())
    result = arith::OrIOp::create(
        b, l, result,
        arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ, a[0],
                              fconst(b, l, t, inf)));
  if (isInf.getDetectNegative())
    result = arith::OrIOp::create(
        b, l, result,
        arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ, a[0],
                              fconst(b, l, t, -inf)));
  return result;
}
Value buildWhere(OpBuilder &b, Location l, ValueRange a, Operation *) {
  return arith::SelectOp::create(b, l, a[0], a[1], a[2]);
}

Value buildCast(OpBuilder &b, Location l, ValueRange a, Operation *op) {
  auto castOp = cast<dlc::CastOp>(op);
  Value x = a[0];
  Type from = x.getType(), to = castOp.getType().getElementType();
  if (from == to)
    return x;
  bool srcUnsigned = castOp.getUnsignedSource() || from.isInteger(1);
  if (isa<IntegerType>(from) && isa<IntegerType>(to)) {
    unsigned fw = from.getIntOrFloatBitWidth(), tw = to.getIntOrFloatBitWidth();
    if (tw == 1)
      return arith::CmpIOp::create(b, l, arith::CmpIPredicate::ne, x,
                                   iconst(b, l, from, 0));
    if (tw < fw)
      return arith::TruncIOp::create(b, l, to, x);
    if (srcUnsigned)
      return arith::ExtUIOp::create(b, l, to, x);
    return arith::ExtSIOp::create(b, l, to, x);
  }
  if (isa<IntegerType>(from)) {
    if (srcUnsigned)
      return arith::UIToFPOp::create(b, l, to, x);
    return arith::SIToFPOp::create(b, l, to, x);
  }
  if (isa<IntegerType>(to)) {
    if (to.isInteger(1))
      return arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNE, x,
                                   fconst(b, l, from, 0));
    if (castOp.getUnsignedResult())
      return arith::FPToUIOp::create(b, l, to, x);
    return arith::FPToSIOp::create(b, l, to, x);
  }
  if (from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth())
    return arith::ExtFOp::create(b, l, to, x);
  return arith::TruncFOp::create(b, l, to, x);
}

template <typename OpTy, ScalarFn Fn>
struct ElementwiseLowering : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    Operation *raw = op.getOperation();
    Value result = dlc::buildElementwise(
        rewriter, op.getLoc(), type, raw->getOperands(),
        [&](OpBuilder &b, Location l, ValueRange args) {
          return Fn(b, l, args, raw);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void dlc::populateElementwiseMathLoweringPatterns(RewritePatternSet &patterns) {
  using namespace arith;
  MLIRContext *ctx = patterns.getContext();
  patterns.add<
      ElementwiseLowering<ExpOp, unaryMath<math::ExpOp>>,
      ElementwiseLowering<LogOp, unaryMath<math::LogOp>>,
      ElementwiseLowering<SqrtOp, unaryMath<math::SqrtOp>>,
      ElementwiseLowering<ReciprocalOp, buildReciprocal>,
      ElementwiseLowering<FloorOp, unaryMath<math::FloorOp>>,
      ElementwiseLowering<CeilOp, unaryMath<math::CeilOp>>,
      ElementwiseLowering<RoundOp, unaryMath<math::RoundEvenOp>>,
      ElementwiseLowering<SinOp, unaryMath<math::SinOp>>,
      ElementwiseLowering<CosOp, unaryMath<math::CosOp>>,
      ElementwiseLowering<TanOp, unaryMath<math::TanOp>>,
      ElementwiseLowering<AsinOp, unaryMath<math::AsinOp>>,
      ElementwiseLowering<AcosOp, unaryMath<math::AcosOp>>,
      ElementwiseLowering<AtanOp, unaryMath<math::AtanOp>>,
      ElementwiseLowering<SinhOp, unaryMath<math::SinhOp>>,
      ElementwiseLowering<CoshOp, unaryMath<math::CoshOp>>,
      ElementwiseLowering<AsinhOp, unaryMath<math::AsinhOp>>,
      ElementwiseLowering<AcoshOp, unaryMath<math::AcoshOp>>,
      ElementwiseLowering<AtanhOp, unaryMath<math::AtanhOp>>,
      ElementwiseLowering<ErfOp, unaryMath<math::ErfOp>>,
      ElementwiseLowering<SoftplusOp, buildSoftplus>,
      ElementwiseLowering<SoftsignOp, buildSoftsign>,
      ElementwiseLowering<HardSwishOp, buildHardSwish>,
      ElementwiseLowering<AbsOp, buildAbs>, ElementwiseLowering<NegOp, buildNeg>,
      ElementwiseLowering<SignOp, buildSign>,
      ElementwiseLowering<NotOp, buildNot>,
      ElementwiseLowering<LeakyReluOp, buildLeakyRelu>,
      ElementwiseLowering<EluOp, buildElu>, ElementwiseLowering<SeluOp, buildSelu>,
      ElementwiseLowering<HardSigmoidOp, buildHardSigmoid>,
      ElementwiseLowering<ThresholdedReluOp, buildThresholdedRelu>,
      ElementwiseLowering<CeluOp, buildCelu>,
      ElementwiseLowering<ShrinkOp, buildShrink>,
      ElementwiseLowering<PowOp, buildPow>, ElementwiseLowering<MaxOp, buildMax>,
      ElementwiseLowering<MinOp, buildMin>, ElementwiseLowering<ModOp, buildMod>,
      ElementwiseLowering<FmodOp, buildFmod>,
      ElementwiseLowering<PReluOp, buildPRelu>,
      ElementwiseLowering<ShiftLeftOp, intBinary<arith::ShLIOp>>,
      ElementwiseLowering<ShiftRightOp, intBinary<arith::ShRUIOp>>,
      ElementwiseLowering<AndOp, intBinary<arith::AndIOp>>,
      ElementwiseLowering<OrOp, intBinary<arith::OrIOp>>,
      ElementwiseLowering<XorOp, intBinary<arith::XOrIOp>>,
      ElementwiseLowering<EqualOp, compare<CmpFPredicate::OEQ, CmpIPredicate::eq>>,
      ElementwiseLowering<LessOp, compare<CmpFPredicate::OLT, CmpIPredicate::slt>>,
      ElementwiseLowering<LessOrEqualOp,
                          compare<CmpFPredicate::OLE, CmpIPredicate::sle>>,
      ElementwiseLowering<GreaterOp,
                          compare<CmpFPredicate::OGT, CmpIPredicate::sgt>>,
      ElementwiseLowering<GreaterOrEqualOp,
                          compare<CmpFPredicate::OGE, CmpIPredicate::sge>>,
      ElementwiseLowering<IsNaNOp, buildIsNaN>,
      ElementwiseLowering<IsInfOp, buildIsInf>,
      ElementwiseLowering<WhereOp, buildWhere>,
      ElementwiseLowering<CastOp, buildCast>>(ctx);
}
