//===- MemoryPlan.cpp - static workspace plan for intermediate buffers ----===//
#include "codegen/common/Passes.h"
#include "ir/DlcAttrs.h"
#include "ir/DlcOps.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/DenseMap.h"

namespace dlc {
#define GEN_PASS_DEF_MEMORYPLAN
#include "codegen/common/Passes.h.inc"
} // namespace dlc

using namespace mlir;

namespace {

struct Buffer {
  memref::AllocOp alloc;
  int64_t size = 0;
  unsigned begin = 0, end = 0; // live range in top-level op indices
  int64_t offset = 0;
};

/// The op of `block` that contains `op`.
Operation *topLevelAncestor(Block &block, Operation *op) {
  while (op && op->getBlock() != &block)
    op = op->getParentOp();
  return op;
}

/// Whether `v` depends on nothing but the function's arguments (see
/// atEntry); `known` memoizes the answers.
bool computableAtEntry(Value v, Block &entry, DenseMap<Value, bool> &known,
                       int depth = 24) {
  if (auto arg = dyn_cast<BlockArgument>(v))
    return arg.getOwner() == &entry;
  if (auto it = known.find(v); it != known.end())
    return it->second;
  Operation *def = v.getDefiningOp();
  bool ok = depth > 0 && def->getNumRegions() == 0;
  if (ok) {
    // A load moves to the entry only from the entry's top level (a guarded
    // load may be out of bounds where its guard does not hold).
    bool readOnlyLoad = false;
    if (auto load = dyn_cast<memref::LoadOp>(def)) {
      auto arg = dyn_cast<BlockArgument>(load.getMemRef());
      readOnlyLoad =
          def->getBlock() == &entry && arg && arg.getOwner() == &entry &&
          llvm::all_of(arg.getUsers(), llvm::IsaPred<memref::LoadOp>);
    }
    ok = readOnlyLoad || isPure(def);
  }
  for (Value operand : def->getOperands())
    if (ok)
      ok = computableAtEntry(operand, entry, known, depth - 1);
  known[v] = ok;
  return ok;
}

/// `v` computed at the start of `entry` (cloned there, through `map`), or
/// null when it depends on more than the function's arguments: pure ops
/// without regions, constants, and loads of arguments that the function
/// only reads (the sizes of symbolic dimensions).
Value atEntry(Value v, Block &entry, OpBuilder &b, IRMapping &map,
              int depth = 24) {
  if (Value known = map.lookupOrNull(v))
    return known;
  if (auto arg = dyn_cast<BlockArgument>(v))
    return arg.getOwner() == &entry ? v : Value();
  Operation *def = v.getDefiningOp();
  if (depth == 0 || def->getNumRegions() != 0)
    return Value();
  bool readOnlyLoad = false;
  if (auto load = dyn_cast<memref::LoadOp>(def)) {
    auto arg = dyn_cast<BlockArgument>(load.getMemRef());
    readOnlyLoad = arg && arg.getOwner() == &entry &&
                   llvm::all_of(arg.getUsers(), llvm::IsaPred<memref::LoadOp>);
  }
  if (!readOnlyLoad && !isPure(def))
    return Value();
  for (Value operand : def->getOperands())
    if (!atEntry(operand, entry, b, map, depth - 1))
      return Value();
  Operation *copy = b.clone(*def, map);
  return copy->getResult(cast<OpResult>(v).getResultNumber());
}

/// The elements of `alloc` (a flat buffer) that its users read and write,
/// computed at the function's entry, or null when that is all of it: its
/// users are views from element 0 at run-time sizes (the leading elements of
/// dlc-bound-dynamic-tensors, the dense views of dlc-bound-dynamic-allocs),
/// whose last element is at sum((size - 1) * stride).
Value usedElementsAtEntry(memref::AllocOp alloc, Block &entry, OpBuilder &b,
                          IRMapping &map) {
  MemRefType type = alloc.getType();
  if (type.getRank() != 1 || alloc->use_empty())
    return Value();
  // Only views at run-time sizes, each computable at the entry, whose own
  // users do not address the buffer anew (a reinterpret_cast of a view
  // reaches past it).
  bool runTime = false;
  DenseMap<Value, bool> known;
  for (Operation *user : alloc->getUsers()) {
    auto view = dyn_cast<OffsetSizeAndStrideOpInterface>(user);
    if (!view || !isa<memref::SubViewOp, memref::ReinterpretCastOp>(user))
      return Value();
    SmallVector<Value> worklist(user->getResults());
    while (!worklist.empty()) {
      Value v = worklist.pop_back_val();
      for (Operation *next : v.getUsers()) {
        if (isa<memref::ReinterpretCastOp, memref::ExtractStridedMetadataOp>(
                next))
          return Value();
        if (isa<ViewLikeOpInterface>(next) ||
            isa<memref::CastOp, memref::ExpandShapeOp,
                memref::CollapseShapeOp>(next))
          llvm::append_range(worklist, next->getResults());
      }
    }
    for (OpFoldResult r : llvm::concat<const OpFoldResult>(
             view.getMixedSizes(), view.getMixedStrides())) {
      if (getConstantIntValue(r))
        continue;
      if (!computableAtEntry(cast<Value>(r), entry, known))
        return Value();
      runTime = true;
    }
  }
  if (!runTime)
    return Value();
  Location loc = alloc.getLoc();
  auto value = [&](OpFoldResult r) -> Value {
    if (std::optional<int64_t> c = getConstantIntValue(r))
      return *c < 0 ? Value() : arith::ConstantIndexOp::create(b, loc, *c);
    return atEntry(cast<Value>(r), entry, b, map);
  };
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value most = zero;
  for (Operation *user : alloc->getUsers()) {
    SmallVector<OpFoldResult> offsets, sizes, strides;
    if (auto view = dyn_cast<memref::SubViewOp>(user)) {
      offsets = view.getMixedOffsets();
      sizes = view.getMixedSizes();
      strides = view.getMixedStrides();
    } else if (auto view = dyn_cast<memref::ReinterpretCastOp>(user)) {
      offsets = view.getMixedOffsets();
      sizes = view.getMixedSizes();
      strides = view.getMixedStrides();
    } else {
      return Value();
    }
    if (offsets.size() != 1 || !isZeroInteger(offsets[0]))
      return Value();
    Value last = zero;
    for (auto [size, stride] : llvm::zip(sizes, strides)) {
      Value n = value(size), step = value(stride);
      if (!n || !step)
        return Value();
      last = arith::AddIOp::create(
          b, loc, last,
          arith::MulIOp::create(b, loc, arith::SubIOp::create(b, loc, n, one),
                                step));
    }
    most = arith::MaxSIOp::create(b, loc, most,
                                  arith::AddIOp::create(b, loc, last, one));
  }
  // (No more than the buffer: a view with a size of 0 touches nothing.)
  return arith::MinSIOp::create(
      b, loc, most,
      arith::ConstantIndexOp::create(b, loc, type.getNumElements()));
}

struct MemoryPlanPass : dlc::impl::MemoryPlanBase<MemoryPlanPass> {
  using Base::Base;

  /// Buffers sized at run time (symbolic dimensions) take only the bytes of
  /// the run's sizes: each placed buffer starts right above the buffers
  /// below it in the plan (at the bounds) that it overlaps in time, at their
  /// run-time offsets and sizes. Never above its planned offset, and buffers
  /// live at once never meet, whatever the sizes: the plan's order kept at
  /// smaller sizes. Returns the offsets (at the function's entry), none when
  /// every buffer has a fixed size.
  DenseMap<Buffer *, Value> offsetsAtRunTime(func::FuncOp func,
                                             ArrayRef<Buffer *> placed) {
    Block &entry = func.getBody().front();
    OpBuilder b = OpBuilder::atBlockBegin(&entry);
    IRMapping map;
    Location loc = func.getLoc();
    DenseMap<Buffer *, Value> sizes;
    for (Buffer *buf : placed) {
      Value n = usedElementsAtEntry(buf->alloc, entry, b, map);
      if (!n)
        continue;
      int64_t width =
          std::max<int64_t>(8, buf->alloc.getType().getElementTypeBitWidth()) /
          8;
      Value bytes = arith::MulIOp::create(
          b, loc, n, arith::ConstantIndexOp::create(b, loc, width));
      Value align = arith::ConstantIndexOp::create(b, loc, alignment);
      sizes[buf] = arith::MulIOp::create(
          b, loc, arith::CeilDivUIOp::create(b, loc, bytes, align), align);
    }
    DenseMap<Buffer *, Value> offsets;
    if (sizes.empty())
      return offsets;
    SmallVector<Buffer *> order(placed.begin(), placed.end());
    llvm::stable_sort(
        order, [](Buffer *x, Buffer *y) { return x->offset < y->offset; });
    for (Buffer *buf : order) {
      Value offset = arith::ConstantIndexOp::create(b, loc, 0);
      for (Buffer *p : order) {
        if (p->offset >= buf->offset)
          break;
        if (p->end < buf->begin || buf->end < p->begin)
          continue;
        Value size = sizes.lookup(p);
        if (!size)
          size = arith::ConstantIndexOp::create(b, loc, p->size);
        offset = arith::MaxUIOp::create(
            b, loc, offset, arith::AddIOp::create(b, loc, offsets[p], size));
      }
      offsets[buf] = offset;
    }
    return offsets;
  }

  /// First fit, largest buffers first: sets each buffer's offset, returns
  /// the bytes they take; `placed` lists them in the order placed.
  static int64_t firstFit(MutableArrayRef<Buffer> buffers,
                          SmallVectorImpl<Buffer *> &placed) {
    SmallVector<Buffer *> order;
    for (Buffer &b : buffers)
      order.push_back(&b);
    llvm::stable_sort(order,
                      [](Buffer *a, Buffer *b) { return a->size > b->size; });
    int64_t total = 0;
    for (Buffer *buf : order) {
      SmallVector<std::pair<int64_t, int64_t>> busy;
      for (Buffer *p : placed)
        if (!(p->end < buf->begin || buf->end < p->begin))
          busy.push_back({p->offset, p->offset + p->size});
      llvm::sort(busy);
      int64_t offset = 0;
      for (auto [lo, hi] : busy) {
        if (offset + buf->size <= lo)
          break;
        offset = std::max(offset, hi);
      }
      buf->offset = offset;
      total = std::max(total, offset + buf->size);
      placed.push_back(buf);
    }
    return total;
  }

  /// A new trailing argument of `type` marked `attr`; null on failure.
  static Value appendWorkspace(func::FuncOp func, MemRefType type,
                               StringRef attr) {
    unsigned index = func.getNumArguments();
    if (failed(func.insertArgument(index, type, {}, func.getLoc())))
      return {};
    func.setArgAttr(index, attr, UnitAttr::get(func.getContext()));
    return func.getArgument(index);
  }

  /// Replaces each buffer's allocation by a view of `ws` at its offset (its
  /// run-time offset where `runOffsets` has one).
  static void replaceByViews(MutableArrayRef<Buffer> buffers, Value ws,
                             const DenseMap<Buffer *, Value> &runOffsets) {
    OpBuilder b(ws.getContext());
    for (Buffer &buf : buffers) {
      b.setInsertionPoint(buf.alloc);
      Location loc = buf.alloc.getLoc();
      Value offset = runOffsets.lookup(&buf);
      if (!offset)
        offset = arith::ConstantIndexOp::create(b, loc, buf.offset);
      Value view = memref::ViewOp::create(b, loc, buf.alloc.getType(), ws,
                                          offset, ValueRange{});
      buf.alloc.replaceAllUsesWith(view);
      buf.alloc.erase();
    }
  }

  LogicalResult planFunction(func::FuncOp func) {
    if (func.isExternal() || func->hasAttr(dlc::kHostPartAttrName))
      return success();
    Block &body = func.getBody().front();
    DenseMap<Operation *, unsigned> index;
    for (auto [i, op] : llvm::enumerate(body))
      index[&op] = i;

    // Scratch of a parallel tile is private to the thread running it: a
    // stack buffer (hoisted to once per thread by dlc-cpu-openmp-threads),
    // not a shared slot of the workspace.
    SmallVector<memref::AllocOp> threadPrivate;
    // Buffers in another memory space (a GPU block's shared memory) are the
    // target's to place.
    func.walk([&](memref::AllocOp alloc) {
      if (alloc.getType().getMemorySpace())
        return;
      if (alloc->getParentOfType<scf::ForallOp>() ||
          alloc->getParentOfType<scf::ParallelOp>())
        threadPrivate.push_back(alloc);
    });
    for (memref::AllocOp alloc : threadPrivate) {
      MemRefType type = alloc.getType();
      if (!type.hasStaticShape()) {
        alloc.emitError("cannot plan a buffer of type ") << type;
        return failure();
      }
      OpBuilder b(alloc);
      auto alloca = memref::AllocaOp::create(b, alloc.getLoc(), type,
                                             b.getI64IntegerAttr(alignment));
      alloc.replaceAllUsesWith(alloca.getResult());
      alloc.erase();
    }

    SmallVector<Buffer> buffers;
    // A CUDA model's buffers in host memory (dlc-gpu-outline-host-parts):
    // a workspace of their own.
    SmallVector<Buffer> hostBuffers;
    // dlc-cpu-profile-kernels' clock stamps: after everything else.
    memref::AllocOp profile;
    WalkResult walk = func.walk([&](memref::AllocOp alloc) {
      MemRefType type = alloc.getType();
      if (type.getMemorySpace())
        return WalkResult::advance();
      if (alloc->hasAttr("dlc.profile") && type.hasStaticShape()) {
        profile = alloc;
        return WalkResult::advance();
      }
      if (!type.hasStaticShape() || !type.getLayout().isIdentity()) {
        alloc.emitError("cannot plan a buffer of type ") << type;
        return WalkResult::interrupt();
      }
      Buffer buf;
      buf.alloc = alloc;
      int64_t bits = type.getNumElements() *
                     std::max<int64_t>(8, type.getElementTypeBitWidth());
      buf.size = (bits / 8 + alignment - 1) / alignment * alignment;
      Operation *top = topLevelAncestor(body, alloc);
      if (top != alloc.getOperation()) {
        // Allocated inside a loop: live for the whole function, one slot
        // for every iteration, so no iteration may hand it to the next
        // (dlc-carry-loop-values-in-place copies carried values).
        SmallVector<Value> worklist{alloc.getResult()};
        while (!worklist.empty()) {
          Value v = worklist.pop_back_val();
          for (Operation *user : v.getUsers()) {
            if (isa<scf::YieldOp, scf::ConditionOp>(user) &&
                isa<scf::WhileOp, scf::ForOp>(user->getParentOp())) {
              alloc.emitError("a buffer allocated in a loop is carried to "
                              "its next iteration; the workspace plan gives "
                              "it one slot");
              return WalkResult::interrupt();
            }
            if (isa<ViewLikeOpInterface>(user) ||
                isa<memref::CastOp, memref::ExpandShapeOp,
                    memref::CollapseShapeOp, memref::ReinterpretCastOp>(user))
              for (Value r : user->getResults())
                worklist.push_back(r);
          }
        }
        buf.begin = 0;
        buf.end = body.getOperations().size();
      } else {
        buf.begin = buf.end = index[top];
        // Follow views and aliases to the last use.
        SmallVector<Value> worklist{alloc.getResult()};
        while (!worklist.empty()) {
          Value v = worklist.pop_back_val();
          for (Operation *user : v.getUsers()) {
            if (Operation *t = topLevelAncestor(body, user))
              buf.end = std::max(buf.end, index[t]);
            if (isa<ViewLikeOpInterface>(user) ||
                isa<memref::CastOp, memref::ExpandShapeOp,
                    memref::CollapseShapeOp, memref::ReinterpretCastOp>(user))
              for (Value r : user->getResults())
                worklist.push_back(r);
          }
        }
      }
      if (alloc->hasAttr(dlc::kHostBufferAttrName))
        hostBuffers.push_back(buf);
      else
        buffers.push_back(buf);
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return failure();

    SmallVector<Buffer *> placed;
    int64_t total = firstFit(buffers, placed);

    // Run-time checks (dlc.report) store their number, from 1, into one
    // word after the buffers when they fail and it is still 0: the first
    // failed check of a call is the one reported.
    SmallVector<dlc::ReportOp> reports;
    func.walk([&](dlc::ReportOp r) { reports.push_back(r); });
    int64_t checkOffset = -1;
    if (!reports.empty()) {
      checkOffset = llvm::alignTo(total, 8);
      total = checkOffset + 8;
    }
    int64_t profileOffset = -1;
    if (profile) {
      profileOffset = llvm::alignTo(total, 8);
      total = profileOffset + profile.getType().getNumElements() * 8;
    }

    OpBuilder b(func.getContext());
    auto wsType = MemRefType::get({std::max<int64_t>(total, alignment)},
                                  b.getI8Type());
    Value ws = appendWorkspace(func, wsType, "dlc.workspace");
    if (!ws)
      return failure();
    replaceByViews(buffers, ws, offsetsAtRunTime(func, placed));
    if (!hostBuffers.empty()) {
      SmallVector<Buffer *> hostPlaced;
      int64_t hostTotal = firstFit(hostBuffers, hostPlaced);
      auto hostType = MemRefType::get({std::max<int64_t>(hostTotal, alignment)},
                                      b.getI8Type());
      Value hostWs = appendWorkspace(func, hostType, "dlc.host_workspace");
      if (!hostWs)
        return failure();
      replaceByViews(hostBuffers, hostWs, DenseMap<Buffer *, Value>());
      func->setAttr("dlc.host_workspace_size",
                    b.getI64IntegerAttr(hostType.getNumElements()));
    }
    if (profile) {
      b.setInsertionPoint(profile);
      Value view = memref::ViewOp::create(
          b, profile.getLoc(), profile.getType(), ws,
          arith::ConstantIndexOp::create(b, profile.getLoc(), profileOffset),
          ValueRange{});
      profile.replaceAllUsesWith(view);
      profile.erase();
      func->setAttr("dlc.profile_offset", b.getI64IntegerAttr(profileOffset));
    }
    if (!reports.empty()) {
      SmallVector<Attribute> messages;
      for (auto [i, report] : llvm::enumerate(reports)) {
        b.setInsertionPoint(report);
        Location loc = report.getLoc();
        auto ifOp = scf::IfOp::create(b, loc, report.getFailed(),
                                      /*withElseRegion=*/false);
        b.setInsertionPointToStart(ifOp.thenBlock());
        Value word = memref::ViewOp::create(
            b, loc, MemRefType::get({}, b.getI32Type()), ws,
            arith::ConstantIndexOp::create(b, loc, checkOffset), ValueRange{});
        Value previous = memref::LoadOp::create(b, loc, word, ValueRange{});
        Value zero = arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0);
        Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                            previous, zero);
        Value number = arith::SelectOp::create(
            b, loc, first,
            arith::ConstantIntOp::create(b, loc, b.getI32Type(), i + 1),
            previous);
        memref::StoreOp::create(b, loc, number, word, ValueRange{});
        messages.push_back(report.getMessageAttr());
        report.erase();
      }
      func->setAttr("dlc.checks", b.getArrayAttr(messages));
      func->setAttr("dlc.check_offset", b.getI64IntegerAttr(checkOffset));
    }
    SmallVector<memref::DeallocOp> deallocs;
    func.walk([&](memref::DeallocOp d) { deallocs.push_back(d); });
    for (memref::DeallocOp d : deallocs)
      d.erase();
    func->setAttr("dlc.workspace_size", b.getI64IntegerAttr(wsType.getNumElements()));
    // The live-set lower bound: the most bytes alive at any one op. A plan
    // without fragmentation would need exactly this much.
    int64_t liveSet = 0;
    for (unsigned i = 0, e = body.getOperations().size(); i <= e; ++i) {
      int64_t live = 0;
      for (const Buffer &buf : buffers)
        if (buf.begin <= i && i <= buf.end)
          live += buf.size;
      liveSet = std::max(liveSet, live);
    }
    func->setAttr("dlc.workspace_live_set", b.getI64IntegerAttr(liveSet));
    return success();
  }

  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (failed(planFunction(func)))
        return signalPassFailure();
  }
};
} // namespace
