//===- ConcatPrefixes.cpp - concatenations that extend one another --------===//
//
// A DenseNet block concatenates, before each layer, all the features so
// far: Concat(x, y1), Concat(x, y1, y2), ... Lowered one by one, each
// concatenation is a new tensor that copies every earlier feature again
// (DenseNet-121 copies about 40 MB per image). When the concatenations of
// one block each extend the previous one (its inputs are a prefix of the
// next's, along the same axis), they are lowered together: one tensor of
// the last one's shape, each input inserted once (where the concatenation
// that first takes it stood), and every earlier concatenation a leading
// slice of it. Bufferization then keeps one buffer for the block and each
// layer's output is written into its place. Static shapes only: a single
// concatenation, or one of run-time sizes, is ConcatLowering's
// (DataMovement.cpp).
//
//===----------------------------------------------------------------------===//
#include "passes/lowering/Patterns.h"

#include "ir/DlcOps.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

/// Whether `next` concatenates the inputs of `prev` first, then more.
static bool extends(dlc::ConcatOp prev, dlc::ConcatOp next) {
  if (prev.getAxis() != next.getAxis() ||
      prev->getBlock() != next->getBlock() ||
      prev.getInputs().size() > next.getInputs().size())
    return false;
  return llvm::equal(prev.getInputs(),
                     next.getInputs().take_front(prev.getInputs().size()));
}

static void lowerChain(ArrayRef<dlc::ConcatOp> chain) {
  dlc::ConcatOp last = chain.back();
  RankedTensorType type = last.getType();
  int64_t axis = last.getAxis(), rank = type.getRank();
  IRRewriter rewriter(last.getContext());
  dlc::ConcatOp first = chain.front();
  rewriter.setInsertionPoint(first);
  Value result = tensor::EmptyOp::create(
      rewriter, first.getLoc(), type.getShape(), type.getElementType());
  int64_t offset = 0;
  size_t inserted = 0;
  for (dlc::ConcatOp concat : chain) {
    Location loc = concat.getLoc();
    rewriter.setInsertionPoint(concat);
    for (Value in : concat.getInputs().drop_front(inserted)) {
      auto inType = cast<RankedTensorType>(in.getType());
      if (inType.getDimSize(axis) == 0)
        continue;
      SmallVector<int64_t> offsets(rank, 0), strides(rank, 1);
      offsets[axis] = offset;
      result = tensor::InsertSliceOp::create(
          rewriter, loc, in, result, ValueRange(), ValueRange(), ValueRange(),
          offsets, inType.getShape(), strides);
      offset += inType.getDimSize(axis);
    }
    inserted = concat.getInputs().size();
    if (concat == last) {
      rewriter.replaceOp(concat, result);
      break;
    }
    SmallVector<int64_t> zeros(rank, 0), strides(rank, 1);
    rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(
        concat, concat.getType(), result, ValueRange(), ValueRange(),
        ValueRange(), zeros, concat.getType().getShape(), strides);
  }
}

void dlc::lowerConcatPrefixes(Operation *root) {
  // Static concatenations in program order, each appended to the longest
  // chain it extends (the chain whose last concatenation is its prefix).
  SmallVector<SmallVector<dlc::ConcatOp>> chains;
  root->walk([&](dlc::ConcatOp concat) {
    if (!concat.getType().hasStaticShape() ||
        llvm::any_of(concat.getInputs().getTypes(), [](Type t) {
          return !cast<RankedTensorType>(t).hasStaticShape();
        }))
      return;
    SmallVector<dlc::ConcatOp> *longest = nullptr;
    for (auto &chain : chains)
      if (extends(chain.back(), concat) &&
          (!longest || chain.back().getInputs().size() >
                           longest->back().getInputs().size()))
        longest = &chain;
    if (longest)
      longest->push_back(concat);
    else
      chains.push_back({concat});
  });
  for (auto &chain : chains)
    if (chain.size() >= 2)
      lowerChain(chain);
}
