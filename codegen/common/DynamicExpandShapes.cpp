//===- DynamicExpandShapes.cpp - expand_shape with several dynamic sizes --===//
#include "codegen/common/Passes.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"

namespace dlc {
#define GEN_PASS_DEF_DYNAMICEXPANDSHAPES
#include "codegen/common/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {

/// Whether a reassociation group of `op` has two or more dynamic sizes.
bool hasGroupOfDynamicSizes(memref::ExpandShapeOp op) {
  MemRefType type = op.getResultType();
  return llvm::any_of(op.getReassociationIndices(),
                      [&](const ReassociationIndices &group) {
                        return llvm::count_if(group, [&](int64_t d) {
                                 return type.isDynamicDim(d);
                               }) > 1;
                      });
}

struct DynamicExpandShapesPass
    : dlc::impl::DynamicExpandShapesBase<DynamicExpandShapesPass> {
  void runOnOperation() override {
    SmallVector<memref::ExpandShapeOp> ops;
    getOperation()->walk([&](memref::ExpandShapeOp op) {
      if (hasGroupOfDynamicSizes(op))
        ops.push_back(op);
    });
    for (memref::ExpandShapeOp op : ops) {
      MemRefType type = op.getResultType();
      SmallVector<int64_t> staticStrides;
      int64_t staticOffset;
      if (failed(type.getStridesAndOffset(staticStrides, staticOffset))) {
        op.emitError("cannot lower an expand_shape of a non-strided layout");
        return signalPassFailure();
      }
      OpBuilder b(op);
      Location loc = op.getLoc();
      auto meta = memref::ExtractStridedMetadataOp::create(b, loc, op.getSrc());
      SmallVector<OpFoldResult> shape = op.getMixedOutputShape();
      int64_t rank = type.getRank();
      SmallVector<OpFoldResult> sizes(rank), strides(rank);
      // Within a group, strides grow from the source dimension's stride by
      // the sizes inside it.
      for (auto [j, group] : llvm::enumerate(op.getReassociationIndices())) {
        Value stride = meta.getStrides()[j];
        for (int64_t d : llvm::reverse(group)) {
          sizes[d] = type.isDynamicDim(d)
                         ? shape[d]
                         : OpFoldResult(b.getIndexAttr(type.getDimSize(d)));
          strides[d] = ShapedType::isDynamic(staticStrides[d])
                           ? OpFoldResult(stride)
                           : OpFoldResult(b.getIndexAttr(staticStrides[d]));
          stride = arith::MulIOp::create(
              b, loc, stride,
              getValueOrCreateConstantIndexOp(b, loc, shape[d]));
        }
      }
      OpFoldResult offset = ShapedType::isDynamic(staticOffset)
                                ? OpFoldResult(meta.getOffset())
                                : OpFoldResult(b.getIndexAttr(staticOffset));
      Value cast = memref::ReinterpretCastOp::create(
          b, loc, type, meta.getBaseBuffer(), offset, sizes, strides);
      op.replaceAllUsesWith(cast);
      op.erase();
    }
  }
};
} // namespace
