// RUN: dlc-opt %s --dlc-cpu-pipeline | FileCheck %s --check-prefix=AVX512
// RUN: dlc-opt %s --pass-pipeline='builtin.module(dlc-cpu-pipeline{vector-width=8 vector-registers=16 masked-stores=false})' | FileCheck %s --check-prefix=AVX2

// dlc-cpu-pipeline's options pick the target's vector shape, as dlc compile
// --mcpu does: by default AVX-512's 16 lanes, with vector-width=8 and
// vector-registers=16 AVX2's 8; the convolution's FMAs take whole vectors
// of filters either way.
// AVX512-LABEL: llvm.func @conv
// AVX512:         llvm.intr.fmuladd({{.+}}) : (vector<16xf32>, vector<16xf32>, vector<16xf32>) -> vector<16xf32>
// AVX512-NOT:     vector<8xf32>, vector<8xf32>, vector<8xf32>) -> vector<8xf32>
// AVX2-LABEL:   llvm.func @conv
// AVX2:           llvm.intr.fmuladd({{.+}}) : (vector<8xf32>, vector<8xf32>, vector<8xf32>) -> vector<8xf32>
// AVX2-NOT:       vector<16xf32>, vector<16xf32>, vector<16xf32>) -> vector<16xf32>
func.func @conv(%x: tensor<1x8x14x14xf32>, %w: tensor<32x8x3x3xf32>, %b: tensor<32xf32>) -> tensor<1x32x14x14xf32> {
  %0 = dlc.conv %x, %w, %b {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64}
       : (tensor<1x8x14x14xf32>, tensor<32x8x3x3xf32>, tensor<32xf32>) -> tensor<1x32x14x14xf32>
  return %0 : tensor<1x32x14x14xf32>
}
