//===- BoundedResults.cpp - dynamic results in bounded buffers ------------===//
#include "codegen/common/Bounds.h"
#include "codegen/common/Passes.h"
#include "ir/DlcDialect.h"

namespace dlc {
#define GEN_PASS_DEF_BOUNDEDRESULTS
#include "codegen/common/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {
struct BoundedResultsPass : dlc::impl::BoundedResultsBase<BoundedResultsPass> {
  void runOnOperation() override {
    auto func = getOperation().lookupSymbol<func::FuncOp>("main");
    if (!func || func.isExternal() ||
        llvm::all_of(func.getResultTypes(), [](Type t) {
          auto tt = dyn_cast<RankedTensorType>(t);
          return !tt || tt.hasStaticShape();
        }))
      return;
    auto ret = cast<func::ReturnOp>(func.getBody().back().getTerminator());
    OpBuilder b(ret);
    Location loc = ret.getLoc();
    SmallVector<Value> results(ret.getOperands()), dims;
    SmallVector<Attribute> bounds;
    for (auto [i, v] : llvm::enumerate(results)) {
      auto type = dyn_cast<RankedTensorType>(v.getType());
      if (!type || type.hasStaticShape()) {
        bounds.push_back(b.getDenseI64ArrayAttr({}));
        continue;
      }
      Type et = type.getElementType();
      // Sizes of v, their bounds, and its number of elements.
      SmallVector<OpFoldResult> sizes;
      SmallVector<int64_t> bound;
      Value numel = arith::ConstantIndexOp::create(b, loc, 1);
      for (int64_t d = 0; d < type.getRank(); ++d) {
        Value size = tensor::DimOp::create(b, loc, v, d);
        std::optional<int64_t> ub =
            type.isDynamicDim(d) ? dlc::upperBoundOfSize(size)
                                 : std::optional<int64_t>(type.getDimSize(d));
        if (!ub || *ub < 0) {
          ret.emitError() << "result " << i << " has the dynamic shape " << type
                          << " without an upper bound of dimension " << d;
          return signalPassFailure();
        }
        bound.push_back(*ub);
        sizes.push_back(type.isDynamicDim(d)
                            ? OpFoldResult(size)
                            : OpFoldResult(b.getIndexAttr(type.getDimSize(d))));
        numel = arith::MulIOp::create(b, loc, numel, size);
        if (type.isDynamicDim(d))
          dims.push_back(
              arith::IndexCastOp::create(b, loc, b.getI64Type(), size));
      }
      bounds.push_back(b.getDenseI64ArrayAttr(bound));
      std::optional<int64_t> elements = dlc::boundedProduct(bound);
      if (!elements) {
        ret.emitError() << "the upper bounds of result " << i << " (" << type
                        << ") overflow: its buffer would hold more than 2^63 "
                           "elements";
        return signalPassFailure();
      }
      int64_t capacity = *elements;
      if (capacity == 0) {
        // No elements at any size.
        results[i] = tensor::EmptyOp::create(b, loc, 0, et);
        continue;
      }
      // A buffer of the bound, v densely at its start; the rest is not
      // written (a run writes only the elements it reports).
      Value buffer = tensor::EmptyOp::create(b, loc, capacity, et).getResult();
      SmallVector<OpFoldResult> offset{b.getIndexAttr(0)},
          stride{b.getIndexAttr(1)}, extent{numel};
      Value head = tensor::ExtractSliceOp::create(b, loc, buffer, offset,
                                                  extent, stride);
      SmallVector<ReassociationIndices> all(1);
      for (int64_t d = 0; d < type.getRank(); ++d)
        all[0].push_back(d);
      Value view =
          type.getRank() == 1
              ? head
              : tensor::ExpandShapeOp::create(b, loc, type, head, all, sizes)
                    .getResult();
      Value copied = linalg::CopyOp::create(b, loc, v, view).getResult(0);
      Value flat = type.getRank() == 1
                       ? copied
                       : tensor::CollapseShapeOp::create(b, loc, copied, all)
                             .getResult();
      results[i] = tensor::InsertSliceOp::create(b, loc, flat, buffer, offset,
                                                 extent, stride);
    }
    int64_t numDims = dims.size();
    results.push_back(tensor::FromElementsOp::create(
        b, loc, RankedTensorType::get({numDims}, b.getI64Type()), dims));
    func::ReturnOp::create(b, loc, results);
    ret.erase();
    SmallVector<Type> types;
    for (Value v : results)
      types.push_back(v.getType());
    SmallVector<DictionaryAttr> attrs;
    func.getAllResultAttrs(attrs);
    attrs.push_back(DictionaryAttr::get(
        &getContext(),
        {NamedAttribute(dlc::kSizesAttr, UnitAttr::get(&getContext()))}));
    func.setType(
        FunctionType::get(&getContext(), func.getArgumentTypes(), types));
    func.setAllResultAttrs(attrs);
    getOperation()->setAttr(dlc::kOutputMaxShapesAttr, b.getArrayAttr(bounds));
  }
};
} // namespace
