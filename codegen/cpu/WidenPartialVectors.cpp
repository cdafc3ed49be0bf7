//===- WidenPartialVectors.cpp - partial vectors as masked whole ones -----===//
//
// LLVM legalizes a load of <7 x float> by widening the value to <8 x float>
// but cannot widen the access (the eighth element may not be addressable),
// so it splits it into loads of 4, 2 and 1 elements and inserts: about five
// instructions per row of 7 columns, at every tap of a depthwise
// convolution over a 7 x 7 image. A masked access of the whole power of two
// is one instruction on x86 with AVX (a mask register with AVX-512,
// vmaskmovps with AVX2, whose stores are microcoded on AMD cores and left
// alone) and touches only the enabled lanes.
//
//===----------------------------------------------------------------------===//
#include "codegen/cpu/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/MathExtras.h"

namespace dlc {
#define GEN_PASS_DEF_WIDENPARTIALVECTORS
#include "codegen/cpu/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {
/// Longest vector widened: tiles are at most a few vectors long.
constexpr int64_t kMaxElements = 64;

/// The power of two a 1-D vector of `type` is widened to, or 0 when it is
/// left alone (a power of two already, one element, not 32 or 64 bits per
/// element, not integers or floats, too long).
int64_t widenedLength(VectorType type) {
  if (type.getRank() != 1 || type.isScalable() ||
      !type.getElementType().isIntOrFloat())
    return 0;
  int64_t n = type.getDimSize(0);
  unsigned bits = type.getElementType().getIntOrFloatBitWidth();
  if (n <= 1 || n > kMaxElements || llvm::isPowerOf2_64(n) ||
      (bits != 32 && bits != 64))
    return 0;
  return static_cast<int64_t>(llvm::PowerOf2Ceil(n));
}

/// A view of a stack buffer (a tile's scratch): LLVM promotes its plain
/// accesses to registers (a store forwarded to the load that reads it
/// back), which masked accesses would prevent.
bool isStackBuffer(Value memref) {
  while (auto view = memref.getDefiningOp<ViewLikeOpInterface>())
    memref = view.getViewSource();
  return memref.getDefiningOp<memref::AllocaOp>() != nullptr;
}

/// A memref in memory (not a tile's stack scratch) whose innermost
/// dimension is contiguous.
bool isContiguousMemRef(Value base) {
  auto memref = dyn_cast<MemRefType>(base.getType());
  return memref && memref.isLastDimUnitStride() && !isStackBuffer(base);
}

/// A transfer that reads or writes `n` consecutive elements of a memref.
bool isPlainTransfer(VectorTransferOpInterface op) {
  return !op.getMask() && op.isDimInBounds(0) &&
         op.getPermutationMap().isMinorIdentity() &&
         isContiguousMemRef(op.getBase());
}

/// `vector<Pxi1>` with the first `n` lanes set.
Value prefixMask(RewriterBase &rewriter, Location loc, int64_t n, int64_t p) {
  SmallVector<bool> lanes(p, false);
  std::fill(lanes.begin(), lanes.begin() + n, true);
  auto type = VectorType::get({p}, rewriter.getI1Type());
  return arith::ConstantOp::create(rewriter, loc,
                                   DenseElementsAttr::get(type, lanes));
}

/// Reads `type` from `base[indices]` as a masked read of the widened length.
Value maskedRead(RewriterBase &rewriter, Location loc, VectorType type,
                 Value base, ValueRange indices, int64_t p) {
  int64_t n = type.getDimSize(0);
  auto wide = VectorType::get({p}, type.getElementType());
  Value mask = prefixMask(rewriter, loc, n, p);
  Value zero = arith::ConstantOp::create(rewriter, loc, wide,
                                         rewriter.getZeroAttr(wide));
  Value load = vector::MaskedLoadOp::create(rewriter, loc, wide, base, indices,
                                            mask, zero);
  return vector::ExtractStridedSliceOp::create(rewriter, loc, load, {0}, {n},
                                               {1});
}

/// Writes `value` to `base[indices]` as a masked write of the widened
/// length.
void maskedWrite(RewriterBase &rewriter, Location loc, Value value, Value base,
                 ValueRange indices, int64_t p) {
  int64_t n = cast<VectorType>(value.getType()).getDimSize(0);
  SmallVector<int64_t> lanes(p, 0);
  for (int64_t i = 0; i < n; ++i)
    lanes[i] = i;
  Value wide = vector::ShuffleOp::create(rewriter, loc, value, value, lanes);
  Value mask = prefixMask(rewriter, loc, n, p);
  vector::MaskedStoreOp::create(rewriter, loc, base, indices, mask, wide);
}

/// A 1-D access of memory: its vector type, base and indices, and whether
/// it writes.
struct Access {
  Operation *op;
  VectorType type;
  Value base;
  ValueRange indices;
  bool writes;
};

std::optional<Access> asAccess(Operation *op) {
  if (auto read = dyn_cast<vector::TransferReadOp>(op)) {
    if (!isPlainTransfer(read))
      return std::nullopt;
    return Access{op, read.getVectorType(), read.getBase(), read.getIndices(),
                  false};
  }
  if (auto write = dyn_cast<vector::TransferWriteOp>(op)) {
    if (!isPlainTransfer(write) || write->getNumResults())
      return std::nullopt;
    return Access{op, write.getVectorType(), write.getBase(),
                  write.getIndices(), true};
  }
  if (auto load = dyn_cast<vector::LoadOp>(op)) {
    if (!isContiguousMemRef(load.getBase()))
      return std::nullopt;
    return Access{op, load.getVectorType(), load.getBase(), load.getIndices(),
                  false};
  }
  if (auto store = dyn_cast<vector::StoreOp>(op)) {
    if (!isContiguousMemRef(store.getBase()))
      return std::nullopt;
    return Access{op, store.getVectorType(), store.getBase(),
                  store.getIndices(), true};
  }
  return std::nullopt;
}

/// A read that feeds lane broadcasts: one only split into scalars (a row of
/// inputs broadcast one pixel at a time) becomes scalar loads folded into
/// the FMAs (on x86, dlc-cpu-lower-vectors' scalar-element-loads has made
/// most such reads scalar loads already); one in a loop that carries
/// accumulators (a contraction's reduction steps: a squeeze-excitation-scaled
/// input row) is scaled and split the same way. Masked, each lane would take a
/// permute (measured: EfficientNet-B0 2% slower on two threads with them
/// masked).
bool feedsBroadcasts(Operation *read) {
  if (llvm::all_of(read->getUsers(), [](Operation *user) {
        return isa<vector::ExtractOp>(user);
      }))
    return true;
  auto loop = read->getParentOfType<scf::ForOp>();
  return loop && loop.getNumRegionIterArgs() > 0;
}

Value storedValue(Operation *op) {
  if (auto write = dyn_cast<vector::TransferWriteOp>(op))
    return write.getVector();
  return cast<vector::StoreOp>(op).getValueToStore();
}

struct WidenPartialVectorsPass
    : dlc::impl::WidenPartialVectorsBase<WidenPartialVectorsPass> {
  using WidenPartialVectorsBase::WidenPartialVectorsBase;
  void runOnOperation() override {
    // Accesses of each view in each block, in order. A read of a view that
    // the block wrote before it, and a write that the block reads back
    // (a tile's initial value stored, then loaded as its accumulator), are
    // left plain: LLVM forwards the stored value to the load, which it does
    // not through masked accesses.
    llvm::MapVector<std::pair<Block *, Value>, SmallVector<Access>> byView;
    getOperation().walk([&](Operation *op) {
      if (std::optional<Access> access = asAccess(op))
        byView[{op->getBlock(), access->base}].push_back(*access);
    });
    SmallVector<std::pair<Access, int64_t>> widen;
    for (auto &[view, accesses] : byView) {
      for (auto [i, access] : llvm::enumerate(accesses)) {
        int64_t p = widenedLength(access.type);
        if (!p || !(access.writes ? maskedStores : maskedLoads))
          continue;
        if (!access.writes && feedsBroadcasts(access.op))
          continue;
        auto others = access.writes ? ArrayRef(accesses).drop_front(i + 1)
                                    : ArrayRef(accesses).take_front(i);
        bool writes = access.writes;
        if (llvm::any_of(others, [&](const Access &other) {
              return other.writes != writes;
            }))
          continue;
        widen.push_back({access, p});
      }
    }
    IRRewriter rewriter(&getContext());
    for (auto &[access, p] : widen) {
      rewriter.setInsertionPoint(access.op);
      Location loc = access.op->getLoc();
      if (access.writes) {
        maskedWrite(rewriter, loc, storedValue(access.op), access.base,
                    access.indices, p);
        rewriter.eraseOp(access.op);
      } else {
        rewriter.replaceOp(access.op,
                           maskedRead(rewriter, loc, access.type, access.base,
                                      access.indices, p));
      }
    }
  }
};
} // namespace
