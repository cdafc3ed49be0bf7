//===- ConstantData.cpp - the bytes of constant tensors --------------------===//
#include "codegen/common/ConstantData.h"

#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"

#include <algorithm>
#include <cassert>
#include <cstring>

using namespace mlir;

ArrayRef<char> dlc::rawConstantBytes(Attribute value) {
  if (auto dense = dyn_cast<DenseElementsAttr>(value))
    return dense.isSplat() ? ArrayRef<char>() : dense.getRawData();
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value))
    if (AsmResourceBlob *blob = resource.getRawHandle().getBlob())
      return blob->getData();
  return {};
}

std::vector<char> dlc::padBytes(ArrayRef<char> data, ArrayRef<int64_t> shape,
                                int64_t dim, int64_t extent, size_t elemBytes) {
  assert(extent >= shape[dim] && "padding may not shrink a dim");
  int64_t outer = 1, inner = elemBytes;
  for (int64_t d = 0; d < dim; ++d)
    outer *= shape[d];
  for (int64_t d = dim + 1, e = shape.size(); d < e; ++d)
    inner *= shape[d];
  int64_t from = shape[dim] * inner, to = extent * inner;
  std::vector<char> padded(outer * to, 0);
  for (int64_t o = 0; o < outer; ++o)
    std::copy_n(data.data() + o * from, from, padded.data() + o * to);
  return padded;
}

std::vector<char> dlc::permuteBytes(ArrayRef<char> data, ArrayRef<int64_t> shape,
                                    ArrayRef<int64_t> perm, size_t elemBytes) {
  size_t rank = shape.size();
  SmallVector<int64_t> srcStrides = computeStrides(shape);
  SmallVector<int64_t> dstShape = applyPermutation(shape, perm);
  SmallVector<int64_t> stepInSrc(rank);
  for (size_t j = 0; j < rank; ++j)
    stepInSrc[j] = srcStrides[perm[j]];
  std::vector<char> out(data.size());
  SmallVector<int64_t> idx(rank, 0);
  int64_t total = computeProduct(shape), src = 0;
  for (int64_t n = 0; n < total; ++n) {
    std::memcpy(&out[n * elemBytes], &data[src * elemBytes], elemBytes);
    // Next destination index (row-major), keeping the source offset.
    for (int64_t j = rank - 1; j >= 0; --j) {
      src += stepInSrc[j];
      if (++idx[j] < dstShape[j])
        break;
      src -= stepInSrc[j] * dstShape[j];
      idx[j] = 0;
    }
  }
  return out;
}

ElementsAttr dlc::reshapedConstant(Attribute value, ShapedType type) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements ||
      elements.getShapedType().getElementType() != type.getElementType() ||
      !type.hasStaticShape() ||
      elements.getShapedType().getNumElements() != type.getNumElements())
    return {};
  if (auto dense = dyn_cast<DenseElementsAttr>(value))
    return dense.reshape(type);
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value))
    return DenseResourceElementsAttr::get(type, resource.getRawHandle());
  return {};
}

DenseResourceElementsAttr dlc::resourceConstant(RankedTensorType type,
                                                StringRef name,
                                                ArrayRef<char> bytes) {
  auto blob = HeapAsmResourceBlob::allocateAndCopyWithAlign(bytes, 64);
  return DenseResourceElementsAttr::get(type, name, std::move(blob));
}
