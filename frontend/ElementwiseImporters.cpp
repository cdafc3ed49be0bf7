//===- ElementwiseImporters.cpp - elementwise ONNX ops --------------------===//
#include "frontend/NodeImporter.h"
#include "ir/DlcOps.h"

using namespace mlir;
using namespace dlc;

namespace {

template <typename OpTy>
NodeResults floatUnary(NodeContext &nc) {
  if (failed(requireOperands(nc, 1)) || failed(requireFloat(nc, 1)))
    return failure();
  return buildTyped<OpTy>(nc, nc.operand(0).getType(), {nc.operand(0)});
}

template <typename OpTy>
NodeResults numericUnary(NodeContext &nc) {
  if (failed(requireOperands(nc, 1)))
    return failure();
  return buildTyped<OpTy>(nc, nc.operand(0).getType(), {nc.operand(0)});
}

/// An activation with ONNX default parameters `alpha` and `beta` (read from
/// the named attributes).
template <typename OpTy>
NodeResults activation(NodeContext &nc, StringRef alphaName, float alpha,
                       StringRef betaName, float beta) {
  if (failed(requireOperands(nc, 1)) || failed(requireFloat(nc, 1)))
    return failure();
  OpBuilder &b = nc.builder;
  float a = alphaName.empty() ? alpha : nc.floatAttr(alphaName, alpha);
  float c = betaName.empty() ? beta : nc.floatAttr(betaName, beta);
  return buildTyped<OpTy>(nc, nc.operand(0).getType(), {nc.operand(0)},
                          {b.getNamedAttr("alpha", b.getF32FloatAttr(a)),
                           b.getNamedAttr("beta", b.getF32FloatAttr(c))});
}

template <typename OpTy>
NodeResults binary(NodeContext &nc) {
  if (failed(requireOperands(nc, 2)))
    return failure();
  return buildInferred<OpTy>(nc, {nc.operand(0), nc.operand(1)});
}

/// Max/Min/Sum/Mean over any number of inputs, pairwise.
template <typename OpTy, bool Mean = false>
NodeResults variadic(NodeContext &nc) {
  SmallVector<Value> inputs;
  for (size_t i = 0; i < nc.numOperands(); ++i)
    if (nc.operand(i))
      inputs.push_back(nc.operand(i));
  if (inputs.empty())
    return nc.error() << "needs at least one input", failure();
  Value acc = inputs[0];
  for (Value v : ArrayRef(inputs).drop_front()) {
    NodeResults r = buildInferred<OpTy>(nc, {acc, v});
    if (failed(r))
      return failure();
    acc = (*r)[0];
  }
  if (Mean && inputs.size() > 1) {
    Type et = typeOf(acc).getElementType();
    if (!isa<FloatType>(et))
      return nc.error() << "Mean needs floating-point inputs", failure();
    Value n = ConstantOp::create(
        nc.builder, nc.loc,
        DenseElementsAttr::get(RankedTensorType::get({}, et),
                               nc.builder.getFloatAttr(et, inputs.size())));
    return buildInferred<DivOp>(nc, {acc, n});
  }
  return SmallVector<Value>{acc};
}

bool isUnsignedOnnxType(int t) {
  return t == onnx::TensorProto::UINT8 || t == onnx::TensorProto::UINT16 ||
         t == onnx::TensorProto::UINT32 || t == onnx::TensorProto::UINT64;
}

NodeResults importPow(NodeContext &nc) {
  if (failed(requireOperands(nc, 2)))
    return failure();
  Value base = nc.operand(0);
  Value exponent = castValue(nc, nc.operand(1), typeOf(base).getElementType());
  return buildInferred<PowOp>(nc, {base, exponent});
}

NodeResults importMod(NodeContext &nc) {
  if (failed(requireOperands(nc, 2)))
    return failure();
  bool fmod = nc.intAttr("fmod", 0);
  if (isa<FloatType>(typeOf(nc.operand(0)).getElementType())) {
    if (!fmod)
      return nc.error() << "fmod must be 1 for floating-point inputs",
             failure();
    return buildInferred<FmodOp>(nc, {nc.operand(0), nc.operand(1)});
  }
  if (fmod)
    return buildInferred<FmodOp>(nc, {nc.operand(0), nc.operand(1)});
  return buildInferred<ModOp>(nc, {nc.operand(0), nc.operand(1)});
}

NodeResults importIsNaN(NodeContext &nc) {
  if (failed(requireOperands(nc, 1)) || failed(requireFloat(nc, 1)))
    return failure();
  auto t = typeOf(nc.operand(0));
  return buildTyped<IsNaNOp>(
      nc, RankedTensorType::get(t.getShape(), nc.builder.getI1Type()),
      nc.operand(0));
}

NodeResults importIsInf(NodeContext &nc) {
  if (failed(requireOperands(nc, 1)) || failed(requireFloat(nc, 1)))
    return failure();
  auto t = typeOf(nc.operand(0));
  OpBuilder &b = nc.builder;
  return buildTyped<IsInfOp>(
      nc, RankedTensorType::get(t.getShape(), b.getI1Type()), nc.operand(0),
      {b.getNamedAttr("detect_negative",
                      b.getBoolAttr(nc.intAttr("detect_negative", 1))),
       b.getNamedAttr("detect_positive",
                      b.getBoolAttr(nc.intAttr("detect_positive", 1)))});
}

NodeResults importWhere(NodeContext &nc) {
  if (failed(requireOperands(nc, 3)))
    return failure();
  return buildInferred<WhereOp>(nc,
                                {nc.operand(0), nc.operand(1), nc.operand(2)});
}

NodeResults castWithType(NodeContext &nc, int onnxType) {
  Type et = convertElementType(nc.builder.getContext(), onnxType);
  if (!et)
    return nc.error() << "cast to " << onnxTypeName(onnxType)
                      << " is not supported",
           failure();
  return SmallVector<Value>{castValue(nc, nc.operand(0), et, nc.isUnsigned(0),
                                   isUnsignedOnnxType(onnxType))};
}

NodeResults importCast(NodeContext &nc) {
  if (failed(requireOperands(nc, 1)))
    return failure();
  if (!nc.attr("to"))
    return nc.error() << "missing required attribute 'to'", failure();
  return castWithType(nc, nc.intAttr("to", 0));
}

NodeResults importCastLike(NodeContext &nc) {
  if (failed(requireOperands(nc, 2)))
    return failure();
  Type et = typeOf(nc.operand(1)).getElementType();
  return SmallVector<Value>{castValue(nc, nc.operand(0), et)};
}

NodeResults importClip(NodeContext &nc) {
  if (failed(requireOperands(nc, 1)))
    return failure();
  Value x = nc.operand(0);
  auto t = typeOf(x);
  Type et = t.getElementType();
  Value lo = nc.operand(1), hi = nc.operand(2);
  if (nc.opset < 11) {
    auto scalar = [&](float v) -> Value {
      return ConstantOp::create(
          nc.builder, nc.loc,
          DenseElementsAttr::get(RankedTensorType::get({}, et),
                                 nc.builder.getFloatAttr(et, v)));
    };
    lo = nc.attr("min") ? scalar(nc.floatAttr("min", 0)) : Value();
    hi = nc.attr("max") ? scalar(nc.floatAttr("max", 0)) : Value();
  }
  if (lo) {
    NodeResults r = buildInferred<MaxOp>(nc, {x, lo});
    if (failed(r))
      return failure();
    x = (*r)[0];
  }
  if (hi) {
    NodeResults r = buildInferred<MinOp>(nc, {x, hi});
    if (failed(r))
      return failure();
    x = (*r)[0];
  }
  return SmallVector<Value>{x};
}

} // namespace

void dlc::addElementwiseImporters(NodeImporterTable &t) {
  t["Exp"] = floatUnary<ExpOp>;
  t["Log"] = floatUnary<LogOp>;
  t["Sqrt"] = floatUnary<SqrtOp>;
  t["Reciprocal"] = floatUnary<ReciprocalOp>;
  t["Floor"] = floatUnary<FloorOp>;
  t["Ceil"] = floatUnary<CeilOp>;
  t["Round"] = floatUnary<RoundOp>;
  t["Sin"] = floatUnary<SinOp>;
  t["Cos"] = floatUnary<CosOp>;
  t["Tan"] = floatUnary<TanOp>;
  t["Asin"] = floatUnary<AsinOp>;
  t["Acos"] = floatUnary<AcosOp>;
  t["Atan"] = floatUnary<AtanOp>;
  t["Sinh"] = floatUnary<SinhOp>;
  t["Cosh"] = floatUnary<CoshOp>;
  t["Asinh"] = floatUnary<AsinhOp>;
  t["Acosh"] = floatUnary<AcoshOp>;
  t["Atanh"] = floatUnary<AtanhOp>;
  t["Erf"] = floatUnary<ErfOp>;
  t["Softplus"] = floatUnary<SoftplusOp>;
  t["Softsign"] = floatUnary<SoftsignOp>;
  t["HardSwish"] = floatUnary<HardSwishOp>;
  t["Abs"] = numericUnary<AbsOp>;
  t["Neg"] = numericUnary<NegOp>;
  t["Sign"] = numericUnary<SignOp>;
  t["Not"] = numericUnary<NotOp>;
  t["LeakyRelu"] = [](NodeContext &nc) {
    return activation<LeakyReluOp>(nc, "alpha", 0.01f, "", 0);
  };
  t["Elu"] = [](NodeContext &nc) {
    return activation<EluOp>(nc, "alpha", 1.0f, "", 0);
  };
  t["Selu"] = [](NodeContext &nc) {
    // Selu-1's defaults are the constants rounded to five digits.
    if (nc.opset < 6)
      return activation<SeluOp>(nc, "alpha", 1.6732f, "gamma", 1.0507f);
    return activation<SeluOp>(nc, "alpha", 1.67326319217681884765625f,
                              "gamma", 1.05070102214813232421875f);
  };
  t["HardSigmoid"] = [](NodeContext &nc) {
    return activation<HardSigmoidOp>(nc, "alpha", 0.2f, "beta", 0.5f);
  };
  t["ThresholdedRelu"] = [](NodeContext &nc) {
    return activation<ThresholdedReluOp>(nc, "alpha", 1.0f, "", 0);
  };
  t["Celu"] = [](NodeContext &nc) {
    return activation<CeluOp>(nc, "alpha", 1.0f, "", 0);
  };
  t["Shrink"] = [](NodeContext &nc) {
    return activation<ShrinkOp>(nc, "lambd", 0.5f, "bias", 0.0f);
  };
  t["Pow"] = importPow;
  t["Mod"] = importMod;
  t["PRelu"] = binary<PReluOp>;
  t["And"] = binary<AndOp>;
  t["Or"] = binary<OrOp>;
  t["Xor"] = binary<XorOp>;
  t["Equal"] = binary<EqualOp>;
  t["Less"] = binary<LessOp>;
  t["LessOrEqual"] = binary<LessOrEqualOp>;
  t["Greater"] = binary<GreaterOp>;
  t["GreaterOrEqual"] = binary<GreaterOrEqualOp>;
  t["Max"] = variadic<MaxOp>;
  t["Min"] = variadic<MinOp>;
  t["Sum"] = variadic<AddOp>;
  t["Mean"] = variadic<AddOp, true>;
  t["IsNaN"] = importIsNaN;
  t["IsInf"] = importIsInf;
  t["Where"] = importWhere;
  t["Cast"] = importCast;
  t["CastLike"] = importCastLike;
  t["Clip"] = importClip;
}
