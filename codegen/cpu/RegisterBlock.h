//===- RegisterBlock.h - a matmul's register block per target ---*- C++ -*-===//
//
// The register block of a contraction's vectorized tile: `rows` broadcast
// values of A by `cols` lanes of B (two vectors), `rows * 2` accumulators.
// dlc-cpu-select-tiling tiles by it and dlc-cpu-pack-matmul-operands packs
// operands in panels of it; both read it here.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_CODEGEN_CPU_REGISTERBLOCK_H
#define DLC_CODEGEN_CPU_REGISTERBLOCK_H

#include <cstdint>

namespace dlc {

struct MatmulRegisterBlock {
  int64_t rows;
  int64_t cols;
};

/// With 32 vector registers (AVX-512) 8 x 2 vectors: 16 accumulators, 2
/// vectors of B and a broadcast of A; with 16 (AVX2) 6 x 2 vectors: 12
/// accumulators.
inline MatmulRegisterBlock matmulRegisterBlock(int64_t vectorWidth,
                                               int64_t vectorRegisters) {
  return {vectorRegisters >= 32 ? 8 : 6, 2 * vectorWidth};
}

} // namespace dlc

#endif
