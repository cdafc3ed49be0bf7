//===- StridedReads.h - strided vector reads as loads and shuffles -*- C++ -*-===//
#ifndef DLC_CODEGEN_CPU_STRIDEDREADS_H
#define DLC_CODEGEN_CPU_STRIDEDREADS_H

#include "mlir/IR/PatternMatch.h"

namespace dlc {
/// Vector reads of slices strided along their innermost dimension become a
/// contiguous read and a shuffle (codegen/cpu/StridedReads.cpp).
void populateStridedReadPatterns(mlir::RewritePatternSet &patterns);
} // namespace dlc

#endif // DLC_CODEGEN_CPU_STRIDEDREADS_H
