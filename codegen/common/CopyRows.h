//===- CopyRows.h - copies of memrefs row by row ------------------*- C++
//-*-===//
//
// A copy between views whose innermost dimension is contiguous (an
// activation into a padded buffer's interior) is done one row at a time,
// each row a contiguous copy (a memcpy), by dlc-copy-to-linalg in loops and
// by dlc-cpu-parallel-copies in a parallel loop.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_CODEGEN_COMMON_COPYROWS_H
#define DLC_CODEGEN_COMMON_COPYROWS_H

#include "mlir/IR/Builders.h"

namespace dlc {

/// Whether `t` is a static-shape memref of rank 2 or more whose innermost
/// dimension is contiguous (unit stride) and at least `minRow` long.
bool hasContiguousRows(mlir::Type t, int64_t minRow);

/// The row of `view` (a memref with contiguous rows) at `outer`, one index
/// per dimension but the innermost: a 1-D subview.
mlir::Value rowOf(mlir::OpBuilder &b, mlir::Location loc, mlir::Value view,
                  mlir::ValueRange outer);

} // namespace dlc

#endif // DLC_CODEGEN_COMMON_COPYROWS_H
