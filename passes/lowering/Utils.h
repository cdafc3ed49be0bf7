//===- Utils.h - helpers shared by the dlc -> linalg lowerings ---*- C++ -*-===//
#ifndef DLC_PASSES_LOWERING_UTILS_H
#define DLC_PASSES_LOWERING_UTILS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"

#include <functional>

namespace dlc {

using BodyBuilder = std::function<mlir::Value(mlir::OpBuilder &, mlir::Location,
                                              mlir::ValueRange)>;

/// Map from the iteration space of a rank-`resultRank` result to an operand
/// of `operandShape` under numpy broadcasting (size-1 dims read index 0).
mlir::AffineMap broadcastMap(mlir::MLIRContext *ctx,
                             llvm::ArrayRef<int64_t> operandShape,
                             llvm::ArrayRef<int64_t> resultShape);

/// Builds an elementwise linalg.generic producing `resultType` from
/// broadcast `inputs`; `body` receives one scalar per input.
mlir::Value buildElementwise(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::RankedTensorType resultType,
                             mlir::ValueRange inputs, const BodyBuilder &body);

/// Sizes of the dynamic dimensions of `type` (a result of numpy
/// broadcasting of `sources`): each from the first source whose
/// right-aligned dimension there is dynamic too. Empty for static types.
llvm::SmallVector<mlir::Value> dynamicSizes(mlir::OpBuilder &b,
                                            mlir::Location loc,
                                            mlir::RankedTensorType type,
                                            mlir::ValueRange sources);

/// A tensor.empty of `type`, dynamic dimensions sized as dynamicSizes.
mlir::Value buildEmpty(mlir::OpBuilder &b, mlir::Location loc,
                       mlir::RankedTensorType type,
                       mlir::ValueRange sources = {});

/// A tensor of `type` filled with `value` (dynamic dimensions sized from
/// `sources` as dynamicSizes).
mlir::Value buildFilled(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::RankedTensorType type, mlir::TypedAttr value,
                        mlir::ValueRange sources = {});

/// Sizes of the dimensions `dims` of `source` that are dynamic (one
/// tensor.dim each), in order.
llvm::SmallVector<mlir::Value> dynamicDimsOf(mlir::OpBuilder &b,
                                             mlir::Location loc,
                                             mlir::Value source,
                                             llvm::ArrayRef<int64_t> dims);

/// A tensor of `type` filled with `value`, its dynamic dimensions sized by
/// `dynamicSizes` in order.
mlir::Value buildFilledSized(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::RankedTensorType type,
                             mlir::TypedAttr value,
                             mlir::ValueRange dynamicSizes);

/// The number of elements of `source` along `dims` as an index value
/// (a constant when they are static).
mlir::Value numElementsAlong(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::Value source, llvm::ArrayRef<int64_t> dims);

/// That number as a float of type `et`: a constant when the dimensions are
/// static.
mlir::Value floatCountAlong(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::Value source, llvm::ArrayRef<int64_t> dims,
                            mlir::Type et);

/// Pads `input` with `value`; `low`/`high` hold one entry per dimension.
mlir::Value buildPad(mlir::OpBuilder &b, mlir::Location loc, mlir::Value input,
                     llvm::ArrayRef<int64_t> low, llvm::ArrayRef<int64_t> high,
                     mlir::TypedAttr value);

/// One window tap of a 2-D NCHW window op over the padded `input`: the
/// strided slice of `tapType`'s (static) shape at rows `row` and columns
/// `col` with `strides` (rows, columns) steps between outputs.
mlir::Value buildWindowTap(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value input, mlir::RankedTensorType tapType,
                           int64_t row, int64_t col,
                           llvm::ArrayRef<int64_t> strides);

/// One window tap of a tap-by-tap convolution: `acc + x * w` elementwise
/// over `type` (x and w indexed by `xMap` and `wMap`, acc and the result by
/// the identity), one fused multiply-add (one rounding, one instruction),
/// as the other convolutions' contractions. The running sum is an input,
/// not the init, so that elementwise fusion chains the taps into one op.
mlir::Value buildFmaTap(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::RankedTensorType type, mlir::Value x,
                        mlir::Value w, mlir::Value acc, mlir::AffineMap xMap,
                        mlir::AffineMap wMap);

/// Reshape between static shapes through a rank-1 (or rank-0) tensor; with
/// dynamic dimensions, only merges or splits of adjacent axes with at most
/// one dynamic dimension per group (unit dimensions added or dropped).
mlir::Value buildReshape(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Value input, mlir::RankedTensorType resultType);

} // namespace dlc

#endif
