//===- TrainingImporters.cpp - Adagrad, Momentum, Adam --------------------===//
//
// The optimizers of domain ai.onnx.preview.training (opset 1): one update
// step of n tensors at once, decomposed into elementwise dlc ops exactly as
// the ONNX specification writes them. R (the learning rate) and T (the
// update count) are scalars; where the formulas branch on T > 0, a Where
// selects (a constant T folds).
//
//===----------------------------------------------------------------------===//
#include "frontend/NodeImporter.h"
#include "ir/DlcOps.h"

using namespace mlir;
using namespace dlc;

namespace {

/// Elementwise arithmetic in element type `et` through the op builders.
struct Arith {
  NodeContext &nc;
  Type et;

  Value c(double v) { return scalarConstant(nc, et, v); }
  Value add(Value a, Value b) { return one(buildInferred<AddOp>(nc, {a, b})); }
  Value sub(Value a, Value b) { return one(buildInferred<SubOp>(nc, {a, b})); }
  Value mul(Value a, Value b) { return one(buildInferred<MulOp>(nc, {a, b})); }
  Value div(Value a, Value b) { return one(buildInferred<DivOp>(nc, {a, b})); }
  Value pow(Value a, Value b) { return one(buildInferred<PowOp>(nc, {a, b})); }
  /// Builders fail on a null operand (an earlier failure); so do these.
  Value sqrt(Value a) {
    return a ? one(buildTyped<SqrtOp>(nc, a.getType(), {a})) : Value();
  }
  Value select(Value cond, Value a, Value b) {
    return one(buildInferred<WhereOp>(nc, {cond, a, b}));
  }
  /// `v` (a scalar R or T) in the element type.
  Value convert(Value v) {
    if (!v)
      return Value();
    return typeOf(v).getElementType() == et ? v : castValue(nc, v, et);
  }
};

/// Checks the operand layout R, T, then `groups` groups of n tensors;
/// returns n.
FailureOr<size_t> groupSize(NodeContext &nc, size_t groups) {
  size_t n = nc.numOperands() < 2 ? 0 : (nc.numOperands() - 2) / groups;
  if (n == 0 || nc.numOperands() != 2 + groups * n ||
      nc.node.output_size() > (int)(groups * n))
    return nc.error() << "expects R, T and " << groups
                      << " groups of equally many tensors, got "
                      << nc.numOperands() << " inputs",
           failure();
  for (size_t i = 0; i < nc.numOperands(); ++i)
    if (!nc.operand(i))
      return nc.error() << "input " << i << " is absent", failure();
  for (size_t i = 2; i < nc.numOperands(); ++i)
    if (!isa<FloatType>(typeOf(nc.operand(i)).getElementType()))
      return nc.error() << "input " << i << " must be floating-point",
             failure();
  return n;
}

/// T > 0, as a boolean scalar.
Value updated(NodeContext &nc) {
  Value t = nc.operand(1);
  Type it = typeOf(t).getElementType();
  return one(buildInferred<GreaterOp>(nc, {t, scalarConstant(nc, it, 0)}));
}

NodeResults importAdagrad(NodeContext &nc) {
  FailureOr<size_t> n = groupSize(nc, 3);
  if (failed(n))
    return failure();
  double decay = nc.floatAttr("decay_factor", 0.0f),
         epsilon = nc.floatAttr("epsilon", 1e-6f),
         norm = nc.floatAttr("norm_coefficient", 0.0f);
  SmallVector<Value> xs, hs;
  for (size_t i = 0; i < *n; ++i) {
    Value x = nc.operand(2 + i), g = nc.operand(2 + *n + i),
          h = nc.operand(2 + 2 * *n + i);
    Arith a{nc, typeOf(x).getElementType()};
    // r = R / (1 + T * decay_factor)
    Value r = a.div(a.convert(nc.operand(0)),
                    a.add(a.c(1), a.mul(a.convert(nc.operand(1)), a.c(decay))));
    Value gReg = a.add(a.mul(a.c(norm), x), g);
    Value hNew = a.add(h, a.mul(gReg, gReg));
    Value hAdaptive = a.add(a.sqrt(hNew), a.c(epsilon));
    xs.push_back(a.sub(x, a.div(a.mul(r, gReg), hAdaptive)));
    hs.push_back(hNew);
  }
  xs.append(hs);
  if (llvm::is_contained(xs, Value()))
    return failure();
  return xs;
}

NodeResults importMomentum(NodeContext &nc) {
  FailureOr<size_t> n = groupSize(nc, 3);
  if (failed(n))
    return failure();
  double alpha = nc.floatAttr("alpha", 0.0f), beta = nc.floatAttr("beta", 0.0f),
         norm = nc.floatAttr("norm_coefficient", 0.0f);
  std::string mode = nc.stringAttr("mode", "standard");
  if (mode != "standard" && mode != "nesterov")
    return nc.error() << "mode '" << mode
                      << "' is neither 'standard' nor 'nesterov'",
           failure();
  Value positive = updated(nc);
  SmallVector<Value> xs, vs;
  for (size_t i = 0; i < *n; ++i) {
    Value x = nc.operand(2 + i), g = nc.operand(2 + *n + i),
          v = nc.operand(2 + 2 * *n + i);
    Arith a{nc, typeOf(x).getElementType()};
    Value gReg = a.add(a.mul(a.c(norm), x), g);
    // beta_adjusted = T > 0 ? beta : 1
    Value betaAdjusted = a.select(positive, a.c(beta), a.c(1));
    Value vNew = a.add(a.mul(a.c(alpha), v), a.mul(betaAdjusted, gReg));
    Value step =
        mode == "standard" ? vNew : a.add(gReg, a.mul(a.c(alpha), vNew));
    xs.push_back(a.sub(x, a.mul(a.convert(nc.operand(0)), step)));
    vs.push_back(vNew);
  }
  xs.append(vs);
  if (llvm::is_contained(xs, Value()))
    return failure();
  return xs;
}

NodeResults importAdam(NodeContext &nc) {
  FailureOr<size_t> n = groupSize(nc, 4);
  if (failed(n))
    return failure();
  double alpha = nc.floatAttr("alpha", 0.9f),
         beta = nc.floatAttr("beta", 0.999f),
         epsilon = nc.floatAttr("epsilon", 1e-6f),
         norm = nc.floatAttr("norm_coefficient", 0.0f),
         normPost = nc.floatAttr("norm_coefficient_post", 0.0f);
  Value positive = updated(nc);
  SmallVector<Value> xs, vs, hs;
  for (size_t i = 0; i < *n; ++i) {
    Value x = nc.operand(2 + i), g = nc.operand(2 + *n + i),
          v = nc.operand(2 + 2 * *n + i), h = nc.operand(2 + 3 * *n + i);
    Arith a{nc, typeOf(x).getElementType()};
    Value gReg = a.add(a.mul(a.c(norm), x), g);
    Value vNew = a.add(a.mul(a.c(alpha), v), a.mul(a.c(1 - alpha), gReg));
    Value hNew =
        a.add(a.mul(a.c(beta), h), a.mul(a.c(1 - beta), a.mul(gReg, gReg)));
    Value hSqrt = a.add(a.sqrt(hNew), a.c(epsilon));
    // R_adjusted = T > 0 ? R * sqrt(1 - beta^T) / (1 - alpha^T) : R
    Value r = a.convert(nc.operand(0)), t = a.convert(nc.operand(1));
    Value rAdjusted =
        a.select(positive,
                 a.div(a.mul(r, a.sqrt(a.sub(a.c(1), a.pow(a.c(beta), t)))),
                       a.sub(a.c(1), a.pow(a.c(alpha), t))),
                 r);
    Value xNew = a.sub(x, a.mul(rAdjusted, a.div(vNew, hSqrt)));
    xs.push_back(a.mul(a.c(1 - normPost), xNew));
    vs.push_back(vNew);
    hs.push_back(hNew);
  }
  xs.append(vs);
  xs.append(hs);
  if (llvm::is_contained(xs, Value()))
    return failure();
  return xs;
}

} // namespace

void dlc::addTrainingImporters(NodeImporterTable &table) {
  table["ai.onnx.preview.training.Adagrad"] = importAdagrad;
  table["ai.onnx.preview.training.Momentum"] = importMomentum;
  table["ai.onnx.preview.training.Adam"] = importAdam;
}
