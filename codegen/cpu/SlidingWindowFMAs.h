//===- SlidingWindowFMAs.h - 1-D convolution taps in input order -*- C++
//-*-===//
#ifndef DLC_CODEGEN_CPU_SLIDINGWINDOWFMAS_H
#define DLC_CODEGEN_CPU_SLIDINGWINDOWFMAS_H

#include "mlir/IR/PatternMatch.h"

namespace dlc {
/// The chain of contractions of a vectorized 1-D convolution tile (one per
/// window tap, each over a shifted slice of the same input row) becomes FMAs
/// ordered by input column (codegen/cpu/SlidingWindowFMAs.cpp).
void populateSlidingWindowFMAPatterns(mlir::RewritePatternSet &patterns);
} // namespace dlc

#endif // DLC_CODEGEN_CPU_SLIDINGWINDOWFMAS_H
