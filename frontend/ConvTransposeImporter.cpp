//===- ConvTransposeImporter.cpp - ONNX ConvTranspose ---------------------===//
//
// ConvTranspose is a convolution of the stride-dilated input (zeros between
// elements) with the spatially flipped kernel, its in/out channels swapped
// per group, padded by (k - 1) * d - pads (cropped where that is negative).
//
//===----------------------------------------------------------------------===//
#include "frontend/NodeImporter.h"
#include "ir/DlcOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace dlc;

namespace {


Value sliceTo(NodeContext &nc, Value v, ArrayRef<int64_t> starts,
              ArrayRef<int64_t> steps, ArrayRef<int64_t> shape) {
  if (!v)
    return Value(); // an earlier builder call failed
  OpBuilder &b = nc.builder;
  return one(buildTyped<SliceOp>(
      nc, RankedTensorType::get(shape, typeOf(v).getElementType()), {v},
      {b.getNamedAttr("starts", b.getDenseI64ArrayAttr(starts)),
       b.getNamedAttr("steps", b.getDenseI64ArrayAttr(steps))}));
}

Value padBy(NodeContext &nc, Value v, ArrayRef<int64_t> pads) {
  if (!v)
    return Value();
  auto t = typeOf(v);
  int64_t rank = t.getRank();
  if (llvm::all_of(pads, [](int64_t p) { return p == 0; }))
    return v;
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d)
    shape.push_back(t.isDynamicDim(d)
                        ? ShapedType::kDynamic
                        : t.getDimSize(d) + pads[d] + pads[rank + d]);
  OpBuilder &b = nc.builder;
  return one(buildTyped<PadOp>(
      nc, RankedTensorType::get(shape, t.getElementType()), {v},
      {b.getNamedAttr("pads", b.getDenseI64ArrayAttr(pads)),
       b.getNamedAttr("value", b.getF64FloatAttr(0))}));
}

/// `a * k + c` of a size.
OpFoldResult affineSize(NodeContext &nc, OpFoldResult a, int64_t k, int64_t c) {
  OpBuilder &b = nc.builder;
  if (std::optional<int64_t> v = getConstantIntValue(a))
    return b.getIndexAttr(*v * k + c);
  Value x = cast<Value>(a);
  if (k != 1)
    x = arith::MulIOp::create(b, nc.loc, x,
                              arith::ConstantIndexOp::create(b, nc.loc, k));
  if (c != 0)
    x = arith::AddIOp::create(b, nc.loc, x,
                              arith::ConstantIndexOp::create(b, nc.loc, c));
  return x;
}

/// A tensor of `type` with `sizes`, made of zeros.
Value zerosOf(NodeContext &nc, RankedTensorType type,
              ArrayRef<OpFoldResult> sizes) {
  OpBuilder &b = nc.builder;
  SmallVector<Value> dynamic;
  for (auto [d, size] : llvm::enumerate(sizes))
    if (type.isDynamicDim(d))
      dynamic.push_back(getValueOrCreateConstantIndexOp(b, nc.loc, size));
  Value zero = arith::ConstantOp::create(b, nc.loc,
                                         b.getZeroAttr(type.getElementType()));
  return tensor::SplatOp::create(b, nc.loc, type, zero, dynamic);
}

/// A run-time spatial size: the input with s - 1 zeros between elements
/// (a strided insertion into zeros), then padded by `pads` (static) or
/// cropped by `crop`, each dimension's size computed at run time.
Value dilateAndPad(NodeContext &nc, Value x, ArrayRef<int64_t> s,
                   ArrayRef<int64_t> pads, ArrayRef<int64_t> crop) {
  OpBuilder &b = nc.builder;
  auto t = typeOf(x);
  int64_t rank = t.getRank();
  if (llvm::any_of(s, [](int64_t v) { return v != 1; })) {
    SmallVector<OpFoldResult> sizes, offsets(rank, b.getIndexAttr(0)), inSizes,
        strides(rank, b.getIndexAttr(1));
    SmallVector<int64_t> shape;
    for (int64_t d = 0; d < rank; ++d) {
      OpFoldResult n = tensor::getMixedSize(b, nc.loc, x, d);
      inSizes.push_back(n);
      int64_t stride = d >= 2 ? s[d - 2] : 1;
      // (n - 1) * s + 1 elements.
      OpFoldResult m = affineSize(nc, n, stride, 1 - stride);
      sizes.push_back(m);
      strides[d] = b.getIndexAttr(stride);
      shape.push_back(getConstantIntValue(m).value_or(ShapedType::kDynamic));
    }
    auto type = RankedTensorType::get(shape, t.getElementType());
    x = tensor::InsertSliceOp::create(b, nc.loc, x, zerosOf(nc, type, sizes),
                                      offsets, inSizes, strides);
  }
  x = padBy(nc, x, pads);
  if (llvm::any_of(crop, [](int64_t v) { return v != 0; })) {
    auto pt = typeOf(x);
    SmallVector<OpFoldResult> offsets, sizes, strides(rank, b.getIndexAttr(1));
    SmallVector<int64_t> shape;
    for (int64_t d = 0; d < rank; ++d) {
      offsets.push_back(b.getIndexAttr(crop[d]));
      OpFoldResult m =
          affineSize(nc, tensor::getMixedSize(b, nc.loc, x, d), 1, -(crop[d] + crop[rank + d]));
      sizes.push_back(m);
      shape.push_back(getConstantIntValue(m).value_or(ShapedType::kDynamic));
    }
    x = tensor::ExtractSliceOp::create(
        b, nc.loc, RankedTensorType::get(shape, pt.getElementType()), x,
        offsets, sizes, strides);
  }
  return x;
}

NodeResults importConvTranspose(NodeContext &nc) {
  if (failed(requireOperands(nc, 2)) || failed(requireFloat(nc, 3)))
    return failure();
  Value x = nc.operand(0), w = nc.operand(1);
  auto xt = typeOf(x), wt = typeOf(w);
  int64_t rank = xt.getRank(), spatial = rank - 2;
  // The batch and the spatial dimensions may be run-time sizes.
  if (rank < 3 || wt.getRank() != rank || xt.isDynamicDim(1) ||
      !wt.hasStaticShape())
    return nc.error() << "needs an input with static channels and a static "
                         "weight, of equal rank >= 3",
           failure();
  int64_t group = nc.intAttr("group", 1);
  int64_t c = xt.getDimSize(1), fg = wt.getDimSize(1), f = fg * group;
  if (group < 1 || c % group || wt.getDimSize(0) != c)
    return nc.error() << "weight " << wt << " does not match " << c
                      << " input channels in " << group << " groups",
           failure();
  auto ints = [&](StringRef name, int64_t dflt, int64_t n) {
    return nc.intsAttr(name).value_or(SmallVector<int64_t>(n, dflt));
  };
  SmallVector<int64_t> k =
      nc.intsAttr("kernel_shape")
          .value_or(SmallVector<int64_t>(wt.getShape().drop_front(2)));
  SmallVector<int64_t> s = ints("strides", 1, spatial),
                       d = ints("dilations", 1, spatial),
                       outPad = ints("output_padding", 0, spatial),
                       pads = ints("pads", 0, 2 * spatial);
  // Every list has one entry per spatial dimension (two for pads), and
  // kernel_shape is the weight's (found by fuzzing).
  if (ArrayRef<int64_t>(k) != wt.getShape().drop_front(2))
    return nc.error() << "kernel_shape does not match the weight " << wt,
           failure();
  for (auto [name, list, n] :
       {std::make_tuple("strides", &s, spatial),
        std::make_tuple("dilations", &d, spatial),
        std::make_tuple("output_padding", &outPad, spatial),
        std::make_tuple("pads", &pads, 2 * spatial)})
    if ((int64_t)list->size() != n ||
        (name != StringRef("pads") && name != StringRef("output_padding") &&
         llvm::any_of(*list, [](int64_t v) { return v < 1; })) ||
        llvm::any_of(*list, [](int64_t v) { return v < 0; }))
      return nc.error() << name << " must hold " << n
                        << (name == StringRef("pads") ||
                                    name == StringRef("output_padding")
                                ? " non-negative"
                                : " positive")
                        << " values for a rank-" << rank << " input",
             failure();
  std::string autoPad = nc.stringAttr("auto_pad", "NOTSET");
  auto outputShape = nc.intsAttr("output_shape");
  if (outputShape && !xt.hasStaticShape())
    return nc.error() << "output_shape over a run-time input size is not "
                         "supported yet (explicit pads or auto_pad are)",
           failure();
  if (outputShape || autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
    for (int64_t i = 0; i < spatial; ++i) {
      // With SAME the output is in * s, and the total padding does not
      // depend on the input's size.
      int64_t total = outPad[i] + ((k[i] - 1) * d[i] + 1) - s[i];
      if (outputShape) {
        int64_t in = xt.getDimSize(2 + i);
        total = s[i] * (in - 1) + outPad[i] + ((k[i] - 1) * d[i] + 1) -
                (*outputShape)[outputShape->size() - spatial + i];
      }
      bool lower = autoPad == "SAME_LOWER";
      pads[i] = lower ? total - total / 2 : total / 2;
      pads[spatial + i] = total - pads[i];
    }
  } else if (autoPad == "VALID") {
    std::fill(pads.begin(), pads.end(), 0);
  }

  // Padding by (k - 1) * d - pads (+ output_padding at the end), a crop
  // where that is negative.
  SmallVector<int64_t> p(2 * rank, 0), crop(2 * rank, 0);
  for (int64_t i = 0; i < spatial; ++i) {
    int64_t full = (k[i] - 1) * d[i];
    int64_t lo = full - pads[i], hi = full - pads[spatial + i] + outPad[i];
    p[2 + i] = std::max<int64_t>(lo, 0);
    p[rank + 2 + i] = std::max<int64_t>(hi, 0);
    crop[2 + i] = std::max<int64_t>(-lo, 0);
    crop[rank + 2 + i] = std::max<int64_t>(-hi, 0);
  }
  // Steps 1 and 2 at run-time sizes.
  bool dynamic = !xt.hasStaticShape();
  if (dynamic)
    x = dilateAndPad(nc, x, s, p, crop);
  // 1. Insert s - 1 zeros between input elements: [.., L] -> [.., L, 1],
  //    pad to [.., L, s], flatten, drop the trailing zeros.
  for (int64_t i = 0; !dynamic && i < spatial; ++i) {
    if (s[i] == 1)
      continue;
    int64_t axis = 2 + i;
    auto t = typeOf(x);
    SmallVector<int64_t> shape(t.getShape());
    shape.insert(shape.begin() + axis + 1, 1);
    x = one(reshapeTo(nc, x, shape));
    SmallVector<int64_t> p(2 * (rank + 1), 0);
    p[rank + 1 + axis + 1] = s[i] - 1;
    x = padBy(nc, x, p);
    SmallVector<int64_t> flat(t.getShape());
    flat[axis] *= s[i];
    x = one(reshapeTo(nc, x, flat));
    SmallVector<int64_t> starts(rank, 0), steps(rank, 1), cut(flat);
    cut[axis] = (t.getDimSize(axis) - 1) * s[i] + 1;
    x = sliceTo(nc, x, starts, steps, cut);
  }
  // 2. Pad, and crop.
  if (!dynamic)
    x = padBy(nc, x, p);
  if (!dynamic && llvm::any_of(crop, [](int64_t v) { return v != 0; })) {
    auto t = typeOf(x);
    SmallVector<int64_t> starts(rank, 0), steps(rank, 1), shape(t.getShape());
    for (int64_t dd = 0; dd < rank; ++dd) {
      starts[dd] = crop[dd];
      shape[dd] -= crop[dd] + crop[rank + dd];
    }
    x = sliceTo(nc, x, starts, steps, shape);
  }
  // 3. Weight [C, F/g, k...] -> [F, C/g, k...], flipped spatially.
  SmallVector<int64_t> gShape{group, c / group, fg};
  llvm::append_range(gShape, k);
  w = one(reshapeTo(nc, w, gShape));
  SmallVector<int64_t> perm{0, 2, 1};
  for (int64_t i = 0; i < spatial; ++i)
    perm.push_back(3 + i);
  OpBuilder &b = nc.builder;
  w = one(buildInferred<TransposeOp>(
      nc, {w}, {b.getNamedAttr("perm", b.getDenseI64ArrayAttr(perm))}));
  SmallVector<int64_t> fShape{f, c / group};
  llvm::append_range(fShape, k);
  w = one(reshapeTo(nc, w, fShape));
  SmallVector<int64_t> starts(rank, 0), steps(rank, 1);
  for (int64_t i = 0; i < spatial; ++i) {
    starts[2 + i] = k[i] - 1;
    steps[2 + i] = -1;
  }
  w = sliceTo(nc, w, starts, steps, fShape);
  // 4. The convolution.
  SmallVector<Value> operands{x, w};
  if (nc.operand(2))
    operands.push_back(nc.operand(2));
  return buildInferred<ConvOp>(
      nc, operands,
      {b.getNamedAttr("strides", b.getDenseI64ArrayAttr(SmallVector<int64_t>(spatial, 1))),
       b.getNamedAttr("pads", b.getDenseI64ArrayAttr(SmallVector<int64_t>(2 * spatial, 0))),
       b.getNamedAttr("dilations", b.getDenseI64ArrayAttr(d)),
       b.getNamedAttr("group", b.getI64IntegerAttr(group))});
}

} // namespace

void dlc::addConvTransposeImporters(NodeImporterTable &t) {
  t["ConvTranspose"] = importConvTranspose;
}
