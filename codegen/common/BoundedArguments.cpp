//===- BoundedArguments.cpp - symbolic inputs in bounded buffers ----------===//
#include "codegen/common/Passes.h"
#include "ir/DlcAttrs.h"
#include "ir/DlcDialect.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"

namespace dlc {
#define GEN_PASS_DEF_BOUNDEDARGUMENTS
#include "codegen/common/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {
struct BoundedArgumentsPass
    : dlc::impl::BoundedArgumentsBase<BoundedArgumentsPass> {
  void runOnOperation() override {
    auto func = getOperation().lookupSymbol<func::FuncOp>("main");
    if (!func || func.isExternal())
      return;
    Block &entry = func.front();
    // The dynamic arguments and their declared ranges.
    SmallVector<std::pair<BlockArgument, ArrayAttr>> dynamic;
    int64_t numSizes = 0;
    for (BlockArgument arg : entry.getArguments()) {
      auto type = dyn_cast<RankedTensorType>(arg.getType());
      if (!type || type.hasStaticShape())
        continue;
      auto dims = func.getArgAttrOfType<ArrayAttr>(arg.getArgNumber(),
                                                   dlc::kSymbolicDimsAttrName);
      if (!dims || (int64_t)dims.size() != type.getNumDynamicDims() ||
          !llvm::all_of(dims, llvm::IsaPred<dlc::SymbolicDimAttr>)) {
        func.emitError() << "argument " << arg.getArgNumber() << " has type "
                         << type << " without the range of each dynamic "
                         << "dimension (" << dlc::kSymbolicDimsAttrName << ")";
        return signalPassFailure();
      }
      dynamic.push_back({arg, dims});
      numSizes += dims.size();
    }
    if (dynamic.empty())
      return;
    Location loc = func.getLoc();
    MLIRContext *ctx = &getContext();
    OpBuilder b = OpBuilder::atBlockBegin(&entry);
    IndexType index = b.getIndexType();
    BlockArgument sizes = entry.addArgument(
        RankedTensorType::get({numSizes}, b.getI64Type()), loc);
    int64_t next = 0;
    // Dimensions of one name have one size (the runtime checks it): the
    // first one's stands for all.
    llvm::StringMap<Value> byName;
    for (auto [arg, dims] : dynamic) {
      auto type = cast<RankedTensorType>(arg.getType());
      // Each symbolic size, clamped to its range (the runtime checks it;
      // the clamp tells the value-bounds analysis the bounds).
      SmallVector<OpFoldResult> shape;
      Value numel;
      auto multiply = [&](Value v) {
        numel = numel ? arith::MulIOp::create(b, loc, numel, v).getResult() : v;
      };
      int64_t capacity = 1;
      unsigned k = 0;
      for (int64_t d = 0; d < type.getRank(); ++d) {
        if (!type.isDynamicDim(d)) {
          shape.push_back(b.getIndexAttr(type.getDimSize(d)));
          capacity *= type.getDimSize(d);
          multiply(arith::ConstantIndexOp::create(b, loc, type.getDimSize(d)));
          continue;
        }
        auto range = cast<dlc::SymbolicDimAttr>(dims[k++]);
        Value at = arith::ConstantIndexOp::create(b, loc, next++);
        Value raw = tensor::ExtractOp::create(b, loc, sizes, at);
        Value size = arith::IndexCastOp::create(b, loc, index, raw);
        AffineExpr d0 = getAffineDimExpr(0, ctx);
        size = affine::AffineMaxOp::create(
            b, loc,
            AffineMap::get(
                1, 0, {d0, getAffineConstantExpr(range.getMin(), ctx)}, ctx),
            ValueRange{size});
        size = affine::AffineMinOp::create(
            b, loc,
            AffineMap::get(
                1, 0, {d0, getAffineConstantExpr(range.getMax(), ctx)}, ctx),
            ValueRange{size});
        auto [it, first] = byName.try_emplace(range.getName(), size);
        size = it->second;
        shape.push_back(size);
        capacity *= range.getMax();
        multiply(size);
      }
      // The caller's dense buffer, at most `capacity` elements: its first
      // `numel`, viewed at the run's shape.
      Type et = type.getElementType();
      arg.setType(RankedTensorType::get({capacity}, et));
      if (capacity == 0) {
        // No elements at any size: nothing to read.
        SmallVector<Value> sizes;
        for (OpFoldResult size : shape)
          if (auto v = dyn_cast<Value>(size))
            sizes.push_back(v);
        arg.replaceAllUsesWith(tensor::EmptyOp::create(b, loc, type, sizes));
        continue;
      }
      auto head = tensor::ExtractSliceOp::create(
          b, loc, arg, ArrayRef<OpFoldResult>{b.getIndexAttr(0)},
          ArrayRef<OpFoldResult>{numel},
          ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
      Value view = head;
      if (type.getRank() != 1) {
        SmallVector<ReassociationIndices> all(1);
        for (int64_t d = 0; d < type.getRank(); ++d)
          all[0].push_back(d);
        view = tensor::ExpandShapeOp::create(b, loc, type, head, all, shape);
      }
      arg.replaceAllUsesExcept(view, head);
    }
    SmallVector<DictionaryAttr> argAttrs;
    func.getAllArgAttrs(argAttrs);
    argAttrs.push_back(DictionaryAttr::get(
        ctx, {NamedAttribute(dlc::kSizesAttr, UnitAttr::get(ctx))}));
    func.setType(FunctionType::get(ctx, entry.getArgumentTypes(),
                                   func.getResultTypes()));
    func.setAllArgAttrs(argAttrs);
  }
};
} // namespace
