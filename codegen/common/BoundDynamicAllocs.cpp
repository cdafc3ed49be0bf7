//===- BoundDynamicAllocs.cpp - dynamic buffers at their upper bounds -----===//
#include "codegen/common/Bounds.h"
#include "codegen/common/Passes.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"

namespace dlc {
#define GEN_PASS_DEF_BOUNDDYNAMICALLOCS
#include "codegen/common/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {
struct BoundDynamicAllocsPass
    : dlc::impl::BoundDynamicAllocsBase<BoundDynamicAllocsPass> {
  void runOnOperation() override {
    SmallVector<memref::AllocOp> allocs;
    getOperation().walk([&](memref::AllocOp op) {
      if (!op.getType().hasStaticShape() && op.getType().getLayout().isIdentity())
        allocs.push_back(op);
    });
    for (memref::AllocOp op : allocs) {
      MemRefType type = op.getType();
      OpBuilder b(op);
      Location loc = op.getLoc();
      SmallVector<OpFoldResult> sizes;
      SmallVector<int64_t> bounds;
      unsigned next = 0;
      for (int64_t d = 0; d < type.getRank(); ++d) {
        sizes.push_back(type.isDynamicDim(d)
                            ? OpFoldResult(op.getDynamicSizes()[next++])
                            : OpFoldResult(b.getIndexAttr(type.getDimSize(d))));
      }
      FailureOr<int64_t> elements = dlc::boundShape(op, type, sizes, bounds);
      if (failed(elements))
        return signalPassFailure();
      int64_t capacity = *elements;
      // A flat buffer of the bounds' elements, its leading elements viewed
      // densely at the allocation's shape.
      Value flat = memref::AllocOp::create(
          b, loc, MemRefType::get({capacity}, type.getElementType(),
                                  MemRefLayoutAttrInterface(),
                                  type.getMemorySpace()),
          op.getAlignmentAttr());
      SmallVector<OpFoldResult> strides(type.getRank());
      OpFoldResult stride = b.getIndexAttr(1);
      for (int64_t d = type.getRank() - 1; d >= 0; --d) {
        strides[d] = stride;
        stride = getAsOpFoldResult(b.createOrFold<arith::MulIOp>(
            loc, getValueOrCreateConstantIndexOp(b, loc, stride),
            getValueOrCreateConstantIndexOp(b, loc, sizes[d])));
      }
      // The type's static strides are constants.
      SmallVector<int64_t> staticStrides;
      int64_t offset;
      if (succeeded(type.getStridesAndOffset(staticStrides, offset)))
        for (auto [s, fixed] : llvm::zip(strides, staticStrides))
          if (!ShapedType::isDynamic(fixed))
            s = b.getIndexAttr(fixed);
      Value view = memref::ReinterpretCastOp::create(
          b, loc, type, flat, b.getIndexAttr(0), sizes, strides);
      op.replaceAllUsesWith(view);
      op.erase();
    }
  }
};
} // namespace
