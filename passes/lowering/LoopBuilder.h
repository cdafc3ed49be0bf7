//===- LoopBuilder.h - sequential scf loops over tensors --------*- C++ -*-===//
//
// Internal to the lowering: builders for the ops computed by sequential
// loops (data-dependent shapes, determinants), carrying tensors through
// `scf.for` and `scf.if`.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_PASSES_LOWERING_LOOPBUILDER_H
#define DLC_PASSES_LOWERING_LOOPBUILDER_H

#include "passes/lowering/Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace dlc {

/// Builders for sequential loops over tensors.
struct LoopBuilder {
  mlir::OpBuilder &b;
  mlir::Location loc;

  mlir::Value idx(int64_t v) {
    return mlir::arith::ConstantIndexOp::create(b, loc, v);
  }
  mlir::Value i64(mlir::Value index) {
    return mlir::arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
  }
  mlir::Value index(mlir::Value i) {
    return mlir::arith::IndexCastOp::create(b, loc, b.getIndexType(), i);
  }
  mlir::Value add(mlir::Value x, mlir::Value y) {
    return mlir::arith::AddIOp::create(b, loc, x, y);
  }
  mlir::Value cmp(mlir::arith::CmpIPredicate p, mlir::Value x, mlir::Value y) {
    return mlir::arith::CmpIOp::create(b, loc, p, x, y);
  }
  mlir::Value select(mlir::Value c, mlir::Value x, mlir::Value y) {
    return mlir::arith::SelectOp::create(b, loc, c, x, y);
  }
  mlir::Value andI(mlir::Value x, mlir::Value y) {
    return mlir::arith::AndIOp::create(b, loc, x, y);
  }
  mlir::Value orI(mlir::Value x, mlir::Value y) {
    return mlir::arith::OrIOp::create(b, loc, x, y);
  }
  mlir::Value notI(mlir::Value x) {
    mlir::Value one =
        mlir::arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
    return mlir::arith::XOrIOp::create(b, loc, x, one);
  }
  mlir::Value boolean(bool v) {
    return mlir::arith::ConstantIntOp::create(b, loc, b.getI1Type(), v);
  }
  mlir::Value extract(mlir::Value t, mlir::ValueRange at) {
    return mlir::tensor::ExtractOp::create(b, loc, t, at);
  }
  mlir::Value insert(mlir::Value v, mlir::Value t, mlir::ValueRange at) {
    return mlir::tensor::InsertOp::create(b, loc, v, t, at);
  }
  /// A tensor of `shape` filled with zeros of `et`.
  mlir::Value zeros(llvm::ArrayRef<int64_t> shape, mlir::Type et) {
    return dlc::buildFilled(b, loc, mlir::RankedTensorType::get(shape, et),
                            b.getZeroAttr(et));
  }

  using Body = llvm::function_ref<llvm::SmallVector<mlir::Value>(
      mlir::Value iv, mlir::ValueRange iterArgs)>;
  /// scf.for lb..ub carrying `inits`; `body` returns the next values.
  llvm::SmallVector<mlir::Value> loop(mlir::Value lb, mlir::Value ub,
                                      mlir::ValueRange inits, Body body) {
    auto op = mlir::scf::ForOp::create(
        b, loc, lb, ub, idx(1), inits,
        [&](mlir::OpBuilder &nb, mlir::Location, mlir::Value iv,
            mlir::ValueRange args) {
          mlir::OpBuilder::InsertionGuard guard(b);
          b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
          llvm::SmallVector<mlir::Value> next = body(iv, args);
          mlir::scf::YieldOp::create(b, loc, next);
        });
    return llvm::SmallVector<mlir::Value>(op.getResults());
  }
  llvm::SmallVector<mlir::Value> loop(int64_t n, mlir::ValueRange inits,
                                      Body body) {
    return loop(idx(0), idx(n), inits, body);
  }
  /// A nest of loops over `shape` (row-major order); `body` gets the ivs.
  llvm::SmallVector<mlir::Value>
  nest(llvm::ArrayRef<int64_t> shape, mlir::ValueRange inits,
       llvm::function_ref<llvm::SmallVector<mlir::Value>(mlir::ValueRange ivs,
                                                         mlir::ValueRange)>
           body) {
    llvm::SmallVector<mlir::Value> sizes;
    for (int64_t n : shape)
      sizes.push_back(idx(n));
    return nest(mlir::ValueRange(sizes), inits, body);
  }
  /// A nest of loops over `sizes` (index values; row-major order).
  llvm::SmallVector<mlir::Value>
  nest(mlir::ValueRange sizes, mlir::ValueRange inits,
       llvm::function_ref<llvm::SmallVector<mlir::Value>(mlir::ValueRange ivs,
                                                         mlir::ValueRange)>
           body,
       llvm::SmallVector<mlir::Value> ivs = {}) {
    if (ivs.size() == sizes.size())
      return body(ivs, inits);
    return loop(idx(0), sizes[ivs.size()], inits,
                [&](mlir::Value iv, mlir::ValueRange args) {
                  llvm::SmallVector<mlir::Value> inner = ivs;
                  inner.push_back(iv);
                  return nest(sizes, args, body, inner);
                });
  }
  /// `current` unless `cond`, then what `then` computes.
  llvm::SmallVector<mlir::Value>
  ifThen(mlir::Value cond, mlir::ValueRange current,
         llvm::function_ref<llvm::SmallVector<mlir::Value>()> then) {
    auto op = mlir::scf::IfOp::create(b, loc, mlir::TypeRange(current), cond,
                                      /*withElseRegion=*/true);
    mlir::OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(op.thenBlock());
    mlir::scf::YieldOp::create(b, loc, then());
    b.setInsertionPointToStart(op.elseBlock());
    mlir::scf::YieldOp::create(b, loc, current);
    return llvm::SmallVector<mlir::Value>(op.getResults());
  }

  /// x != 0 (NaN counts as non-zero, as in numpy).
  mlir::Value isNonZero(mlir::Value x) {
    mlir::Value zero =
        mlir::arith::ConstantOp::create(b, loc, b.getZeroAttr(x.getType()));
    if (llvm::isa<mlir::FloatType>(x.getType()))
      return mlir::arith::CmpFOp::create(
          b, loc, mlir::arith::CmpFPredicate::UNE, x, zero);
    return cmp(mlir::arith::CmpIPredicate::ne, x, zero);
  }
  mlir::Value equal(mlir::Value x, mlir::Value y) {
    if (llvm::isa<mlir::FloatType>(x.getType()))
      return mlir::arith::CmpFOp::create(b, loc,
                                         mlir::arith::CmpFPredicate::OEQ, x, y);
    return cmp(mlir::arith::CmpIPredicate::eq, x, y);
  }
  mlir::Value less(mlir::Value x, mlir::Value y, bool isUnsigned = false) {
    if (llvm::isa<mlir::FloatType>(x.getType()))
      return mlir::arith::CmpFOp::create(b, loc,
                                         mlir::arith::CmpFPredicate::OLT, x, y);
    return cmp(isUnsigned || x.getType().isInteger(1)
                   ? mlir::arith::CmpIPredicate::ult
                   : mlir::arith::CmpIPredicate::slt,
               x, y);
  }

  /// The leading part of `full` with `sizes` (null entries: whole).
  mlir::Value prefix(mlir::Value full, llvm::ArrayRef<mlir::Value> sizes) {
    auto type = llvm::cast<mlir::RankedTensorType>(full.getType());
    llvm::SmallVector<mlir::OpFoldResult> offsets(type.getRank(),
                                                  b.getIndexAttr(0)),
        strides(type.getRank(), b.getIndexAttr(1)), extents;
    for (auto [d, size] : llvm::enumerate(sizes))
      extents.push_back(
          size ? mlir::OpFoldResult(size)
          : type.isDynamicDim(d)
              ? mlir::OpFoldResult(
                    mlir::tensor::DimOp::create(b, loc, full, d).getResult())
              : mlir::OpFoldResult(b.getIndexAttr(type.getDimSize(d))));
    return mlir::tensor::ExtractSliceOp::create(b, loc, full, offsets, extents,
                                                strides);
  }
};

} // namespace dlc

#endif
