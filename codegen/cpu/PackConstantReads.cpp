//===- PackConstantReads.cpp - constants in the layout their reads use ----===//
#include "codegen/common/ConstantData.h"
#include "codegen/cpu/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"

namespace dlc {
#define GEN_PASS_DEF_PACKCONSTANTREADS
#include "codegen/cpu/Passes.h.inc"
} // namespace dlc

using namespace mlir;


/// A divisor every value of the index `v` is known to have (1 when nothing
/// is known): constants, loop induction variables whose lower bound and
/// step have it, and affine.apply of such values.
static int64_t knownDivisor(Value v, int depth = 0) {
  if (depth > 8)
    return 1;
  if (std::optional<int64_t> c = getConstantIntValue(v))
    return *c == 0 ? 0 : std::abs(*c);
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    auto loop = dyn_cast<LoopLikeOpInterface>(arg.getOwner()->getParentOp());
    if (!loop)
      return 1;
    std::optional<SmallVector<Value>> ivs = loop.getLoopInductionVars();
    std::optional<SmallVector<OpFoldResult>> lbs = loop.getLoopLowerBounds();
    std::optional<SmallVector<OpFoldResult>> steps = loop.getLoopSteps();
    if (!ivs || !lbs || !steps)
      return 1;
    for (auto [iv, lb, step] : llvm::zip(*ivs, *lbs, *steps)) {
      if (iv != v)
        continue;
      auto gcd = [](int64_t a, int64_t b) { return std::gcd(a, b); };
      int64_t lbDiv = isa<Value>(lb) ? knownDivisor(cast<Value>(lb), depth + 1)
                                     : std::abs(*getConstantIntValue(lb));
      int64_t stepDiv = isa<Value>(step)
                            ? knownDivisor(cast<Value>(step), depth + 1)
                            : std::abs(*getConstantIntValue(step));
      int64_t d = gcd(lbDiv, stepDiv);
      return d == 0 ? 1 : d;
    }
    return 1;
  }
  if (auto apply = v.getDefiningOp<affine::AffineApplyOp>()) {
    // Substitute each operand x by x' * divisor(x), then ask the expression.
    AffineMap map = apply.getAffineMap();
    SmallVector<AffineExpr> dims, syms;
    unsigned nd = map.getNumDims();
    for (auto [i, operand] : llvm::enumerate(apply.getMapOperands())) {
      int64_t d = knownDivisor(operand, depth + 1);
      AffineExpr e = i < nd ? getAffineDimExpr(i, v.getContext())
                            : getAffineSymbolExpr(i - nd, v.getContext());
      AffineExpr scaled = d == 0 ? getAffineConstantExpr(0, v.getContext())
                                 : e * d;
      (i < nd ? dims : syms).push_back(scaled);
    }
    AffineExpr result =
        map.getResult(0).replaceDimsAndSymbols(dims, syms);
    result = simplifyAffineExpr(result, nd, map.getNumSymbols());
    int64_t d = result.getLargestKnownDivisor();
    return d == 0 ? 1 : d;
  }
  return 1;
}

/// How deep the loop is whose induction variable `index` varies with: the
/// number of scf.for loops around (and including) the innermost such loop;
/// 0 for values defined outside every scf.for.
static int64_t loopDepth(Value index, int depth = 0) {
  auto forDepth = [](Operation *op) {
    int64_t n = 0;
    for (; op; op = op->getParentOfType<scf::ForOp>())
      n += isa<scf::ForOp>(op);
    return n;
  };
  if (auto arg = dyn_cast<BlockArgument>(index))
    if (auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp()))
      return forDepth(loop);
  Operation *def = index.getDefiningOp();
  if (!def || depth > 8 || !isa<affine::AffineApplyOp, arith::AddIOp,
                                arith::MulIOp, arith::SubIOp>(def))
    return 0;
  int64_t d = 0;
  for (Value operand : def->getOperands())
    d = std::max(d, loopDepth(operand, depth + 1));
  return d;
}

/// Whether `read`'s vector reaches a vector.contract through shape-only ops
/// (the operand of a tiled matmul or convolution, not of an elementwise op).
static bool feedsContraction(vector::TransferReadOp read) {
  SmallVector<Value> work{read.getResult()};
  for (int steps = 0; !work.empty() && steps < 64; ++steps) {
    Value v = work.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (isa<vector::ContractionOp>(user))
        return true;
      if (isa<vector::TransposeOp, vector::BroadcastOp, vector::ExtractOp,
              vector::ShapeCastOp, vector::ExtractStridedSliceOp>(user))
        work.push_back(user->getResult(0));
    }
  }
  return false;
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
    if (!map.isProjectedPermutation(/*allowZeroInResults=*/false))
      return;
    // Reads of one map may differ in vector size (a whole part's tiles
    // and its remainder's): the same permuted layout serves both. Which
    // dims are unit dims, and which is the largest, decide the layout:
    // those must agree.
    auto largest = [](VectorType t) {
      int64_t m = 0;
      for (int64_t i = 1; i < t.getRank(); ++i)
        if (t.getDimSize(i) > t.getDimSize(m))
          m = i;
      return m;
    };
    for (vector::TransferReadOp read : reads) {
      VectorType t = read.getVectorType();
      if (read.getPermutationMap() != map || t.getRank() != vecType.getRank() ||
          largest(t) != largest(vecType))
        return;
      for (int64_t i = 0; i < t.getRank(); ++i)
        if ((t.getDimSize(i) == 1) != (vecType.getDimSize(i) == 1))
          return;
    }
    ArrayRef<char> bytes = dlc::rawConstantBytes(cst.getValue());
    if (bytes.size() != static_cast<size_t>(type.getNumElements()) * bits / 8)
      return;

    // Physical order: dims not read as vectors (and those read as vectors
    // of one element), in the order of the loops whose induction variables
    // index them (outermost loop first: a convolution whose channel loop is
    // innermost reads its filters contiguously), then the vector dims with
    // the largest one innermost.
    int64_t rank = type.getRank(), k = map.getNumResults();
    SmallVector<int64_t> vecDims;
    for (int64_t i = 0; i < k; ++i)
      vecDims.push_back(map.getDimPosition(i));
    int64_t minor = 0;
    for (int64_t i = 1; i < k; ++i)
      if (vecType.getDimSize(i) > vecType.getDimSize(minor))
        minor = i;
    // Vector positions read as whole vectors (more than one element).
    SmallVector<int64_t> wide, unit;
    for (int64_t i = 0; i < k; ++i)
      (i == minor || vecType.getDimSize(i) > 1 ? wide : unit).push_back(i);
    SmallVector<int64_t> perm;
    for (int64_t d = 0; d < rank; ++d) {
      auto *pos = llvm::find(vecDims, d);
      if (pos == vecDims.end() || llvm::is_contained(unit, pos - vecDims.begin()))
        perm.push_back(d);
    }
    vector::TransferReadOp first = reads.front();
    llvm::stable_sort(perm, [&](int64_t a, int64_t b) {
      return loopDepth(first.getIndices()[a]) <
             loopDepth(first.getIndices()[b]);
    });
    for (int64_t i : wide)
      if (i != minor)
        perm.push_back(vecDims[i]);
    perm.push_back(vecDims[minor]);

    // Blocked: when the reads cover the innermost dim in aligned vectors of
    // `block` lanes and feed contractions, that dim splits into an outer
    // dim of blocks (outermost) and the vector lanes (innermost), so that a
    // tile's panel of weights is contiguous instead of a column strided by
    // a whole row (a row of 2048 filters puts every vector of a panel in
    // the same cache sets). A remainder part's reads of fewer lanes, in
    // bounds and starting at a block (SqueezeNet's 1000 filters: tiles of
    // 16 and a remainder of 8), read the start of the last block, which
    // zeros pad to whole blocks; their other vector dims must match.
    int64_t minorDim = vecDims[minor];
    int64_t block = vecType.getDimSize(minor);
    for (vector::TransferReadOp read : reads)
      block = std::max(block, read.getVectorType().getDimSize(minor));
    int64_t extent = type.getDimSize(minorDim);
    auto sameButMinor = [&](VectorType t) {
      for (int64_t i = 0; i < t.getRank(); ++i)
        if (i != minor && t.getDimSize(i) != vecType.getDimSize(i))
          return false;
      return true;
    };
    bool blocked = block > 1 && extent > block &&
                   llvm::all_of(reads, [&](vector::TransferReadOp read) {
                     int64_t d = knownDivisor(read.getIndices()[minorDim]);
                     return (d == 0 || d % block == 0) &&
                            feedsContraction(read) &&
                            sameButMinor(read.getVectorType()) &&
                            (read.isDimInBounds(minor) ||
                             (extent % block == 0 &&
                              read.getVectorType().getDimSize(minor) == block));
                   });
    if (!blocked && isIdentityPermutation(perm))
      return;
    // The blocked layout's last block padded with zeros to whole blocks.
    std::vector<char> padded;
    if (blocked && extent % block != 0) {
      int64_t paddedExtent = llvm::alignTo(extent, block);
      padded = dlc::padBytes(bytes, type.getShape(), minorDim, paddedExtent,
                             bits / 8);
      bytes = padded;
      extent = paddedExtent;
    }

    // The permuted constant, as a resource blob (weights can be large).
    // A blocked layout is the permutation of the shape with the minor dim
    // split in two: [extent / block, ..., block].
    SmallVector<int64_t> splitShape(type.getShape());
    SmallVector<int64_t> splitPerm(perm);
    if (blocked) {
      splitShape[minorDim] = extent / block;
      splitShape.insert(splitShape.begin() + minorDim + 1, block);
      for (int64_t &p : splitPerm)
        if (p > minorDim)
          ++p;
      splitPerm.insert(splitPerm.begin(), minorDim);
      splitPerm.back() = minorDim + 1;
    }
    std::vector<char> packed =
        dlc::permuteBytes(bytes, splitShape, splitPerm, bits / 8);
    auto packedType = RankedTensorType::get(
        applyPermutation(splitShape, splitPerm), type.getElementType());
    auto blob = HeapAsmResourceBlob::allocateAndCopyWithAlign(
        ArrayRef<char>(packed.data(), packed.size()), 64);
    auto attr = DenseResourceElementsAttr::get(packedType, "dlc_packed",
                                               std::move(blob));
    OpBuilder b(cst);
    auto packedCst = arith::ConstantOp::create(b, cst.getLoc(), attr);

    // Each read: the same element range of the packed tensor, as a minor
    // identity read of the wide vector dims in physical order, with the
    // unit dims put back in front and transposed back to the vector order.
    int64_t kw = wide.size();
    SmallVector<int64_t> vecOrder(unit); // [unit dims, wide in physical order]
    for (int64_t j = rank - kw; j < rank; ++j)
      vecOrder.push_back(llvm::find(vecDims, perm[j]) - vecDims.begin());
    SmallVector<int64_t> back = invertPermutationVector(vecOrder);
    for (vector::TransferReadOp read : reads) {
      VectorType readType = read.getVectorType();
      SmallVector<int64_t> packedVecShape, fullShape(unit.size(), 1);
      SmallVector<bool> inBounds;
      for (int64_t i : ArrayRef<int64_t>(vecOrder).drop_front(unit.size())) {
        packedVecShape.push_back(readType.getDimSize(i));
        fullShape.push_back(readType.getDimSize(i));
        inBounds.push_back(read.isDimInBounds(i));
      }
      auto packedVecType =
          VectorType::get(packedVecShape, readType.getElementType());
      auto fullType = VectorType::get(fullShape, readType.getElementType());
      b.setInsertionPoint(read);
      SmallVector<Value> indices = applyPermutation(
          SmallVector<Value>(read.getIndices()), perm);
      if (blocked) {
        Value lanes = arith::ConstantIndexOp::create(b, read.getLoc(), block);
        indices.insert(indices.begin(),
                       arith::DivUIOp::create(b, read.getLoc(),
                                              indices.back(), lanes));
        indices.back() = arith::ConstantIndexOp::create(b, read.getLoc(), 0);
      }
      Value v = vector::TransferReadOp::create(b, read.getLoc(), packedVecType,
                                               packedCst, indices,
                                               read.getPadding(), inBounds);
      if (!unit.empty())
        v = vector::ShapeCastOp::create(b, read.getLoc(), fullType, v);
      if (!isIdentityPermutation(back))
        v = vector::TransposeOp::create(b, read.getLoc(), v, back);
      read.replaceAllUsesWith(v);
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
