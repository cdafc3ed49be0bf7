//===- SlidingWindowFMAs.cpp - 1-D convolution taps in input order --------===//
//
// The vectorizer turns a tile of a 1-D convolution (W output columns by a
// vector of F filters, the window's K taps unrolled) into K contractions,
// tap k reading the input row's columns [o_k, o_k + W) and accumulating into
// all W accumulator rows. Lowered tap by tap, each input column's broadcast
// is used by K taps far apart in the code, so LLVM keeps up to W + K - 1
// broadcasts live beside the W accumulators and the K filter vectors, which
// spills on a 16-register target (AVX2: a tile of 10 columns by a 3-wide
// window needs 10 + 3 + 12 registers).
//
// Here the chain becomes FMAs ordered by input column instead: column j is
// loaded and broadcast once, then feeds accumulator j - o_k with tap k's
// filter vector, for every tap that reaches it. Live at once: the W
// accumulators, the K filter vectors and one broadcast. Each accumulator
// still receives its taps in the chain's order, so the sums are the same,
// bit for bit, as the contractions' outer-product lowering.
//
//===----------------------------------------------------------------------===//
#include "codegen/cpu/SlidingWindowFMAs.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;

namespace {
/// One multiply-add of the tile: accumulator row `row` += input column `pos`
/// times `filter` (vector<1xF>).
struct Term {
  int64_t row;
  int64_t pos;
  Value filter;
};

/// A 1-D convolution tap over W columns:
///   lhs vector<1xWx1> (input columns), rhs vector<1xF> (the tap's filter
///   vector), acc vector<1xWxF>, maps (n, w, f, c) -> (n, w, c), (c, f),
///   (n, w, f), f32.
static bool isTap(vector::ContractionOp contract) {
  if (contract.getKind() != vector::CombiningKind::ADD ||
      !isa<VectorType>(contract.getAccType()))
    return false;
  auto lhsType = contract.getLhsType();
  auto rhsType = contract.getRhsType();
  auto accType = cast<VectorType>(contract.getAccType());
  if (lhsType.getRank() != 3 || rhsType.getRank() != 2 ||
      accType.getRank() != 3 || lhsType.getShape()[0] != 1 ||
      lhsType.getShape()[2] != 1 || rhsType.getShape()[0] != 1 ||
      accType.getShape()[0] != 1 ||
      accType.getShape()[1] != lhsType.getShape()[1] ||
      accType.getShape()[2] != rhsType.getShape()[1] ||
      !accType.getElementType().isF32() ||
      lhsType.getElementType() != accType.getElementType() ||
      rhsType.getElementType() != accType.getElementType())
    return false;
  MLIRContext *ctx = contract.getContext();
  AffineExpr n, w, f, c;
  bindDims(ctx, n, w, f, c);
  SmallVector<AffineMap> expected = {AffineMap::get(4, 0, {n, w, c}, ctx),
                                     AffineMap::get(4, 0, {c, f}, ctx),
                                     AffineMap::get(4, 0, {n, w, f}, ctx)};
  return contract.getIndexingMapsArray() == ArrayRef<AffineMap>(expected);
}

/// The input row (vector<1xLx1>) and first column a tap's lhs reads: a unit-
/// stride slice of the row (stride-1 windows: W columns), or one element of
/// it (strided windows, unrolled by column: W = 1).
static std::optional<std::pair<Value, int64_t>> tapColumns(Value lhs) {
  auto isRow = [](Value v) {
    auto type = cast<VectorType>(v.getType());
    return type.getRank() == 3 && type.getShape()[0] == 1 &&
           type.getShape()[2] == 1;
  };
  if (auto slice = lhs.getDefiningOp<vector::ExtractStridedSliceOp>()) {
    if (slice.hasNonUnitStrides() || !isRow(slice.getSource()))
      return std::nullopt;
    return std::make_pair(slice.getSource(),
                          cast<IntegerAttr>(slice.getOffsets()[1]).getInt());
  }
  if (auto cast = lhs.getDefiningOp<vector::ShapeCastOp>())
    if (auto extract = cast.getSource().getDefiningOp<vector::ExtractOp>())
      if (isRow(extract.getSource()) && !extract.hasDynamicPosition() &&
          extract.getStaticPosition().size() == 2 &&
          extract.getStaticPosition()[0] == 0)
        return std::make_pair(extract.getSource(),
                              extract.getStaticPosition()[1]);
  return std::nullopt;
}

/// Walks back the accumulator chain ending at `last` (taps over one input
/// row, each the only use of its predecessor). Appends the chain's taps in
/// order to `chain` and returns the value the chain starts from.
static Value walkChain(vector::ContractionOp last, Value row,
                       SmallVectorImpl<vector::ContractionOp> &chain) {
  vector::ContractionOp tap = last;
  while (true) {
    chain.push_back(tap);
    auto prev = tap.getAcc().getDefiningOp<vector::ContractionOp>();
    if (!prev || !prev->hasOneUse() || !isTap(prev))
      break;
    auto columns = tapColumns(prev.getLhs());
    if (!columns || columns->first != row)
      break;
    tap = prev;
  }
  std::reverse(chain.begin(), chain.end());
  return chain.front().getAcc();
}

/// Element `j` of the input row `row` (vector<1xLx1>): a scalar load when
/// the row is an in-bounds read of a memref's innermost dimension (then the
/// broadcast of it is one broadcast load), else an extract.
static Value inputColumn(PatternRewriter &rewriter, Location loc, Value row,
                         int64_t j) {
  Value read = row;
  if (auto transpose = read.getDefiningOp<vector::TransposeOp>())
    read = transpose.getVector();
  else if (auto cast = read.getDefiningOp<vector::ShapeCastOp>())
    read = cast.getSource();
  auto transfer = read.getDefiningOp<vector::TransferReadOp>();
  if (transfer && !transfer.getMask() &&
      isa<MemRefType>(transfer.getBase().getType()) &&
      transfer.getPermutationMap().isMinorIdentity() &&
      llvm::all_of(transfer.getInBoundsValues(), [](bool b) { return b; }) &&
      llvm::all_of(transfer.getVectorType().getShape().drop_back(),
                   [](int64_t d) { return d == 1; })) {
    SmallVector<Value> indices(transfer.getIndices());
    Value offset = arith::ConstantIndexOp::create(rewriter, loc, j);
    indices.back() =
        arith::AddIOp::create(rewriter, loc, indices.back(), offset);
    return memref::LoadOp::create(rewriter, loc, transfer.getBase(), indices);
  }
  return vector::ExtractOp::create(rewriter, loc, row,
                                   ArrayRef<int64_t>{0, j, 0});
}

/// Whether input-column order keeps each accumulator row's sums: its
/// columns grow along its terms (given in their original order).
static bool inputOrderKeepsSums(ArrayRef<Term> terms, int64_t width) {
  SmallVector<int64_t> lastPos(width, -1);
  for (const Term &t : terms) {
    if (t.pos <= lastPos[t.row])
      return false;
    lastPos[t.row] = t.pos;
  }
  return true;
}

/// Replaces `root` with the tile's multiply-adds in input-column order:
/// `init` is the accumulator, `terms` each row's multiply-adds in their
/// original order (inputOrderKeepsSums holds).
static void emitInInputOrder(PatternRewriter &rewriter, Operation *root,
                             Value row, Value init, ArrayRef<Term> terms) {
  // By column, each row's terms in their order (stable).
  SmallVector<size_t> order(terms.size());
  for (size_t k = 0; k < order.size(); ++k)
    order[k] = k;
  llvm::sort(order, [&](size_t a, size_t b) {
    return std::make_pair(terms[a].pos, a) < std::make_pair(terms[b].pos, b);
  });
  SmallVector<Term> sorted;
  for (size_t k : order)
    sorted.push_back(terms[k]);
  Location loc = root->getLoc();
  auto resultType = cast<VectorType>(root->getResult(0).getType());
  auto rowType =
      VectorType::get({resultType.getShape()[2]}, resultType.getElementType());
  SmallVector<Value> rows;
  for (int64_t i = 0; i < resultType.getShape()[1]; ++i)
    rows.push_back(vector::ExtractOp::create(rewriter, loc, init,
                                             ArrayRef<int64_t>{0, i}));
  llvm::SmallDenseMap<Value, Value> filters;
  for (const Term &t : sorted)
    if (!filters.count(t.filter))
      filters[t.filter] =
          vector::ShapeCastOp::create(rewriter, loc, rowType, t.filter);
  Value broadcast;
  int64_t broadcastPos = -1;
  for (const Term &t : sorted) {
    if (t.pos != broadcastPos) {
      Value column = inputColumn(rewriter, loc, row, t.pos);
      broadcast = vector::BroadcastOp::create(rewriter, loc, rowType, column);
      broadcastPos = t.pos;
    }
    rows[t.row] = vector::FMAOp::create(rewriter, loc, broadcast,
                                        filters[t.filter], rows[t.row]);
  }
  Value result = init;
  for (auto [i, value] : llvm::enumerate(rows))
    result = vector::InsertOp::create(rewriter, loc, value, result,
                                      ArrayRef<int64_t>{0, (int64_t)i});
  rewriter.replaceOp(root, result);
}

/// Stride-1 windows: one chain of taps over the whole tile, tap k reading
/// the row's columns [o_k, o_k + W). Matched on the chain's last tap.
struct SlidingWindowChain : OpRewritePattern<vector::ContractionOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::ContractionOp last,
                                PatternRewriter &rewriter) const override {
    if (!isTap(last))
      return failure();
    auto columns = tapColumns(last.getLhs());
    auto accType = cast<VectorType>(last.getAccType());
    int64_t width = accType.getShape()[1];
    if (!columns || width < 2)
      return failure();
    Value row = columns->first;
    // The last tap over this row (a chain over another row may follow).
    for (Operation *user : last->getUsers())
      if (auto next = dyn_cast<vector::ContractionOp>(user))
        if (next.getAcc() == last.getResult() && isTap(next))
          if (auto nextColumns = tapColumns(next.getLhs());
              nextColumns && nextColumns->first == row)
            return failure();
    SmallVector<vector::ContractionOp> chain;
    Value init = walkChain(last, row, chain);
    if (chain.size() < 2)
      return failure();
    SmallVector<Term> terms;
    for (vector::ContractionOp tap : chain) {
      int64_t offset = tapColumns(tap.getLhs())->second;
      for (int64_t i = 0; i < width; ++i)
        terms.push_back({i, offset + i, tap.getRhs()});
    }
    if (!inputOrderKeepsSums(terms, width))
      return failure();
    emitInInputOrder(rewriter, last, row, init, terms);
    return success();
  }
};

/// Strided windows: the vectorizer unrolls the tile by output column, one
/// chain of single-column taps per column, each chain starting from its
/// row of the accumulator and inserted back into it. Matched on the last
/// insert.
struct StridedWindowColumns : OpRewritePattern<vector::InsertStridedSliceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::InsertStridedSliceOp last,
                                PatternRewriter &rewriter) const override {
    auto isColumnInsert = [](vector::InsertStridedSliceOp insert) {
      VectorType src = insert.getSourceVectorType();
      VectorType dst = insert.getDestVectorType();
      return src.getRank() == 3 && dst.getRank() == 3 &&
             src.getShape()[0] == 1 && src.getShape()[1] == 1 &&
             dst.getShape()[0] == 1 && src.getShape()[2] == dst.getShape()[2] &&
             !insert.hasNonUnitStrides() &&
             insert.getValueToStore().getDefiningOp<vector::ContractionOp>();
    };
    if (!isColumnInsert(last))
      return failure();
    for (Operation *user : last->getUsers())
      if (auto next = dyn_cast<vector::InsertStridedSliceOp>(user))
        if (next.getDest() == last.getResult() && isColumnInsert(next))
          return failure();
    // The inserts, first to last, and the accumulator they start from.
    SmallVector<vector::InsertStridedSliceOp> inserts;
    vector::InsertStridedSliceOp insert = last;
    while (true) {
      inserts.push_back(insert);
      auto prev =
          insert.getDest().getDefiningOp<vector::InsertStridedSliceOp>();
      if (!prev || !prev->hasOneUse() || !isColumnInsert(prev))
        break;
      insert = prev;
    }
    std::reverse(inserts.begin(), inserts.end());
    Value acc = inserts.front().getDest();
    auto accType = cast<VectorType>(acc.getType());
    int64_t width = accType.getShape()[1];
    if (static_cast<int64_t>(inserts.size()) != width || width < 2)
      return failure();

    Value row;
    SmallVector<bool> seen(width, false);
    SmallVector<Term> terms;
    for (vector::InsertStridedSliceOp ins : inserts) {
      int64_t column = cast<IntegerAttr>(ins.getOffsets()[1]).getInt();
      if (seen[column])
        return failure();
      seen[column] = true;
      auto lastTap =
          ins.getValueToStore().getDefiningOp<vector::ContractionOp>();
      if (!lastTap->hasOneUse() || !isTap(lastTap))
        return failure();
      auto columns = tapColumns(lastTap.getLhs());
      if (!columns || (row && columns->first != row))
        return failure();
      row = columns->first;
      SmallVector<vector::ContractionOp> chain;
      Value init = walkChain(lastTap, row, chain);
      // The chain starts from this column's row of the accumulator.
      auto cast = init.getDefiningOp<vector::ShapeCastOp>();
      auto extract =
          cast ? cast.getSource().getDefiningOp<vector::ExtractOp>() : nullptr;
      if (!extract || extract.getSource() != acc ||
          extract.hasDynamicPosition() ||
          extract.getStaticPosition() != ArrayRef<int64_t>{0, column})
        return failure();
      for (vector::ContractionOp tap : chain)
        terms.push_back(
            {column, tapColumns(tap.getLhs())->second, tap.getRhs()});
    }
    if (!inputOrderKeepsSums(terms, width))
      return failure();
    emitInInputOrder(rewriter, last, row, acc, terms);
    return success();
  }
};
} // namespace

void dlc::populateSlidingWindowFMAPatterns(RewritePatternSet &patterns) {
  patterns.add<SlidingWindowChain, StridedWindowColumns>(patterns.getContext());
}
