//===- Alignment.cpp - provable alignment of kernel memory accesses -------===//
#include "codegen/gpu/Alignment.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"

#include <numeric>

using namespace mlir;

/// Entry arguments and shared memory views are at least this aligned.
static constexpr int64_t kBufferAlignment = 16;
/// Cap of the divisors tracked (a power of two).
static constexpr int64_t kMaxDivisor = 1 << 20;

static int64_t powerOfTwoFactor(int64_t v) {
  if (v == 0)
    return kMaxDivisor;
  v = v < 0 ? -v : v;
  return std::min<int64_t>(v & -v, kMaxDivisor);
}

/// The largest power of two known to divide the index `v`.
static int64_t knownDivisor(Value v, int depth = 0) {
  if (depth > 16)
    return 1;
  APInt c;
  if (matchPattern(v, m_ConstantInt(&c)))
    return powerOfTwoFactor(c.getSExtValue());
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    // A loop induction variable: lb + k * step.
    if (auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp()))
      if (arg == loop.getInductionVar())
        return std::gcd(knownDivisor(loop.getLowerBound(), depth + 1),
                        knownDivisor(loop.getStep(), depth + 1));
    return 1;
  }
  Operation *def = v.getDefiningOp();
  if (auto mul = dyn_cast<arith::MulIOp>(def))
    return std::min(kMaxDivisor, knownDivisor(mul.getLhs(), depth + 1) *
                                     knownDivisor(mul.getRhs(), depth + 1));
  if (auto shl = dyn_cast<arith::ShLIOp>(def)) {
    APInt s;
    if (matchPattern(shl.getRhs(), m_ConstantInt(&s)) && s.getSExtValue() < 20)
      return std::min(kMaxDivisor, knownDivisor(shl.getLhs(), depth + 1)
                                       << s.getSExtValue());
    return 1;
  }
  if (isa<arith::AddIOp, arith::SubIOp>(def))
    return std::gcd(knownDivisor(def->getOperand(0), depth + 1),
                    knownDivisor(def->getOperand(1), depth + 1));
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
          arith::ExtUIOp>(def))
    return knownDivisor(def->getOperand(0), depth + 1);
  if (auto apply = dyn_cast<affine::AffineApplyOp>(def)) {
    AffineMap map = apply.getAffineMap();
    if (map.getNumResults() != 1)
      return 1;
    // Each dim or symbol stands for a multiple of its operand's divisor.
    std::function<int64_t(AffineExpr)> divisor = [&](AffineExpr e) -> int64_t {
      if (auto cst = dyn_cast<AffineConstantExpr>(e))
        return powerOfTwoFactor(cst.getValue());
      if (auto dim = dyn_cast<AffineDimExpr>(e))
        return knownDivisor(apply.getDimOperands()[dim.getPosition()],
                            depth + 1);
      if (auto sym = dyn_cast<AffineSymbolExpr>(e))
        return knownDivisor(apply.getSymbolOperands()[sym.getPosition()],
                            depth + 1);
      auto bin = cast<AffineBinaryOpExpr>(e);
      switch (e.getKind()) {
      case AffineExprKind::Add:
        return std::gcd(divisor(bin.getLHS()), divisor(bin.getRHS()));
      case AffineExprKind::Mul:
        return std::min(kMaxDivisor,
                        divisor(bin.getLHS()) * divisor(bin.getRHS()));
      default:
        return 1;
      }
    };
    return divisor(map.getResult(0));
  }
  return 1;
}

/// The alignment in bytes known for the start of `memref`'s buffer.
static int64_t baseAlignment(Value memref) {
  if (isa<BlockArgument>(memref)) {
    auto arg = cast<BlockArgument>(memref);
    return isa<FunctionOpInterface>(arg.getOwner()->getParentOp())
               ? kBufferAlignment
               : 1;
  }
  Operation *def = memref.getDefiningOp();
  if (isa<gpu::DynamicSharedMemoryOp>(def))
    return kBufferAlignment;
  // Reshapes of contiguous buffers start where their source does.
  if (isa<memref::CollapseShapeOp, memref::ExpandShapeOp, memref::CastOp>(def))
    return baseAlignment(def->getOperand(0));
  if (auto view = dyn_cast<memref::ViewOp>(def))
    return std::gcd(baseAlignment(view.getSource()),
                    knownDivisor(view.getByteShift()));
  if (auto alloca = dyn_cast<memref::AllocaOp>(def))
    return alloca.getAlignment().value_or(1);
  if (auto alloc = dyn_cast<memref::AllocOp>(def))
    return alloc.getAlignment().value_or(1);
  return 1;
}

/// The alignment in bytes provable for element `indices` of `memref`.
static int64_t accessAlignment(Value memref, ValueRange indices) {
  auto type = cast<MemRefType>(memref.getType());
  int64_t bytes = type.getElementTypeBitWidth() / 8;
  if (bytes <= 0)
    return 1;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset) ||
      llvm::any_of(strides, ShapedType::isDynamic))
    return 1;
  int64_t align = std::gcd(baseAlignment(memref),
                           powerOfTwoFactor(offset * bytes));
  for (auto [index, stride] : llvm::zip(indices, strides))
    align = std::gcd(align, std::min(kMaxDivisor, knownDivisor(index) *
                                                      powerOfTwoFactor(stride * bytes)));
  return align;
}

void dlc::annotateVectorAlignment(Operation *root) {
  auto annotate = [](Operation *op, Value memref, ValueRange indices,
                     VectorType type) {
    int64_t size = type.getNumElements() * type.getElementTypeBitWidth() / 8;
    int64_t align = std::min(size, accessAlignment(memref, indices));
    int64_t elem = type.getElementTypeBitWidth() / 8;
    if (align > elem && llvm::isPowerOf2_64(align))
      op->setAttr("alignment",
                  IntegerAttr::get(IntegerType::get(op->getContext(), 64),
                                   align));
  };
  root->walk([&](Operation *op) {
    if (auto load = dyn_cast<vector::LoadOp>(op))
      annotate(op, load.getBase(), load.getIndices(), load.getVectorType());
    else if (auto store = dyn_cast<vector::StoreOp>(op))
      annotate(op, store.getBase(), store.getIndices(),
               store.getVectorType());
  });
}
