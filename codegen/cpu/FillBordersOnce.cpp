//===- FillBordersOnce.cpp - padded buffers whose borders persist ---------===//
//
// A padded buffer (dlc-cpu-decompose-pads: border fills with a constant and
// an interior its producer writes) whose borders nothing else writes moves
// out of the workspace into the model's state, memory of its own that the
// runtime keeps for the instance's life, and its border fills run on the
// first call only. Each later call writes the interior alone: no border
// fill kernels, whose cache lines (a column of single elements touches
// every row's line) were mostly last written by another core. Measurements
// in docs/performance.md.
//
//===----------------------------------------------------------------------===//
#include "codegen/cpu/Passes.h"
#include "ir/DlcAttrs.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace dlc {
#define GEN_PASS_DEF_FILLBORDERSONCE
#include "codegen/cpu/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {

/// The elements a static view spans: per dimension [lo, hi).
struct Box {
  SmallVector<int64_t> lo, hi;
  bool intersects(const Box &o) const {
    for (auto [a, b, c, d] : llvm::zip(lo, hi, o.lo, o.hi))
      if (b <= c || d <= a)
        return false;
    return true;
  }
};

/// The box of a subview of static offsets, sizes and strides, none
/// otherwise (or when it drops dimensions).
std::optional<Box> boxOf(memref::SubViewOp view) {
  if (view.getSourceType().getRank() != view.getType().getRank())
    return std::nullopt;
  Box box;
  for (auto [o, n, s] :
       llvm::zip(view.getStaticOffsets(), view.getStaticSizes(),
                 view.getStaticStrides())) {
    if (ShapedType::isDynamic(o) || ShapedType::isDynamic(n) ||
        ShapedType::isDynamic(s))
      return std::nullopt;
    box.lo.push_back(o);
    box.hi.push_back(n == 0 ? o : o + (n - 1) * s + 1);
  }
  return box;
}

/// Whether `op` may write `v` (or memory it cannot name).
bool mayWrite(Operation *op, Value v) {
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return true;
  SmallVector<MemoryEffects::EffectInstance> list;
  effects.getEffects(list);
  for (const MemoryEffects::EffectInstance &e : list) {
    if (isa<MemoryEffects::Read>(e.getEffect()))
      continue;
    if (!e.getValue() || e.getValue() == v)
      return true;
  }
  return false;
}

/// Whether `op` only reads memory through its operands into its results.
bool isRead(Operation *op) {
  return isa<vector::TransferReadOp, vector::LoadOp, vector::MaskedLoadOp,
             memref::LoadOp, memref::DimOp>(op);
}

/// A padded buffer: its allocation and its border fills.
struct Padded {
  memref::AllocOp alloc;
  SmallVector<linalg::FillOp> fills;
  int64_t bytes = 0;
};

/// The padded buffer `alloc` is, when its border fills are the only writes
/// of its borders: every other write goes through a static subview of it
/// clear of the borders (the interior its producer writes).
std::optional<Padded> asPadded(memref::AllocOp alloc) {
  MemRefType type = alloc.getType();
  if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
      type.getMemorySpace() || !alloc->getDiscardableAttrs().empty())
    return std::nullopt;
  Padded padded{alloc, {}, 0};
  SmallVector<Box> borders;
  SmallVector<std::pair<memref::SubViewOp, Box>> inner;
  SmallVector<Value> readOnly, writable;
  for (Operation *user : alloc->getUsers()) {
    if (isa<memref::DeallocOp>(user))
      continue;
    auto view = dyn_cast<memref::SubViewOp>(user);
    std::optional<Box> box = view ? boxOf(view) : std::nullopt;
    if (view && box && !view->use_empty() &&
        llvm::all_of(view->getUsers(), [&](Operation *u) {
          auto fill = dyn_cast<linalg::FillOp>(u);
          return fill && fill->hasAttr(dlc::kPadBorderAttrName) &&
                 fill.getOutputs()[0] == view.getResult() &&
                 matchPattern(fill.getInputs()[0], m_Constant());
        })) {
      for (Operation *u : view->getUsers())
        padded.fills.push_back(cast<linalg::FillOp>(u));
      borders.push_back(*box);
      continue;
    }
    if (view && box) {
      inner.push_back({view, *box});
      continue;
    }
    // Anything else reads the buffer only: its whole, a view at run-time
    // offsets (a convolution's window).
    if (view || isa<ViewLikeOpInterface, memref::ExpandShapeOp,
                    memref::CollapseShapeOp, memref::CastOp>(user)) {
      llvm::append_range(readOnly, user->getResults());
      continue;
    }
    if ((user->getNumResults() != 0 && !isRead(user)) || mayWrite(user, alloc))
      return std::nullopt;
  }
  if (padded.fills.empty())
    return std::nullopt;
  // Fills beside the allocation only (they move to the entry), in program
  // order (the users come newest first).
  if (llvm::any_of(padded.fills, [&](linalg::FillOp fill) {
        return fill->getBlock() != alloc->getBlock();
      }))
    return std::nullopt;
  llvm::sort(padded.fills, [](linalg::FillOp a, linalg::FillOp b) {
    return a->isBeforeInBlock(b);
  });
  for (auto &[view, box] : inner) {
    bool clear = llvm::none_of(
        borders, [&](const Box &border) { return border.intersects(box); });
    (clear ? writable : readOnly).push_back(view.getResult());
  }
  // Through views: no writes below a read-only one; reinterpretations,
  // ops that yield or capture a view, calls: not followed.
  for (bool canWrite : {false, true}) {
    SmallVector<Value> worklist = canWrite ? writable : readOnly;
    while (!worklist.empty()) {
      Value v = worklist.pop_back_val();
      for (Operation *user : v.getUsers()) {
        if (isa<memref::ReinterpretCastOp, memref::ExtractStridedMetadataOp>(
                user))
          return std::nullopt;
        if (isa<ViewLikeOpInterface, memref::ExpandShapeOp,
                memref::CollapseShapeOp, memref::CastOp>(user)) {
          llvm::append_range(worklist, user->getResults());
          continue;
        }
        if (user->getNumResults() != 0 && !isRead(user))
          return std::nullopt;
        if (isa<RegionBranchOpInterface>(user) ||
            isa<func::CallOp, func::ReturnOp>(user) ||
            (!canWrite && mayWrite(user, v)))
          return std::nullopt;
      }
    }
  }
  padded.bytes = llvm::alignTo(
      type.getNumElements() *
          llvm::divideCeil(std::max<int64_t>(8, type.getElementTypeBitWidth()),
                           8),
      64);
  return padded;
}

struct FillBordersOncePass
    : dlc::impl::FillBordersOnceBase<FillBordersOncePass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal() || func.getSymName() != "main" ||
        func->hasAttr(dlc::kHostPartAttrName))
      return;
    Block &body = func.getBody().front();
    // Most border per byte first (small images: the border is a large
    // part of them), within the state's budget.
    SmallVector<std::pair<double, Padded>> candidates;
    for (auto alloc : body.getOps<memref::AllocOp>())
      if (std::optional<Padded> p = asPadded(alloc)) {
        int64_t border = 0;
        for (linalg::FillOp fill : p->fills)
          border +=
              cast<MemRefType>(fill.getOutputs()[0].getType()).getNumElements();
        candidates.push_back(
            {double(border) / alloc.getType().getNumElements(), *p});
      }
    llvm::stable_sort(candidates, [](const auto &a, const auto &b) {
      return a.first > b.first;
    });
    SmallVector<std::pair<Padded, int64_t>> chosen; // with its offset
    int64_t size = 64; // the first-call flag, then the buffers
    for (auto &[ratio, p] : candidates) {
      if (size + p.bytes > maxStateBytes)
        continue;
      chosen.push_back({p, size});
      size += p.bytes;
    }
    if (chosen.empty())
      return;

    MLIRContext *ctx = &getContext();
    Location loc = func.getLoc();
    unsigned index = func.getNumArguments();
    auto stateType = MemRefType::get({size}, IntegerType::get(ctx, 8));
    if (failed(func.insertArgument(index, stateType, {}, loc)))
      return signalPassFailure();
    func.setArgAttr(index, dlc::kStateArgAttrName, UnitAttr::get(ctx));
    Value state = func.getArgument(index);

    // Each buffer: a view of the state, at the entry.
    OpBuilder b = OpBuilder::atBlockBegin(&body);
    IRMapping map;
    for (auto &[p, offset] : chosen) {
      Value view = memref::ViewOp::create(
          b, p.alloc.getLoc(), p.alloc.getType(), state,
          arith::ConstantIndexOp::create(b, p.alloc.getLoc(), offset),
          ValueRange{});
      map.map(p.alloc.getResult(), view);
    }
    // if (flag == 0) { border fills; flag = 1 }
    Value flagView = memref::ViewOp::create(
        b, loc, MemRefType::get({}, b.getI32Type()), state,
        arith::ConstantIndexOp::create(b, loc, 0), ValueRange{});
    Value flag = memref::LoadOp::create(b, loc, flagView, ValueRange{});
    Value first = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::eq, flag,
        arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0));
    auto ifOp = scf::IfOp::create(b, loc, first, /*withElseRegion=*/false);
    b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    for (auto &[p, offset] : chosen) {
      for (linalg::FillOp fill : p.fills) {
        auto view = fill.getOutputs()[0].getDefiningOp<memref::SubViewOp>();
        Operation *value = fill.getInputs()[0].getDefiningOp();
        if (!map.contains(view.getResult()))
          b.clone(*view, map);
        if (!map.contains(fill.getInputs()[0]))
          b.clone(*value, map);
        b.clone(*fill, map)->removeAttr(dlc::kPadBorderAttrName);
      }
    }
    memref::StoreOp::create(
        b, loc, arith::ConstantIntOp::create(b, loc, b.getI32Type(), 1),
        flagView, ValueRange{});
    for (auto &[p, offset] : chosen) {
      for (linalg::FillOp fill : p.fills) {
        Operation *view = fill.getOutputs()[0].getDefiningOp();
        fill.erase();
        if (view->use_empty())
          view->erase();
      }
      for (Operation *user : llvm::make_early_inc_range(p.alloc->getUsers()))
        if (isa<memref::DeallocOp>(user))
          user->erase();
      p.alloc.replaceAllUsesWith(map.lookup(p.alloc.getResult()));
      p.alloc.erase();
    }
    func->setAttr("dlc.state_size", b.getI64IntegerAttr(size));
  }
};
} // namespace
