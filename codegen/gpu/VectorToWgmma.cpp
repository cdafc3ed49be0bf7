//===- VectorToWgmma.cpp - warpgroups' contractions on Hopper tensor cores ===//
//
// A kernel whose contraction config has a warpgroup instruction (`mma` with
// m = 64, set by dlc-gpu-select-strategy with `warpgroups`) holds, after
// dlc-gpu-hoist-accumulators, per warp and K step:
//
//   %acc0 = vector.transfer_read %C[.., %r, %c] : vector<16xNxf32>
//   scf.for ... iter_args(%acc = %acc0) {
//     <copies into %A : memref<BMxBKxT, 3> and %B : memref<NxBKxT, 3>>
//     %a = vector.transfer_read %A[%row, %k] : vector<16xKIxT>
//     %b = vector.transfer_read %B[%n, %k] : vector<NxKIxT>
//     %d = vector.contract %a, %b, %acc      (a piece: one per KI of K)
//   }
//   vector.transfer_write %res, %C[.., %r, %c]
//
// The shared tiles are laid out in wgmma's canonical K-major form without
// swizzling: memref<BK/c x rows x c x T> (c = 16 bytes of T), so that the
// 8 x 16-byte core matrices are contiguous, 128 bytes apart along the rows
// (the descriptor's stride offset) and rows * 16 bytes apart along K (its
// leading offset); the copies into them are rewritten to that layout. Each
// contraction becomes a dlc.warpgroup_mma on descriptors of its group's 64
// rows of A and of B at its K offset; the accumulators become each
// thread's n / 2 elements of the wgmma D fragment, read from and written
// to the output per lane, carried as such through the loops.
//===----------------------------------------------------------------------===//
#include "codegen/gpu/KernelUtils.h"
#include "codegen/gpu/Passes.h"
#include "ir/DlcAttrs.h"
#include "ir/DlcOps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/AffineExprVisitor.h"
#include "llvm/ADT/SetVector.h"

#include <numeric>

namespace dlc {
#define GEN_PASS_DEF_GPUVECTORTOWGMMA
#include "codegen/gpu/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;

/// A multiple that `v` (an index) is known to be of; 0 when it is 0.
static int64_t knownDivisor(Value v, int depth = 0) {
  if (std::optional<int64_t> c = getConstantIntValue(v))
    return std::abs(*c);
  if (depth > 8)
    return 1;
  if (auto apply = v.getDefiningOp<affine::AffineApplyOp>()) {
    AffineMap map = apply.getAffineMap();
    SmallVector<AffineExpr> dims, syms;
    ValueRange operands = apply.getMapOperands();
    for (unsigned i = 0; i < map.getNumDims(); ++i)
      dims.push_back(getAffineDimExpr(i, v.getContext()) *
                     knownDivisor(operands[i], depth + 1));
    for (unsigned i = 0; i < map.getNumSymbols(); ++i)
      syms.push_back(getAffineSymbolExpr(i, v.getContext()) *
                     knownDivisor(operands[map.getNumDims() + i], depth + 1));
    AffineExpr e =
        simplifyAffineExpr(map.getResult(0).replaceDimsAndSymbols(dims, syms),
                           map.getNumDims(), map.getNumSymbols());
    return std::abs(e.getLargestKnownDivisor());
  }
  if (auto add = v.getDefiningOp<arith::AddIOp>())
    return std::gcd(knownDivisor(add.getLhs(), depth + 1),
                    knownDivisor(add.getRhs(), depth + 1));
  if (auto mul = v.getDefiningOp<arith::MulIOp>())
    return knownDivisor(mul.getLhs(), depth + 1) *
           knownDivisor(mul.getRhs(), depth + 1);
  if (auto arg = dyn_cast<BlockArgument>(v))
    if (auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp()))
      if (arg == loop.getInductionVar())
        return std::gcd(knownDivisor(loop.getLowerBound(), depth + 1),
                        knownDivisor(loop.getStep(), depth + 1));
  return 1;
}

/// A wgmma matrix descriptor (PTX ISA, "Matrix Descriptor Format") of the
/// tile of `tile` (memref<BK/c x rows x c x T>) whose first row is `row`,
/// in the K block `kBlock`: start address, leading offset (rows * 16
/// bytes between K blocks), stride offset (128 bytes between 8-row core
/// matrices), no swizzling.
static Value descriptor(OpBuilder &b, Location loc, Value tile, Value kBlock,
                        Value row) {
  auto type = cast<MemRefType>(tile.getType());
  int64_t rows = type.getDimSize(type.getRank() - 2);
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, tile);
  AffineExpr s0, s1, s2;
  bindSymbols(b.getContext(), s0, s1, s2);
  Value addr = affine::makeComposedAffineApply(
      b, loc, s0 + (s1 * rows + s2) * 16, {base, kBlock, row});
  Type i64 = b.getI64Type();
  auto constant = [&](int64_t v) {
    return arith::ConstantIntOp::create(b, loc, i64, v);
  };
  Value start = arith::ShRUIOp::create(
      b, loc,
      arith::AndIOp::create(b, loc,
                            arith::IndexCastUIOp::create(b, loc, i64, addr),
                            constant(0x3FFFF)),
      constant(4));
  return arith::OrIOp::create(b, loc, start,
                              constant((rows << 16) | (int64_t(8) << 32)));
}

namespace {
/// An operand of a warpgroup contraction: its read from a shared tile.
struct SharedOperand {
  vector::TransferReadOp read;
  memref::AllocOp alloc;
};

struct VectorToWgmmaPass : dlc::impl::GpuVectorToWgmmaBase<VectorToWgmmaPass> {
  /// The shared tile that `v` (a contraction operand, perhaps widened)
  /// reads rows of, K innermost.
  static FailureOr<SharedOperand> sharedOperand(Value v) {
    if (auto ext = v.getDefiningOp<arith::ExtFOp>())
      v = ext.getIn();
    auto read = v.getDefiningOp<vector::TransferReadOp>();
    if (!read || !read.getPermutationMap().isMinorIdentity() ||
        read.getVectorType().getRank() != 2 || read.hasOutOfBoundsDim())
      return failure();
    // A tile of rows x K, perhaps with leading unit dims (a batch).
    auto alloc = read.getBase().getDefiningOp<memref::AllocOp>();
    if (!alloc || alloc.getType().getRank() < 2 ||
        !inAddressSpace(alloc.getType(), gpu::AddressSpace::Workgroup) ||
        !llvm::all_of(alloc.getType().getShape().drop_back(2),
                      [](int64_t d) { return d == 1; }))
      return failure();
    return SharedOperand{read, alloc};
  }

  /// `alloc` in the canonical K-major layout, its copies rewritten.
  LogicalResult layOut(memref::AllocOp alloc,
                       DenseMap<Operation *, Value> &tiles,
                       const DenseSet<Operation *> &operandReads) {
    MemRefType type = alloc.getType();
    int64_t bytes = type.getElementTypeBitWidth() / 8;
    int64_t rank = type.getRank();
    int64_t c = 16 / bytes, rows = type.getDimSize(rank - 2),
            k = type.getDimSize(rank - 1);
    if (k % c != 0)
      return alloc.emitError("a warpgroup operand tile's K of ")
             << k << " is not a multiple of " << c;
    OpBuilder b(alloc);
    // The leading unit dims stay.
    SmallVector<int64_t> shape(rank - 2, 1);
    shape.append({k / c, rows, c});
    auto tileType =
        MemRefType::get(shape, type.getElementType(),
                        MemRefLayoutAttrInterface(), type.getMemorySpace());
    auto tile = memref::AllocOp::create(b, alloc.getLoc(), tileType,
                                        alloc.getAlignmentAttr());
    tiles[alloc] = tile;
    for (Operation *user : llvm::make_early_inc_range(alloc->getUsers())) {
      if (operandReads.contains(user))
        continue;
      // A copy into a tile of P rows x W elements.
      if (auto view = dyn_cast<memref::SubViewOp>(user)) {
        if (failed(layOutView(view, tile, c)))
          return failure();
        continue;
      }
      auto write = dyn_cast<vector::TransferWriteOp>(user);
      VectorType vt = write ? write.getVectorType() : VectorType();
      AffineMap map = write ? write.getPermutationMap() : AffineMap();
      if (!write || write.getBase() != alloc.getResult() ||
          write.hasOutOfBoundsDim() || !map.isMinorIdentity() ||
          vt.getRank() < 1 || vt.getRank() > rank ||
          !llvm::all_of(
              vt.getShape().drop_back(std::min<int64_t>(2, vt.getRank())),
              [](int64_t d) { return d == 1; })) {
        return user->emitError("cannot lay out a warpgroup operand tile "
                               "for wgmma: it is used by ")
               << *user;
      }
      // Pieces of at most one core-matrix row (c elements) along K.
      int64_t w = vt.getShape().back(), piece = std::min(w, c);
      ValueRange indices = write.getIndices();
      Value i = indices[rank - 2], j = indices[rank - 1];
      if (c % piece != 0 || w % piece != 0 || knownDivisor(j) % piece != 0)
        return write.emitError("a copy into a warpgroup operand tile "
                               "crosses its 16-byte core-matrix rows");
      b.setInsertionPoint(write);
      Location loc = write.getLoc();
      AffineExpr d0;
      bindDims(b.getContext(), d0);
      AffineMap newMap = AffineMap::getMinorIdentityMap(rank + 1, vt.getRank(),
                                                        b.getContext());
      for (int64_t q = 0; q < w / piece; ++q) {
        Value v = write.getVector();
        if (piece != w) {
          SmallVector<int64_t> offsets(vt.getRank(), 0), sizes(vt.getShape()),
              strides(vt.getRank(), 1);
          offsets.back() = q * piece;
          sizes.back() = piece;
          v = vector::ExtractStridedSliceOp::create(b, loc, v, offsets, sizes,
                                                    strides);
        }
        Value kb = affine::makeComposedAffineApply(
            b, loc, (d0 + q * piece).floorDiv(c), {j});
        Value kc =
            affine::makeComposedAffineApply(b, loc, (d0 + q * piece) % c, {j});
        SmallVector<Value> at(indices.drop_back(2));
        at.append({kb, i, kc});
        vector::TransferWriteOp::create(b, loc, v, tile, at,
                                        AffineMapAttr::get(newMap),
                                        write.getInBoundsAttr());
      }
      write.erase();
    }
    return success();
  }

  /// A view of `c`-aligned rows of a tile, the target of copies, as the
  /// same rows of `tile` (its canonical layout).
  static LogicalResult layOutView(memref::SubViewOp view, Value tile,
                                  int64_t c) {
    SmallVector<OpFoldResult> offsets = view.getMixedOffsets();
    SmallVector<OpFoldResult> sizes = view.getMixedSizes();
    size_t rank = offsets.size();
    std::optional<int64_t> p = getConstantIntValue(sizes[rank - 2]);
    std::optional<int64_t> w = getConstantIntValue(sizes[rank - 1]);
    // Writes only: copies into it, ops (an im2col) that compute it.
    bool copiesOnly = llvm::all_of(view->getUses(), [&](OpOperand &use) {
      Operation *u = use.getOwner();
      if (auto copy = dyn_cast<memref::CopyOp>(u))
        return copy.getTarget() == view.getResult();
      if (auto linalgOp = dyn_cast<linalg::LinalgOp>(u))
        return linalgOp.isDpsInit(&use) && linalgOp.getNumDpsInputs() == 0 &&
               !linalgOp.payloadUsesValueFromOperand(&use);
      return false;
    });
    auto offsetDivisor = [](OpFoldResult f) {
      if (std::optional<int64_t> v = getConstantIntValue(f))
        return std::abs(*v);
      return knownDivisor(cast<Value>(f));
    };
    if (!view.hasUnitStride() || !p || !w || c % *w != 0 ||
        offsetDivisor(offsets[rank - 1]) % *w != 0 || !copiesOnly)
      return view.emitError("cannot lay out a view of a warpgroup operand "
                            "tile (writes of whole 16-byte core-matrix rows "
                            "only): ")
             << view.getType();
    OpBuilder b(view);
    Location loc = view.getLoc();
    AffineExpr d0;
    bindDims(b.getContext(), d0);
    Value j = getValueOrCreateConstantIndexOp(b, loc, offsets[rank - 1]);
    SmallVector<OpFoldResult> at(ArrayRef(offsets).drop_back(2));
    at.append(
        {affine::makeComposedFoldedAffineApply(b, loc, d0.floorDiv(c), {j}),
         offsets[rank - 2],
         affine::makeComposedFoldedAffineApply(b, loc, d0 % c, {j})});
    SmallVector<OpFoldResult> newSizes(ArrayRef(sizes).drop_back(2));
    newSizes.append({b.getIndexAttr(1), sizes[rank - 2], sizes[rank - 1]});
    SmallVector<OpFoldResult> strides(rank + 1, b.getIndexAttr(1));
    auto type = memref::SubViewOp::inferRankReducedResultType(
        view.getType().getShape(), cast<MemRefType>(tile.getType()), at,
        newSizes, strides);
    Value replacement = memref::SubViewOp::create(
        b, loc, cast<MemRefType>(type), tile, at, newSizes, strides);
    view.getResult().replaceAllUsesWith(replacement);
    view.erase();
    return success();
  }

  /// The thread's elements of the accumulator tile at `indices` of
  /// `memref` (its last two dims the tile's), per lane.
  static SmallVector<std::tuple<int64_t, Value, Value>>
  laneSlices(OpBuilder &b, Location loc, ValueRange indices, int64_t n) {
    Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
    AffineExpr d0, s0;
    bindDims(b.getContext(), d0);
    bindSymbols(b.getContext(), s0);
    Value r0 = indices[indices.size() - 2], c0 = indices.back();
    SmallVector<std::tuple<int64_t, Value, Value>> slices;
    for (int64_t j = 0; j < n / 8; ++j)
      for (int64_t h = 0; h < 2; ++h) {
        Value row = affine::makeComposedAffineApply(
            b, loc, s0 + (d0 % 32).floorDiv(4) + 8 * h, {tid, r0});
        Value col = affine::makeComposedAffineApply(
            b, loc, s0 + 8 * j + (d0 % 4) * 2, {tid, c0});
        slices.push_back({4 * j + 2 * h, row, col});
      }
    return slices;
  }

  /// The lane fragment of an accumulator tile's initial value.
  FailureOr<Value> laneInit(OpBuilder &b, Value tile, VectorType laneType,
                            int64_t n) {
    if (auto cast = tile.getDefiningOp<UnrealizedConversionCastOp>())
      if (cast->getNumOperands() == 1 &&
          cast.getOperand(0).getType() == laneType)
        return cast.getOperand(0);
    Location loc = tile.getLoc();
    if (auto constant = tile.getDefiningOp<arith::ConstantOp>())
      if (auto splat = dyn_cast<SplatElementsAttr>(constant.getValue()))
        return Value(arith::ConstantOp::create(
            b, loc, laneType,
            SplatElementsAttr::get(laneType,
                                   splat.getSplatValue<Attribute>())));
    auto read = tile.getDefiningOp<vector::TransferReadOp>();
    if (!read || read.hasOutOfBoundsDim() ||
        !read.getPermutationMap().isMinorIdentity())
      return failure();
    Value acc =
        arith::ConstantOp::create(b, loc, laneType, b.getZeroAttr(laneType));
    auto pair = VectorType::get({2}, laneType.getElementType());
    for (auto [offset, row, col] : laneSlices(b, loc, read.getIndices(), n)) {
      SmallVector<Value> at(read.getIndices());
      at[at.size() - 2] = row;
      at.back() = col;
      Value v = vector::TransferReadOp::create(b, loc, pair, read.getBase(), at,
                                               read.getPadding(),
                                               ArrayRef<bool>{true});
      acc = vector::InsertStridedSliceOp::create(
          b, loc, v, acc, ArrayRef<int64_t>{offset}, ArrayRef<int64_t>{1});
    }
    return acc;
  }

  LogicalResult convertLaunch(gpu::LaunchOp launch) {
    MLIRContext *ctx = &getContext();
    for (Value size : {launch.getBlockSizeY(), launch.getBlockSizeZ()})
      if (getConstantIntValue(size) != 1)
        return launch.emitError("a warpgroup kernel needs a 1-D block");
    SmallVector<vector::ContractionOp> contracts;
    launch.walk(
        [&](vector::ContractionOp contract) { contracts.push_back(contract); });
    // The operands' reads and tiles.
    DenseSet<Operation *> operandReads;
    llvm::SetVector<Operation *> allocs;
    SmallVector<std::pair<SharedOperand, SharedOperand>> operands;
    for (vector::ContractionOp contract : contracts) {
      auto config = contract->getAttrOfType<GpuConfigAttr>(kGpuConfigAttrName);
      FailureOr<SharedOperand> a = sharedOperand(contract.getLhs());
      FailureOr<SharedOperand> bOp = sharedOperand(contract.getRhs());
      auto accType = dyn_cast<VectorType>(contract.getAccType());
      AffineExpr m, n, k;
      bindDims(ctx, m, n, k);
      SmallVector<AffineMap> maps = AffineMap::inferFromExprList(
          ArrayRef<ArrayRef<AffineExpr>>{{m, k}, {n, k}, {m, n}}, ctx);
      if (!config || !config.usesWarpgroups() || failed(a) || failed(bOp) ||
          !accType || accType.getRank() != 2 || accType.getDimSize(0) != 16 ||
          contract.getIndexingMapsArray() != maps ||
          contract.getKind() != vector::CombiningKind::ADD)
        return contract.emitError(
            "a warpgroup contraction must multiply rows of two shared tiles "
            "(K innermost) into a 16 x N accumulator per warp");
      int64_t ik = config.getPrecision() == GpuPrecision::TF32 ? 8 : 16;
      if (a->read.getVectorType().getDimSize(1) != ik ||
          bOp->read.getVectorType().getDimSize(0) != accType.getDimSize(1))
        return contract.emitError("a warpgroup contraction piece is not one "
                                  "instruction (64 x N x ")
               << ik << ")";
      operandReads.insert(a->read);
      operandReads.insert(bOp->read);
      allocs.insert(a->alloc);
      allocs.insert(bOp->alloc);
      operands.push_back({*a, *bOp});
    }
    DenseMap<Operation *, Value> tiles;
    for (Operation *alloc : allocs)
      if (failed(layOut(cast<memref::AllocOp>(alloc), tiles, operandReads)))
        return failure();

    // Each contraction on its group's descriptors; the accumulator as the
    // lane's fragment between casts, removed below.
    OpBuilder b(ctx);
    DenseSet<Type> tileTypes;
    for (auto [contract, ops] : llvm::zip(contracts, operands)) {
      auto [a, bo] = ops;
      auto config = contract->getAttrOfType<GpuConfigAttr>(kGpuConfigAttrName);
      Location loc = contract.getLoc();
      b.setInsertionPoint(contract);
      auto accType = cast<VectorType>(contract.getAccType());
      int64_t n = accType.getDimSize(1);
      auto laneType = VectorType::get({n / 2}, b.getF32Type());
      tileTypes.insert(accType);
      int64_t c = 16 / (a.alloc.getType().getElementTypeBitWidth() / 8);
      Value kA = a.read.getIndices().back(), kB = bo.read.getIndices().back();
      Value rowA = a.read.getIndices().drop_back().back(),
            rowB = bo.read.getIndices().drop_back().back();
      if (knownDivisor(kA) % c != 0 || knownDivisor(kB) % c != 0)
        return contract.emitError("a warpgroup contraction's K offset is "
                                  "not a multiple of its core matrices'");
      AffineExpr d0, s0;
      bindDims(ctx, d0);
      bindSymbols(ctx, s0);
      Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
      // Warp w of a group holds rows 16 w.. of the group's 64.
      Value groupRow = affine::makeComposedAffineApply(
          b, loc, s0 - (d0.floorDiv(32) % 4) * 16, {tid, rowA});
      auto kBlock = [&](Value kIdx) {
        return affine::makeComposedAffineApply(b, loc, d0.floorDiv(c), {kIdx});
      };
      Value descA = descriptor(b, loc, tiles[a.alloc], kBlock(kA), groupRow);
      Value descB = descriptor(b, loc, tiles[bo.alloc], kBlock(kB), rowB);
      Value lane = UnrealizedConversionCastOp::create(b, loc, laneType,
                                                      contract.getAcc())
                       .getResult(0);
      Value d = WarpgroupMmaOp::create(b, loc, descA, descB, lane, n,
                                       config.getPrecision());
      contract.replaceAllUsesWith(
          UnrealizedConversionCastOp::create(b, loc, accType, d).getResult(0));
      contract.erase();
    }
    for (Operation *read : operandReads) {
      Value v = read->getResult(0);
      for (Operation *user : llvm::make_early_inc_range(v.getUsers()))
        if (isa<arith::ExtFOp>(user) && user->use_empty())
          user->erase();
      if (read->use_empty())
        read->erase();
    }
    for (Operation *alloc : allocs)
      if (alloc->use_empty())
        alloc->erase();

    // Loops carry the lane fragments, outer loops first.
    IRRewriter rewriter(ctx);
    SmallVector<scf::ForOp> loops;
    launch.walk<WalkOrder::PreOrder>(
        [&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops) {
      for (unsigned i = 0; i < loop.getNumRegionIterArgs(); ++i) {
        auto tileType = dyn_cast<VectorType>(loop.getInitArgs()[i].getType());
        if (!tileType || !tileTypes.contains(tileType))
          continue;
        int64_t n = tileType.getDimSize(1);
        auto laneType = VectorType::get({n / 2}, rewriter.getF32Type());
        rewriter.setInsertionPoint(loop);
        FailureOr<Value> init =
            laneInit(rewriter, loop.getInitArgs()[i], laneType, n);
        if (failed(init))
          return loop.emitError("cannot read a warpgroup accumulator per "
                                "lane from its initial value");
        auto castFn = [](OpBuilder &b, Location loc, Type type, Value v) {
          return UnrealizedConversionCastOp::create(b, loc, type, v)
              .getResult(0);
        };
        SmallVector<Value> results = scf::replaceAndCastForOpIterArg(
            rewriter, loop, loop.getInitArgsMutable()[i], *init, castFn);
        // The loop was rebuilt: its other iter args are the new one's.
        auto rebuilt =
            cast<scf::ForOp>(results[i]
                                 .getDefiningOp<UnrealizedConversionCastOp>()
                                 .getOperand(0)
                                 .getDefiningOp());
        rewriter.replaceOp(loop, results);
        loop = rebuilt;
      }
    }
    foldCasts(launch);
    // The results: written per lane.
    SmallVector<vector::TransferWriteOp> writes;
    launch.walk([&](vector::TransferWriteOp write) {
      if (write.getVector().getDefiningOp<UnrealizedConversionCastOp>())
        writes.push_back(write);
    });
    for (vector::TransferWriteOp write : writes) {
      auto cast = write.getVector().getDefiningOp<UnrealizedConversionCastOp>();
      Value lane = cast.getOperand(0);
      if (write.hasOutOfBoundsDim() ||
          !write.getPermutationMap().isMinorIdentity() ||
          write.getVectorType().getRank() != 2)
        return write.emitError("cannot write a warpgroup accumulator per "
                               "lane");
      Location loc = write.getLoc();
      b.setInsertionPoint(write);
      int64_t n = write.getVectorType().getDimSize(1);
      for (auto [offset, row, col] :
           laneSlices(b, loc, write.getIndices(), n)) {
        SmallVector<Value> at(write.getIndices());
        at[at.size() - 2] = row;
        at.back() = col;
        Value v = vector::ExtractStridedSliceOp::create(
            b, loc, lane, ArrayRef<int64_t>{offset}, ArrayRef<int64_t>{2},
            ArrayRef<int64_t>{1});
        vector::TransferWriteOp::create(b, loc, v, write.getBase(), at,
                                        ArrayRef<bool>{true});
      }
      write.erase();
    }
    foldCasts(launch);
    // A K step's loop over its instructions unrolled, so that they chain
    // (issued back to back, waited for once: dlc-gpu-lower-warpgroup-mma).
    SmallVector<scf::ForOp> steps;
    launch.walk([&](scf::ForOp loop) {
      std::optional<int64_t> trips =
          loop.getStaticTripCount()
              ? std::optional<int64_t>(
                    loop.getStaticTripCount()->getSExtValue())
              : std::nullopt;
      bool inner = !loop.getBody()
                        ->walk([](Operation *op) {
                          return isa<scf::ForOp, gpu::BarrierOp>(op)
                                     ? WalkResult::interrupt()
                                     : WalkResult::advance();
                        })
                        .wasInterrupted();
      bool mma =
          loop.getBody()
              ->walk([](WarpgroupMmaOp) { return WalkResult::interrupt(); })
              .wasInterrupted();
      if (trips && *trips <= 8 && inner && mma)
        steps.push_back(loop);
    });
    for (scf::ForOp loop : steps)
      if (failed(loopUnrollFull(loop)))
        return loop.emitError("cannot unroll a K step's warpgroup "
                              "instructions");
    WalkResult left = launch.walk([&](UnrealizedConversionCastOp cast) {
      cast.emitError("a warpgroup accumulator flows into an op that cannot "
                     "take it per lane: ")
          << (cast->use_empty() ? StringRef("nothing")
                                : cast->user_begin()->getName().getStringRef());
      return WalkResult::interrupt();
    });
    return failure(left.wasInterrupted());
  }

  /// Removes round trips of casts and dead casts.
  static void foldCasts(gpu::LaunchOp launch) {
    bool changed = true;
    while (changed) {
      changed = false;
      launch.walk([&](UnrealizedConversionCastOp cast) {
        if (cast->use_empty()) {
          cast.erase();
          changed = true;
          return;
        }
        auto inner =
            cast.getOperand(0).getDefiningOp<UnrealizedConversionCastOp>();
        if (inner && inner.getOperand(0).getType() == cast.getType(0)) {
          cast.getResult(0).replaceAllUsesWith(inner.getOperand(0));
          cast.erase();
          changed = true;
        }
      });
    }
  }

  void runOnOperation() override {
    SmallVector<gpu::LaunchOp> launches;
    getOperation().walk([&](gpu::LaunchOp launch) {
      WalkResult found = launch.walk([&](vector::ContractionOp contract) {
        auto c = contract->getAttrOfType<GpuConfigAttr>(kGpuConfigAttrName);
        return c && c.usesWarpgroups() ? WalkResult::interrupt()
                                       : WalkResult::advance();
      });
      if (found.wasInterrupted())
        launches.push_back(launch);
    });
    for (gpu::LaunchOp launch : launches)
      if (failed(convertLaunch(launch)))
        return signalPassFailure();
  }
};
} // namespace
