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
        if (!type.isDynamicDim(d)) {
          sizes.push_back(b.getIndexAttr(type.getDimSize(d)));
          bounds.push_back(type.getDimSize(d));
          continue;
        }
        Value size = op.getDynamicSizes()[next++];
        std::optional<int64_t> ub = dlc::upperBoundOfSize(size);
        if (!ub || *ub < 0) {
          op.emitError() << "cannot bound dimension " << d << " of " << type
                         << ": its size is not bounded at compile time";
          return signalPassFailure();
        }
        sizes.push_back(size);
        bounds.push_back(*ub);
      }
      std::optional<int64_t> elements = dlc::boundedProduct(bounds);
      if (!elements) {
        op.emitError() << "the upper bounds of " << type
                       << " overflow: its buffer would hold more than 2^63 "
                          "elements";
        return signalPassFailure();
      }
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
