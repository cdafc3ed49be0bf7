//===- BoundDynamicTensors.cpp - dynamic tensors in bounded buffers -------===//
#include "codegen/common/Bounds.h"
#include "codegen/common/Passes.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace dlc {
#define GEN_PASS_DEF_BOUNDDYNAMICTENSORS
#include "codegen/common/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {
struct BoundDynamicTensorsPass
    : dlc::impl::BoundDynamicTensorsBase<BoundDynamicTensorsPass> {
  void runOnOperation() override {
    SmallVector<tensor::EmptyOp> empties;
    getOperation().walk([&](tensor::EmptyOp op) {
      if (!op.getType().hasStaticShape())
        empties.push_back(op);
    });
    for (tensor::EmptyOp op : empties) {
      RankedTensorType type = op.getType();
      SmallVector<int64_t> bounds;
      SmallVector<OpFoldResult> sizes = op.getMixedSizes();
      FailureOr<int64_t> elements = dlc::boundShape(op, type, sizes, bounds);
      if (failed(elements))
        return signalPassFailure();
      OpBuilder b(op);
      Location loc = op.getLoc();
      Value slice;
      if (isa<FunctionOpInterface>(op->getParentOp())) {
        // A whole tensor (of symbolic or data-dependent size): the leading
        // elements of a flat buffer of the bounds' elements hold it
        // densely, so that views of it collapse and expand as the dense
        // tensor's would (a slice of a buffer of the bounded shape is not
        // contiguous).
        int64_t capacity = *elements;
        Value numel;
        for (OpFoldResult size : sizes) {
          Value v = getValueOrCreateConstantIndexOp(b, loc, size);
          numel =
              numel ? arith::MulIOp::create(b, loc, numel, v).getResult() : v;
        }
        Value full =
            tensor::EmptyOp::create(b, loc, capacity, type.getElementType());
        slice = tensor::ExtractSliceOp::create(
            b, loc, full, ArrayRef<OpFoldResult>{b.getIndexAttr(0)},
            ArrayRef<OpFoldResult>{numel},
            ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
        if (type.getRank() != 1) {
          SmallVector<ReassociationIndices> all(1);
          for (int64_t d = 0; d < type.getRank(); ++d)
            all[0].push_back(d);
          slice =
              tensor::ExpandShapeOp::create(b, loc, type, slice, all, sizes);
        }
      } else {
        // A tile inside a loop: a slice of a buffer of the bounded shape,
        // which the tile's reads and writes use in place.
        Value full =
            tensor::EmptyOp::create(b, loc, bounds, type.getElementType());
        SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0)),
            strides(type.getRank(), b.getIndexAttr(1));
        slice = tensor::ExtractSliceOp::create(b, loc, type, full, offsets,
                                               sizes, strides);
      }
      op.replaceAllUsesWith(slice);
      op.erase();
    }
  }
};
} // namespace
