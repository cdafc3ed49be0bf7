//===- CopyRows.cpp - copies of memrefs row by row ------------------------===//
#include "codegen/common/CopyRows.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;

bool dlc::hasContiguousRows(Type t, int64_t minRow) {
  auto type = dyn_cast<MemRefType>(t);
  if (!type || !type.hasStaticShape() || type.getRank() < 2 ||
      type.getShape().back() < minRow)
    return false;
  SmallVector<int64_t> strides;
  int64_t offset;
  return succeeded(type.getStridesAndOffset(strides, offset)) &&
         strides.back() == 1;
}

Value dlc::rowOf(OpBuilder &b, Location loc, Value view, ValueRange outer) {
  auto type = cast<MemRefType>(view.getType());
  int64_t rank = type.getRank();
  int64_t length = type.getShape().back();
  SmallVector<OpFoldResult> offsets(outer.begin(), outer.end());
  offsets.push_back(b.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes(rank - 1, b.getIndexAttr(1));
  sizes.push_back(b.getIndexAttr(length));
  SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
  auto rowType = memref::SubViewOp::inferRankReducedResultType(
      {length}, type, offsets, sizes, strides);
  return memref::SubViewOp::create(b, loc, cast<MemRefType>(rowType), view,
                                   offsets, sizes, strides);
}
