//===- PackConstantReads.cpp - constants in the layout their reads use ----===//
#include "codegen/cpu/Passes.h"

#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"

namespace dlc {
#define GEN_PASS_DEF_PACKCONSTANTREADS
#include "codegen/cpu/Passes.h.inc"
} // namespace dlc

using namespace mlir;

/// The raw, densely packed bytes of a constant; empty when unavailable
/// (splats, sub-byte element types).
static ArrayRef<char> rawBytes(Attribute value) {
  if (auto dense = dyn_cast<DenseElementsAttr>(value))
    return dense.isSplat() ? ArrayRef<char>() : dense.getRawData();
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value))
    if (AsmResourceBlob *blob = resource.getRawHandle().getBlob())
      return blob->getData();
  return {};
}

/// `data` (row-major, `shape`) with its dims reordered by `perm`: result dim
/// j is source dim perm[j].
static std::vector<char> permuteBytes(ArrayRef<char> data,
                                      ArrayRef<int64_t> shape,
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

namespace {
struct PackConstantReadsPass
    : dlc::impl::PackConstantReadsBase<PackConstantReadsPass> {
  void packOne(arith::ConstantOp cst) {
    auto type = dyn_cast<RankedTensorType>(cst.getType());
    if (!type || !type.hasStaticShape() || type.getRank() < 2)
      return;
    unsigned bits = type.getElementTypeBitWidth();
    if (bits == 0 || bits % 8 != 0)
      return;
    SmallVector<vector::TransferReadOp> reads;
    for (Operation *user : cst->getUsers()) {
      auto read = dyn_cast<vector::TransferReadOp>(user);
      if (!read || read.getBase() != cst.getResult() || read.getMask())
        return;
      reads.push_back(read);
    }
    if (reads.empty())
      return;
    AffineMap map = reads.front().getPermutationMap();
    VectorType vecType = reads.front().getVectorType();
    if (map.isMinorIdentity() || !map.isProjectedPermutation(
                                     /*allowZeroInResults=*/false))
      return;
    for (vector::TransferReadOp read : reads)
      if (read.getPermutationMap() != map || read.getVectorType() != vecType)
        return;
    ArrayRef<char> bytes = rawBytes(cst.getValue());
    if (bytes.size() != static_cast<size_t>(type.getNumElements()) * bits / 8)
      return;

    // Physical order: dims not read as vectors, then the vector dims with
    // the largest one innermost.
    int64_t rank = type.getRank(), k = map.getNumResults();
    SmallVector<int64_t> vecDims;
    for (int64_t i = 0; i < k; ++i)
      vecDims.push_back(map.getDimPosition(i));
    int64_t minor = 0;
    for (int64_t i = 1; i < k; ++i)
      if (vecType.getDimSize(i) > vecType.getDimSize(minor))
        minor = i;
    SmallVector<int64_t> perm;
    for (int64_t d = 0; d < rank; ++d)
      if (!llvm::is_contained(vecDims, d))
        perm.push_back(d);
    for (int64_t i = 0; i < k; ++i)
      if (i != minor)
        perm.push_back(vecDims[i]);
    perm.push_back(vecDims[minor]);
    if (isIdentityPermutation(perm))
      return;

    // The permuted constant, as a resource blob (weights can be large).
    std::vector<char> packed =
        permuteBytes(bytes, type.getShape(), perm, bits / 8);
    auto packedType = RankedTensorType::get(
        applyPermutation(type.getShape(), perm), type.getElementType());
    auto blob = HeapAsmResourceBlob::allocateAndCopyWithAlign(
        ArrayRef<char>(packed.data(), packed.size()), 64);
    auto attr = DenseResourceElementsAttr::get(packedType, "dlc_packed",
                                               std::move(blob));
    OpBuilder b(cst);
    auto packedCst = arith::ConstantOp::create(b, cst.getLoc(), attr);

    // Each read: the same element range of the packed tensor, as a minor
    // identity read in physical order, transposed back to the vector order.
    SmallVector<int64_t> vecOrder; // physical vector position -> vector dim
    for (int64_t j = rank - k; j < rank; ++j)
      vecOrder.push_back(llvm::find(vecDims, perm[j]) - vecDims.begin());
    SmallVector<int64_t> packedVecShape;
    SmallVector<bool> inBounds;
    for (int64_t i : vecOrder) {
      packedVecShape.push_back(vecType.getDimSize(i));
      inBounds.push_back(reads.front().isDimInBounds(i));
    }
    auto packedVecType =
        VectorType::get(packedVecShape, vecType.getElementType());
    SmallVector<int64_t> back = invertPermutationVector(vecOrder);
    for (vector::TransferReadOp read : reads) {
      b.setInsertionPoint(read);
      SmallVector<Value> indices = applyPermutation(
          SmallVector<Value>(read.getIndices()), perm);
      auto newRead = vector::TransferReadOp::create(
          b, read.getLoc(), packedVecType, packedCst, indices,
          read.getPadding(), inBounds);
      auto transposed =
          vector::TransposeOp::create(b, read.getLoc(), newRead, back);
      read.replaceAllUsesWith(transposed.getResult());
      read.erase();
    }
    cst.erase();
  }

  void runOnOperation() override {
    SmallVector<arith::ConstantOp> constants;
    getOperation().walk([&](arith::ConstantOp c) { constants.push_back(c); });
    for (arith::ConstantOp c : constants)
      packOne(c);
  }
};
} // namespace
