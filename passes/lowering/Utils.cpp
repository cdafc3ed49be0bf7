//===- Utils.cpp - helpers shared by the dlc -> linalg lowerings ----------===//
#include "passes/lowering/Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"

using namespace mlir;

AffineMap dlc::broadcastMap(MLIRContext *ctx, ArrayRef<int64_t> operandShape,
                            ArrayRef<int64_t> resultShape) {
  int64_t offset = resultShape.size() - operandShape.size();
  SmallVector<AffineExpr> exprs;
  for (auto [i, dim] : llvm::enumerate(operandShape)) {
    if (dim == 1 && resultShape[offset + i] != 1)
      exprs.push_back(getAffineConstantExpr(0, ctx));
    else
      exprs.push_back(getAffineDimExpr(offset + i, ctx));
  }
  return AffineMap::get(resultShape.size(), 0, exprs, ctx);
}

Value dlc::buildElementwise(OpBuilder &b, Location loc,
                            RankedTensorType resultType, ValueRange inputs,
                            const BodyBuilder &body) {
  MLIRContext *ctx = b.getContext();
  SmallVector<AffineMap> maps;
  for (Value in : inputs)
    maps.push_back(broadcastMap(
        ctx, cast<RankedTensorType>(in.getType()).getShape(),
        resultType.getShape()));
  maps.push_back(b.getMultiDimIdentityMap(resultType.getRank()));
  SmallVector<utils::IteratorType> iters(resultType.getRank(),
                                         utils::IteratorType::parallel);
  Value init = buildEmpty(b, loc, resultType, inputs);
  auto generic = linalg::GenericOp::create(
      b, loc, resultType, inputs, init, maps, iters,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value v = body(nb, nloc, args.drop_back());
        linalg::YieldOp::create(nb, nloc, v);
      });
  return generic.getResult(0);
}

SmallVector<Value> dlc::dynamicSizes(OpBuilder &b, Location loc,
                                     RankedTensorType type,
                                     ValueRange sources) {
  SmallVector<Value> sizes;
  int64_t rank = type.getRank();
  for (int64_t d = 0; d < rank; ++d) {
    if (!type.isDynamicDim(d))
      continue;
    Value size;
    for (Value s : sources) {
      auto st = cast<RankedTensorType>(s.getType());
      int64_t sd = d - (rank - st.getRank());
      if (sd >= 0 && st.isDynamicDim(sd)) {
        size = tensor::DimOp::create(b, loc, s, sd);
        break;
      }
    }
    assert(size && "a dynamic result dimension without a dynamic source");
    sizes.push_back(size);
  }
  return sizes;
}

Value dlc::buildEmpty(OpBuilder &b, Location loc, RankedTensorType type,
                      ValueRange sources) {
  return tensor::EmptyOp::create(b, loc, type,
                                 dynamicSizes(b, loc, type, sources));
}

Value dlc::buildFilled(OpBuilder &b, Location loc, RankedTensorType type,
                       TypedAttr value, ValueRange sources) {
  Value init = buildEmpty(b, loc, type, sources);
  Value scalar = arith::ConstantOp::create(b, loc, value);
  return linalg::FillOp::create(b, loc, scalar, init).getResult(0);
}

SmallVector<Value> dlc::dynamicDimsOf(OpBuilder &b, Location loc, Value source,
                                      ArrayRef<int64_t> dims) {
  auto type = cast<RankedTensorType>(source.getType());
  SmallVector<Value> sizes;
  for (int64_t d : dims)
    if (type.isDynamicDim(d))
      sizes.push_back(tensor::DimOp::create(b, loc, source, d));
  return sizes;
}

Value dlc::buildFilledSized(OpBuilder &b, Location loc, RankedTensorType type,
                            TypedAttr value, ValueRange dynamicSizes) {
  Value init = tensor::EmptyOp::create(b, loc, type, dynamicSizes);
  Value scalar = arith::ConstantOp::create(b, loc, value);
  return linalg::FillOp::create(b, loc, scalar, init).getResult(0);
}

Value dlc::numElementsAlong(OpBuilder &b, Location loc, Value source,
                            ArrayRef<int64_t> dims) {
  auto type = cast<RankedTensorType>(source.getType());
  int64_t fixed = 1;
  Value dynamic;
  for (int64_t d : dims) {
    if (!type.isDynamicDim(d)) {
      fixed *= type.getDimSize(d);
      continue;
    }
    Value size = tensor::DimOp::create(b, loc, source, d);
    dynamic = dynamic ? arith::MulIOp::create(b, loc, dynamic, size).getResult()
                      : size;
  }
  Value c = arith::ConstantIndexOp::create(b, loc, fixed);
  return dynamic ? arith::MulIOp::create(b, loc, dynamic, c).getResult() : c;
}

Value dlc::floatCountAlong(OpBuilder &b, Location loc, Value source,
                           ArrayRef<int64_t> dims, Type et) {
  auto type = cast<RankedTensorType>(source.getType());
  if (llvm::none_of(dims, [&](int64_t d) { return type.isDynamicDim(d); })) {
    int64_t count = 1;
    for (int64_t d : dims)
      count *= type.getDimSize(d);
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(et, count));
  }
  return arith::UIToFPOp::create(
      b, loc, et,
      arith::IndexCastUIOp::create(b, loc, b.getI64Type(),
                                   numElementsAlong(b, loc, source, dims)));
}

Value dlc::buildWindowTap(OpBuilder &b, Location loc, Value input,
                          RankedTensorType tapType, int64_t row, int64_t col,
                          ArrayRef<int64_t> strides) {
  auto index = [&](int64_t v) -> OpFoldResult { return b.getIndexAttr(v); };
  SmallVector<OpFoldResult> sizes;
  for (int64_t d : tapType.getShape())
    sizes.push_back(index(d));
  return tensor::ExtractSliceOp::create(
      b, loc, tapType, input,
      ArrayRef<OpFoldResult>{index(0), index(0), index(row), index(col)},
      sizes,
      ArrayRef<OpFoldResult>{index(1), index(1), index(strides[0]),
                             index(strides[1])});
}

Value dlc::buildPad(OpBuilder &b, Location loc, Value input,
                    ArrayRef<int64_t> low, ArrayRef<int64_t> high,
                    TypedAttr value) {
  if (llvm::all_of(low, [](int64_t v) { return v == 0; }) &&
      llvm::all_of(high, [](int64_t v) { return v == 0; }))
    return input;
  auto type = cast<RankedTensorType>(input.getType());
  SmallVector<int64_t> shape(type.getShape());
  for (size_t i = 0; i < shape.size(); ++i)
    if (!ShapedType::isDynamic(shape[i]))
      shape[i] += low[i] + high[i];
  auto padType = RankedTensorType::get(shape, type.getElementType());
  Value padValue = arith::ConstantOp::create(b, loc, value);
  SmallVector<OpFoldResult> lo, hi;
  for (size_t i = 0; i < shape.size(); ++i) {
    lo.push_back(b.getIndexAttr(low[i]));
    hi.push_back(b.getIndexAttr(high[i]));
  }
  return tensor::PadOp::create(b, loc, padType, input, lo, hi, padValue);
}

Value dlc::buildReshape(OpBuilder &b, Location loc, Value input,
                        RankedTensorType resultType) {
  auto inType = cast<RankedTensorType>(input.getType());
  if (inType == resultType)
    return input;
  // One collapse or expand when the reshape only merges or splits adjacent
  // axes: it keeps which axes stay apart (the batch, for a dynamic batch).
  if (inType.getRank() > resultType.getRank() && resultType.getRank() > 0)
    if (auto groups = getReassociationIndicesForCollapse(
            inType.getShape(), resultType.getShape()))
      return tensor::CollapseShapeOp::create(b, loc, resultType, input, *groups);
  if (resultType.getRank() > inType.getRank() && inType.getRank() > 0)
    if (auto groups = getReassociationIndicesForCollapse(
            resultType.getShape(), inType.getShape()))
      return tensor::ExpandShapeOp::create(b, loc, resultType, input, *groups);
  auto allDims = [](int64_t rank) {
    ReassociationIndices dims;
    for (int64_t i = 0; i < rank; ++i)
      dims.push_back(i);
    return SmallVector<ReassociationIndices>{dims};
  };
  Value flat = input;
  if (inType.getRank() == 0) {
    auto one = RankedTensorType::get({1}, inType.getElementType());
    flat = tensor::ExpandShapeOp::create(b, loc, one, input,
                                         SmallVector<ReassociationIndices>{});
  } else if (inType.getRank() > 1) {
    auto flatType = RankedTensorType::get({inType.getNumElements()},
                                          inType.getElementType());
    flat = tensor::CollapseShapeOp::create(b, loc, flatType, input,
                                           allDims(inType.getRank()));
  }
  if (resultType.getRank() == 0)
    return tensor::CollapseShapeOp::create(
        b, loc, resultType, flat, SmallVector<ReassociationIndices>{});
  if (resultType.getRank() == 1)
    return flat;
  return tensor::ExpandShapeOp::create(b, loc, resultType, flat,
                                       allDims(resultType.getRank()));
}

Value dlc::buildFmaTap(OpBuilder &b, Location loc, RankedTensorType type,
                       Value x, Value w, Value acc, AffineMap xMap,
                       AffineMap wMap) {
  AffineMap id = b.getMultiDimIdentityMap(type.getRank());
  SmallVector<utils::IteratorType> iters(type.getRank(),
                                         utils::IteratorType::parallel);
  Value empty =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  return linalg::GenericOp::create(
             b, loc, type, ValueRange{x, w, acc}, empty,
             ArrayRef<AffineMap>{xMap, wMap, id, id}, iters,
             [](OpBuilder &nb, Location l, ValueRange args) {
               linalg::YieldOp::create(nb, l,
                                       Value(math::FmaOp::create(
                                           nb, l, args[0], args[1], args[2])));
             })
      .getResult(0);
}
