//===- DlcFolders.cpp - constant folding ----------------------------------===//
//
// Models compute shapes from constants (Shape -> Gather -> Mul -> Concat ->
// Reshape). These folders evaluate such chains at import time on small
// integer and float constants. Ops that only move data (Reshape, Slice,
// Transpose) also fold weights of any size, which the importers rearrange
// (an LSTM's transposed weight matrices and split bias): the folded tensor
// is no larger than its source, and the model no longer rearranges it on
// every run.
//
//===----------------------------------------------------------------------===//
#include "ir/DlcOps.h"

#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"

#include <cstring>

using namespace mlir;
using namespace dlc;

/// Arithmetic folds only small tensors: the point is shape arithmetic, not
/// weights. Folded constants up to this size are inline attributes, larger
/// ones resource blobs.
static constexpr int64_t kMaxFoldElements = 1024;

/// The row-major bytes of a constant that is not a splat and whose elements
/// are whole bytes wide (an inline DenseElementsAttr or a resource blob).
static std::optional<ArrayRef<char>> bytesOf(Attribute attr) {
  auto elements = dyn_cast_or_null<ElementsAttr>(attr);
  if (!elements || !elements.getElementType().isIntOrFloat() ||
      elements.getElementType().getIntOrFloatBitWidth() % 8 != 0)
    return std::nullopt;
  if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    if (dense.isSplat())
      return std::nullopt;
    return dense.getRawData();
  }
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr))
    if (AsmResourceBlob *blob = resource.getRawHandle().getBlob())
      return blob->getData();
  return std::nullopt;
}

/// A constant of `type` holding `bytes` (row-major).
static ElementsAttr constantOf(RankedTensorType type, ArrayRef<char> bytes) {
  if (type.getNumElements() <= kMaxFoldElements)
    return DenseElementsAttr::getFromRawBuffer(type, bytes);
  return DenseResourceElementsAttr::get(
      type, "dlc_folded",
      HeapAsmResourceBlob::allocateAndCopyWithAlign(bytes, /*align=*/64));
}

/// Folds an op that only moves data: each element of the result (of static
/// `type`) is the element of `input` at the flat index `source` returns for
/// the result's multi-index, or the fold fails where `source` returns -1.
/// A splat stays a splat; elements narrower than a byte (i1) fold through
/// attributes, and only for small results.
static OpFoldResult
foldDataMovement(Attribute input, RankedTensorType type,
                 function_ref<int64_t(ArrayRef<int64_t>)> source) {
  if (!type.hasStaticShape())
    return {};
  auto dense = dyn_cast_or_null<DenseElementsAttr>(input);
  if (dense && dense.isSplat())
    return DenseElementsAttr::get(type, dense.getSplatValue<Attribute>());
  auto elements = dyn_cast_or_null<ElementsAttr>(input);
  if (!elements)
    return {};
  int64_t numElements = type.getNumElements(), rank = type.getRank();
  int64_t sourceElements = elements.getNumElements();
  std::vector<int64_t> from(static_cast<size_t>(numElements));
  SmallVector<int64_t> index(rank, 0);
  for (int64_t i = 0; i < numElements; ++i) {
    from[i] = source(index);
    if (from[i] < 0 || from[i] >= sourceElements)
      return {};
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < type.getDimSize(d))
        break;
      index[d] = 0;
    }
  }
  if (std::optional<ArrayRef<char>> bytes = bytesOf(input)) {
    size_t width = type.getElementType().getIntOrFloatBitWidth() / 8;
    std::vector<char> out(static_cast<size_t>(numElements) * width);
    for (int64_t i = 0; i < numElements; ++i)
      std::memcpy(&out[i * width], bytes->data() + from[i] * width, width);
    return constantOf(type, out);
  }
  if (!dense || numElements > kMaxFoldElements)
    return {};
  SmallVector<Attribute> all(dense.getValues<Attribute>()), values;
  for (int64_t f : from)
    values.push_back(all[f]);
  return DenseElementsAttr::get(type, values);
}

/// `attr` as a DenseElementsAttr of `type` (splats broadcast), or null.
static DenseElementsAttr asDense(Attribute attr, RankedTensorType type) {
  if (!type.hasStaticShape() || type.getNumElements() > kMaxFoldElements)
    return {};
  if (auto resource = dyn_cast_or_null<DenseResourceElementsAttr>(attr))
    if (std::optional<ArrayRef<char>> bytes = bytesOf(resource))
      attr = DenseElementsAttr::getFromRawBuffer(resource.getType(), *bytes);
  auto dense = dyn_cast_or_null<DenseElementsAttr>(attr);
  if (!dense)
    return {};
  if (dense.getType().getShape() == type.getShape())
    return dense;
  if (dense.isSplat())
    return DenseElementsAttr::get(
        RankedTensorType::get(type.getShape(), dense.getElementType()),
        dense.getSplatValue<Attribute>());
  return {};
}

template <typename IntFn, typename FloatFn>
static OpFoldResult foldBinary(Operation *op, ArrayRef<Attribute> operands,
                               IntFn intFn, FloatFn floatFn) {
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  DenseElementsAttr lhs = asDense(operands[0], type),
                    rhs = asDense(operands[1], type);
  if (!lhs || !rhs)
    return {};
  Type et = type.getElementType();
  if (isa<IntegerType>(et) && !et.isInteger(1)) {
    SmallVector<APInt> values;
    for (auto [a, b] : llvm::zip(lhs.getValues<APInt>(), rhs.getValues<APInt>())) {
      std::optional<APInt> v = intFn(a, b);
      if (!v)
        return {};
      values.push_back(*v);
    }
    return DenseElementsAttr::get(type, values);
  }
  if (isa<FloatType>(et)) {
    SmallVector<APFloat> values;
    for (auto [a, b] :
         llvm::zip(lhs.getValues<APFloat>(), rhs.getValues<APFloat>()))
      values.push_back(floatFn(a, b));
    return DenseElementsAttr::get(type, values);
  }
  return {};
}

OpFoldResult AddOp::fold(FoldAdaptor adaptor) {
  return foldBinary(
      *this, adaptor.getOperands(),
      [](const APInt &a, const APInt &b) -> std::optional<APInt> { return a + b; },
      [](APFloat a, const APFloat &b) { a.add(b, APFloat::rmNearestTiesToEven); return a; });
}

OpFoldResult SubOp::fold(FoldAdaptor adaptor) {
  return foldBinary(
      *this, adaptor.getOperands(),
      [](const APInt &a, const APInt &b) -> std::optional<APInt> { return a - b; },
      [](APFloat a, const APFloat &b) { a.subtract(b, APFloat::rmNearestTiesToEven); return a; });
}

OpFoldResult MulOp::fold(FoldAdaptor adaptor) {
  return foldBinary(
      *this, adaptor.getOperands(),
      [](const APInt &a, const APInt &b) -> std::optional<APInt> { return a * b; },
      [](APFloat a, const APFloat &b) { a.multiply(b, APFloat::rmNearestTiesToEven); return a; });
}

OpFoldResult DivOp::fold(FoldAdaptor adaptor) {
  return foldBinary(
      *this, adaptor.getOperands(),
      [](const APInt &a, const APInt &b) -> std::optional<APInt> {
        if (b.isZero())
          return std::nullopt;
        return a.sdiv(b);
      },
      [](APFloat a, const APFloat &b) { a.divide(b, APFloat::rmNearestTiesToEven); return a; });
}

OpFoldResult GatherOp::fold(FoldAdaptor adaptor) {
  auto data = dyn_cast_or_null<DenseElementsAttr>(adaptor.getInput());
  auto indices = dyn_cast_or_null<DenseIntElementsAttr>(adaptor.getIndices());
  auto type = getResult().getType();
  if (!data || !indices || data.getType().getRank() != 1 ||
      type.getNumElements() > kMaxFoldElements)
    return {};
  int64_t n = data.getNumElements();
  SmallVector<Attribute> all(data.getValues<Attribute>());
  SmallVector<Attribute> values;
  for (const APInt &i : indices.getValues<APInt>()) {
    int64_t idx = i.getSExtValue();
    if (idx < 0)
      idx += n;
    if (idx < 0 || idx >= n)
      return {};
    values.push_back(all[idx]);
  }
  return DenseElementsAttr::get(type, values);
}

OpFoldResult SliceOp::fold(FoldAdaptor adaptor) {
  auto inputType = cast<RankedTensorType>(getInput().getType());
  if (!inputType.hasStaticShape())
    return {};
  SmallVector<int64_t> strides = computeStrides(inputType.getShape());
  ArrayRef<int64_t> starts = getStarts(), steps = getSteps();
  return foldDataMovement(
      adaptor.getInput(), getType(), [&](ArrayRef<int64_t> index) -> int64_t {
        int64_t flat = 0;
        for (auto [d, i] : llvm::enumerate(index)) {
          int64_t at = starts[d] + i * steps[d];
          if (at < 0 || at >= inputType.getDimSize(d))
            return -1;
          flat += at * strides[d];
        }
        return flat;
      });
}

OpFoldResult TransposeOp::fold(FoldAdaptor adaptor) {
  ArrayRef<int64_t> perm = getPerm();
  if (isIdentityPermutation(perm))
    return getInput();
  auto inputType = cast<RankedTensorType>(getInput().getType());
  if (!inputType.hasStaticShape())
    return {};
  SmallVector<int64_t> strides = computeStrides(inputType.getShape());
  return foldDataMovement(adaptor.getInput(), getType(),
                          [&](ArrayRef<int64_t> index) {
                            int64_t flat = 0;
                            for (auto [d, i] : llvm::enumerate(index))
                              flat += i * strides[perm[d]];
                            return flat;
                          });
}

OpFoldResult NegOp::fold(FoldAdaptor adaptor) {
  auto input = dyn_cast_or_null<DenseElementsAttr>(adaptor.getInput());
  if (!input || input.getNumElements() > kMaxFoldElements)
    return {};
  if (isa<FloatType>(input.getElementType()))
    return input.mapValues(input.getElementType(), [](const APFloat &v) {
      return (-v).bitcastToAPInt();
    });
  return input.mapValues(input.getElementType(),
                         [](const APInt &v) { return -v; });
}
