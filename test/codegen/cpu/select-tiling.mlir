// RUN: dlc-opt %s -split-input-file --dlc-cpu-select-tiling=vector-width=16 | FileCheck %s
// RUN: dlc-opt %s -split-input-file --dlc-cpu-select-tiling=vector-width=8 | FileCheck %s --check-prefix=VW8
// RUN: dlc-opt %s -split-input-file --dlc-cpu-select-tiling="vector-width=8 vector-registers=16" | FileCheck %s --check-prefix=R16

// Matmul: an 8 x (2 * vector width) register block, k one at a time. The
// fill producer gets no tile sizes (it fuses into its consumer). With a
// short reduction (K = 32) the tile loops keep their order (rows outermost).
// CHECK-LABEL: func.func @matmul_64
// CHECK:         linalg.fill
// CHECK-NOT:       dlc.tile_sizes
// CHECK-SAME:      -> tensor<64x64xf32>
// CHECK:         linalg.matmul {dlc.tile_sizes = array<i64: 8, 32, 1>}
// VW8-LABEL:   func.func @matmul_64
// VW8:           linalg.matmul {dlc.tile_sizes = array<i64: 8, 16, 1>}
func.func @matmul_64(%a: tensor<64x32xf32>, %b: tensor<32x64xf32>) -> tensor<64x64xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x64xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

// A long reduction (K = 128, and from K = 64: ResNet's 64-to-256-channel
// 1x1 convolutions over 56 x 56): row blocks innermost among the tile loops
// (dlc.parallel_order), so that consecutive tiles reuse one panel of B.
// CHECK-LABEL: func.func @matmul_long_k
// CHECK:         linalg.matmul {dlc.parallel_order = array<i64: 1, 0, 2>, dlc.tile_sizes = array<i64: 8, 32, 1>}
func.func @matmul_long_k(%a: tensor<64x128xf32>, %b: tensor<128x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<64x128xf32>, tensor<128x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

// Rows that 8 does not divide take their largest divisor when it is at
// least 4 (m = 12 -> 6). Columns are whole 2-vector blocks, leaving a
// remainder for dlc-cpu-tile-and-fuse to split off (n = 40 -> 32 + 8), not
// an odd-width block of 20 lanes. Columns of whole vectors that 2-vector
// blocks do not divide (40 with width 8) take 1-vector blocks of up to
// twice the rows instead (m = 12 whole), with no remainder.
// CHECK-LABEL: func.func @matmul_non_divisible
// CHECK:         linalg.matmul {dlc.tile_sizes = array<i64: 6, 32, 1>}
// VW8-LABEL:   func.func @matmul_non_divisible
// VW8:           linalg.matmul {dlc.tile_sizes = array<i64: 12, 8, 1>}
func.func @matmul_non_divisible(%a: tensor<12x7xf32>, %b: tensor<7x40xf32>, %c: tensor<12x40xf32>) -> tensor<12x40xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<12x7xf32>, tensor<7x40xf32>) outs(%c : tensor<12x40xf32>) -> tensor<12x40xf32>
  return %0 : tensor<12x40xf32>
}

// -----

// A pointwise convolution's contraction over rows of 112 pixels (7 vectors
// of 16): 16 filters by 1 vector, no remainder to split the op (and its
// bias and activation) in two. With width 8 (AVX2), 2-vector blocks
// divide 112 and stay.
// CHECK-LABEL: func.func @rows_of_seven_vectors
// CHECK:         linalg.matmul {dlc.tile_sizes = array<i64: 16, 16, 1>}
// R16-LABEL:   func.func @rows_of_seven_vectors
// R16:           linalg.matmul {dlc.tile_sizes = array<i64: 6, 16, 1>}
func.func @rows_of_seven_vectors(%a: tensor<96x16xf32>, %b: tensor<16x112xf32>, %c: tensor<96x112xf32>) -> tensor<96x112xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<96x16xf32>, tensor<16x112xf32>) outs(%c : tensor<96x112xf32>) -> tensor<96x112xf32>
  return %0 : tensor<96x112xf32>
}

// -----

// A pointwise convolution's contraction (n, f, h, w, c) over rows of 56
// pixels, 7 vectors of 8 that 2-vector blocks do not divide: one vector
// from each of two image rows (the same 6 x 16 block), no remainder. An
// odd number of rows takes 1-vector blocks of up to twice the filters
// instead (11: six tiles of 64, the fullest).
// R16-LABEL:   func.func @pointwise_two_image_rows
// R16:           linalg.generic
// R16-SAME:        dlc.tile_sizes = array<i64: 1, 6, 2, 8, 1>
// R16:           linalg.generic
// R16-SAME:        dlc.tile_sizes = array<i64: 1, 11, 1, 8, 1>
func.func @pointwise_two_image_rows(%w: tensor<64x32xf32>, %x: tensor<1x32x56x56xf32>, %y: tensor<1x64x56x56xf32>, %x2: tensor<1x32x7x56xf32>, %y2: tensor<1x64x7x56xf32>) -> (tensor<1x64x56x56xf32>, tensor<1x64x7x56xf32>) {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d1, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%w, %x : tensor<64x32xf32>, tensor<1x32x56x56xf32>) outs(%y : tensor<1x64x56x56xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x64x56x56xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d1, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%w, %x2 : tensor<64x32xf32>, tensor<1x32x7x56xf32>) outs(%y2 : tensor<1x64x7x56xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x64x7x56xf32>
  return %0, %1 : tensor<1x64x56x56xf32>, tensor<1x64x7x56xf32>
}

// -----

// Small dims: the whole dim is one tile.
// CHECK-LABEL: func.func @matmul_small
// CHECK:         linalg.matmul {{{.*}}dlc.tile_sizes = array<i64: 1, 10, 1>}
func.func @matmul_small(%a: tensor<1x64xf32>, %b: tensor<64x10xf32>, %c: tensor<1x10xf32>) -> tensor<1x10xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<1x64xf32>, tensor<64x10xf32>) outs(%c : tensor<1x10xf32>) -> tensor<1x10xf32>
  return %0 : tensor<1x10xf32>
}

// -----

// A batched contraction in generic form: batch loops 1, then the register
// block on the two innermost parallel loops.
// CHECK-LABEL: func.func @batched_contraction
// CHECK:         linalg.generic
// CHECK-SAME:      dlc.tile_sizes = array<i64: 1, 2, 32, 1>
func.func @batched_contraction(%a: tensor<5x2x3xf32>, %b: tensor<3x64xf32>, %c: tensor<5x2x64xf32>) -> tensor<5x2x64xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<5x2x3xf32>, tensor<3x64xf32>) outs(%c : tensor<5x2x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<5x2x64xf32>
  return %0 : tensor<5x2x64xf32>
}

// -----

// conv_2d_nchw_fchw (n, f, oh, ow, c, kh, kw): vectorized along the
// filters: one vector of filters by up to 16 output columns of one output
// row (each filter load serves 16 FMAs); c and kh one at a time, kw
// untiled.
// CHECK-LABEL: func.func @conv
// CHECK:         linalg.conv_2d_nchw_fchw
// CHECK-SAME:      dlc.tile_sizes = array<i64: 1, 16, 1, 16, 1, 1, 0>
// VW8-LABEL:   func.func @conv
// VW8:           linalg.conv_2d_nchw_fchw
// VW8-SAME:        dlc.tile_sizes = array<i64: 1, 8, 1, 16, 1, 1, 0>
func.func @conv(%x: tensor<1x3x34x34xf32>, %w: tensor<16x3x3x3xf32>, %o: tensor<1x16x32x32xf32>) -> tensor<1x16x32x32xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
       ins(%x, %w : tensor<1x3x34x34xf32>, tensor<16x3x3x3xf32>) outs(%o : tensor<1x16x32x32xf32>) -> tensor<1x16x32x32xf32>
  return %0 : tensor<1x16x32x32xf32>
}

// -----

// Filter and column counts the preferred tile does not divide take their
// largest divisor under it: 12 filters fit one 16-wide vector whole, 28
// columns -> 14 (not 16). With width 8, 12 filters take one whole vector
// and a remainder of 4 to split off (6 lanes are not whole 8-lane vectors).
// CHECK-LABEL: func.func @conv_odd
// CHECK:         linalg.conv_2d_nchw_fchw
// CHECK-SAME:      dlc.tile_sizes = array<i64: 1, 12, 1, 14, 1, 1, 0>
// VW8-LABEL:   func.func @conv_odd
// VW8:           linalg.conv_2d_nchw_fchw
// VW8-SAME:        dlc.tile_sizes = array<i64: 1, 8, 1, 14, 1, 1, 0>
func.func @conv_odd(%x: tensor<1x1x30x30xf32>, %w: tensor<12x1x3x3xf32>, %o: tensor<1x12x28x28xf32>) -> tensor<1x12x28x28xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
       ins(%x, %w : tensor<1x1x30x30xf32>, tensor<12x1x3x3xf32>) outs(%o : tensor<1x12x28x28xf32>) -> tensor<1x12x28x28xf32>
  return %0 : tensor<1x12x28x28xf32>
}

// -----

// A narrow output (7 columns, as in ResNet's last stage) takes several
// filter vectors per tile (24 / 7 -> 3 wanted, 32 the largest divisor of
// 512 up to 48): 7 x 32 accumulators reuse each loaded input and filter.
// CHECK-LABEL: func.func @conv_narrow
// CHECK:         linalg.conv_2d_nchw_fchw
// CHECK-SAME:      dlc.tile_sizes = array<i64: 1, 32, 1, 7, 1, 1, 0>
// VW8-LABEL:   func.func @conv_narrow
// VW8:           linalg.conv_2d_nchw_fchw
// VW8-SAME:        dlc.tile_sizes = array<i64: 1, 16, 1, 7, 1, 1, 0>
func.func @conv_narrow(%x: tensor<1x8x9x9xf32>, %w: tensor<512x8x3x3xf32>, %o: tensor<1x512x7x7xf32>) -> tensor<1x512x7x7xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
       ins(%x, %w : tensor<1x8x9x9xf32>, tensor<512x8x3x3xf32>) outs(%o : tensor<1x512x7x7xf32>) -> tensor<1x512x7x7xf32>
  return %0 : tensor<1x512x7x7xf32>
}

// -----

// A pointwise (1x1) convolution over rows of 14 takes as many filter
// vectors as fit 32 registers with their accumulators, a broadcast input
// and the filter vectors (31 / 15 -> 2: 28 accumulators), where a 3x3 window
// keeps 24 / 14 -> 1; over rows of 7, 31 / 8 -> 3 -> 2 vectors (4 would
// spill). 16 registers (AVX2) keep their own register budget (5 columns
// by 2 vectors of 8 filters).
// CHECK-LABEL: func.func @conv_pointwise_14
// CHECK:         linalg.conv_2d_nchw_fchw
// CHECK-SAME:      dlc.tile_sizes = array<i64: 1, 32, 1, 14, 1, 1, 0>
// CHECK:         linalg.conv_2d_nchw_fchw
// CHECK-SAME:      dlc.tile_sizes = array<i64: 1, 32, 1, 7, 1, 1, 0>
// CHECK:         linalg.conv_2d_nchw_fchw
// CHECK-SAME:      dlc.tile_sizes = array<i64: 1, 16, 1, 14, 1, 1, 0>
// R16-LABEL:   func.func @conv_pointwise_14
// R16:           linalg.conv_2d_nchw_fchw
// R16-SAME:        dlc.tile_sizes = array<i64: 1, 16, 1, 5, 1, 1, 0>
func.func @conv_pointwise_14(%x: tensor<1x256x14x14xf32>, %w: tensor<1024x256x1x1xf32>, %o: tensor<1x1024x14x14xf32>,
                             %x7: tensor<1x256x7x7xf32>, %o7: tensor<1x1024x7x7xf32>,
                             %xp: tensor<1x256x16x16xf32>, %w3: tensor<1024x256x3x3xf32>)
    -> (tensor<1x1024x14x14xf32>, tensor<1x1024x7x7xf32>, tensor<1x1024x14x14xf32>) {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
       ins(%x, %w : tensor<1x256x14x14xf32>, tensor<1024x256x1x1xf32>) outs(%o : tensor<1x1024x14x14xf32>) -> tensor<1x1024x14x14xf32>
  %1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
       ins(%x7, %w : tensor<1x256x7x7xf32>, tensor<1024x256x1x1xf32>) outs(%o7 : tensor<1x1024x7x7xf32>) -> tensor<1x1024x7x7xf32>
  %2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
       ins(%xp, %w3 : tensor<1x256x16x16xf32>, tensor<1024x256x3x3xf32>) outs(%o : tensor<1x1024x14x14xf32>) -> tensor<1x1024x14x14xf32>
  return %0, %1, %2 : tensor<1x1024x14x14xf32>, tensor<1x1024x7x7xf32>, tensor<1x1024x14x14xf32>
}

// -----

// Filters that no multiple of the vector width divides: 104 (RegNet) takes
// tiles of 2 whole vectors, leaving a remainder of 8 for
// dlc-cpu-tile-and-fuse to split off, rather than its largest divisor, 26
// lanes; 24 filters (a vector and a half) stay one tile.
// CHECK-LABEL: func.func @conv_filters_not_whole_vectors
// CHECK:         linalg.conv_2d_nchw_fchw
// CHECK-SAME:      dlc.tile_sizes = array<i64: 1, 32, 1, 14, 1, 1, 0>
// CHECK:         linalg.conv_2d_nchw_fchw
// CHECK-SAME:      dlc.tile_sizes = array<i64: 1, 24, 1, 14, 1, 1, 0>
func.func @conv_filters_not_whole_vectors(%x: tensor<1x48x56x56xf32>, %w: tensor<104x48x1x1xf32>, %o: tensor<1x104x28x28xf32>,
                                          %w24: tensor<24x48x1x1xf32>, %o24: tensor<1x24x28x28xf32>)
    -> (tensor<1x104x28x28xf32>, tensor<1x24x28x28xf32>) {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
       ins(%x, %w : tensor<1x48x56x56xf32>, tensor<104x48x1x1xf32>) outs(%o : tensor<1x104x28x28xf32>) -> tensor<1x104x28x28xf32>
  %1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
       ins(%x, %w24 : tensor<1x48x56x56xf32>, tensor<24x48x1x1xf32>) outs(%o24 : tensor<1x24x28x28xf32>) -> tensor<1x24x28x28xf32>
  return %0, %1 : tensor<1x104x28x28xf32>, tensor<1x24x28x28xf32>
}

// -----

// 111 output columns (SqueezeNet's stem) have no divisor from 8 to 16: the
// tile takes the divisor 3 with 4 filter vectors (24 / 3 -> 8, at most 4)
// rather than 16 columns and a remainder of 15.
// CHECK-LABEL: func.func @conv_columns_small_divisor
// CHECK:         linalg.conv_2d_nchw_fchw
// CHECK-SAME:      dlc.tile_sizes = array<i64: 1, 64, 1, 3, 1, 1, 0>
func.func @conv_columns_small_divisor(%x: tensor<1x3x224x224xf32>, %w: tensor<64x3x3x3xf32>, %o: tensor<1x64x111x111xf32>) -> tensor<1x64x111x111xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
       ins(%x, %w : tensor<1x3x224x224xf32>, tensor<64x3x3x3xf32>) outs(%o : tensor<1x64x111x111xf32>) -> tensor<1x64x111x111xf32>
  return %0 : tensor<1x64x111x111xf32>
}

// -----

// Elementwise: one vector along the innermost loop, the others one at a time.
// CHECK-LABEL: func.func @elementwise
// CHECK:         linalg.generic
// CHECK-SAME:      dlc.tile_sizes = array<i64: 1, 1, 16>
// VW8-LABEL:   func.func @elementwise
// VW8:           dlc.tile_sizes = array<i64: 1, 1, 8>
func.func @elementwise(%a: tensor<2x4x48xf32>, %b: tensor<48xf32>) -> tensor<2x4x48xf32> {
  %e = tensor.empty() : tensor<2x4x48xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a, %b : tensor<2x4x48xf32>, tensor<48xf32>) outs(%e : tensor<2x4x48xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<2x4x48xf32>
  return %0 : tensor<2x4x48xf32>
}

// -----

// An innermost size that is not whole vectors is taken whole up to 4
// vectors (17, 13: one partial vector per row, not one per tile); a longer
// one with no divisor near the vector width is tiled by a whole vector and
// the remainder split off (149 = 9 x 16 + 5).
// CHECK-LABEL: func.func @elementwise_prime
// CHECK:         dlc.tile_sizes = array<i64: 1, 17>
// CHECK:         dlc.tile_sizes = array<i64: 1, 13>
// CHECK:         dlc.tile_sizes = array<i64: 1, 16>
func.func @elementwise_prime(%a: tensor<7x17xf32>, %b: tensor<7x13xf32>, %c: tensor<3x149xf32>) -> (tensor<7x17xf32>, tensor<7x13xf32>, tensor<3x149xf32>) {
  %e0 = tensor.empty() : tensor<7x17xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<7x17xf32>) outs(%e0 : tensor<7x17xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  } -> tensor<7x17xf32>
  %e1 = tensor.empty() : tensor<7x13xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<7x13xf32>) outs(%e1 : tensor<7x13xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  } -> tensor<7x13xf32>
  %e2 = tensor.empty() : tensor<3x149xf32>
  %2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%c : tensor<3x149xf32>) outs(%e2 : tensor<3x149xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  } -> tensor<3x149xf32>
  return %0, %1, %2 : tensor<7x17xf32>, tensor<7x13xf32>, tensor<3x149xf32>
}

// -----

// Reductions: a reduction loop of up to 64 iterations is left whole (0);
// a longer one is tiled by its largest divisor up to 64.
// CHECK-LABEL: func.func @reductions
// CHECK:         linalg.generic
// CHECK-SAME:      dlc.tile_sizes = array<i64: 4, 64>
// CHECK:         linalg.generic
// CHECK-SAME:      dlc.tile_sizes = array<i64: 4, 0>
func.func @reductions(%a: tensor<4x128xf32>, %b: tensor<4x48xf32>, %c: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<4x128xf32>) outs(%c : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %o, %x : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%b : tensor<4x48xf32>) outs(%c : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %o, %x : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// Pooling windows: the window (reduction) loops stay whole.
// CHECK-LABEL: func.func @pool
// CHECK:         linalg.generic
// CHECK-SAME:      dlc.tile_sizes = array<i64: 1, 1, 1, 2, 0, 0>
func.func @pool(%x: tensor<1x2x6x6xf32>, %w: tensor<3x3xf32>, %o: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 * 2 + d4, d3 * 2 + d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %w : tensor<1x2x6x6xf32>, tensor<3x3xf32>) outs(%o : tensor<1x2x2x2xf32>) {
  ^bb0(%in: f32, %win: f32, %out: f32):
    %m = arith.maximumf %out, %in : f32
    linalg.yield %m : f32
  } -> tensor<1x2x2x2xf32>
  return %0 : tensor<1x2x2x2xf32>
}

// -----

// A global pool over 56x56: the inner reduction loop (56) stays whole, the
// outer one is tiled by 1 so that one tile covers at most 64 reduction
// elements (not 3136 unrolled vector ops).
// CHECK-LABEL: func.func @global_pool
// CHECK:         linalg.generic
// CHECK-SAME:      dlc.tile_sizes = array<i64: 1, 16, 1, 0>
func.func @global_pool(%x: tensor<1x64x56x56xf32>, %o: tensor<1x64xf32>) -> tensor<1x64xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%x : tensor<1x64x56x56xf32>) outs(%o : tensor<1x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  } -> tensor<1x64xf32>
  return %0 : tensor<1x64xf32>
}

// -----

// Named non-contraction ops (here a transpose) are tiled like elementwise
// ops over their loops (the output's dims).
// CHECK-LABEL: func.func @transpose
// CHECK:         linalg.transpose {{.+}} {dlc.tile_sizes = array<i64: 1, 8>}
func.func @transpose(%a: tensor<8x24xf32>, %c: tensor<24x8xf32>) -> tensor<24x8xf32> {
  %0 = linalg.transpose ins(%a : tensor<8x24xf32>) outs(%c : tensor<24x8xf32>) permutation = [1, 0]
  return %0 : tensor<24x8xf32>
}

// -----

// A transpose that keeps its innermost dimension (a packing copy of matmul
// panels, [K, N/32, 32] -> [N/32, K, 32]) copies whole rows of up to 4
// vectors per tile; one that moves it keeps one vector per tile (above).
// CHECK-LABEL: func.func @pack_panels
// CHECK:         linalg.transpose {{.+}} {dlc.tile_sizes = array<i64: 1, 1, 32>}
// VW8-LABEL: func.func @pack_panels
// VW8:         linalg.transpose {{.+}} {dlc.tile_sizes = array<i64: 1, 1, 32>}
func.func @pack_panels(%b: tensor<64x4x32xf32>, %p: tensor<4x64x32xf32>) -> tensor<4x64x32xf32> {
  %0 = linalg.transpose ins(%b : tensor<64x4x32xf32>) outs(%p : tensor<4x64x32xf32>) permutation = [1, 0, 2]
  return %0 : tensor<4x64x32xf32>
}

// -----

// Rows longer than 4 vectors keep one vector per tile.
// CHECK-LABEL: func.func @pack_long_rows
// CHECK:         linalg.transpose {{.+}} {dlc.tile_sizes = array<i64: 1, 1, 16>}
func.func @pack_long_rows(%b: tensor<8x4x128xf32>, %p: tensor<4x8x128xf32>) -> tensor<4x8x128xf32> {
  %0 = linalg.transpose ins(%b : tensor<8x4x128xf32>) outs(%p : tensor<4x8x128xf32>) permutation = [1, 0, 2]
  return %0 : tensor<4x8x128xf32>
}

// -----

// Ops outside linalg, and fills, are left alone.
// CHECK-LABEL: func.func @fill_only
// CHECK-NOT:     dlc.tile_sizes
// CHECK:         return
func.func @fill_only(%o: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %cst = arith.constant 1.0 : f32
  %0 = linalg.fill ins(%cst : f32) outs(%o : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

// A reversed read (n - 1 - d, from a Slice with a negative step) cannot be
// tiled upstream (tiling assumes indices grow with the loops): no tile
// sizes, the op stays whole.
// CHECK-LABEL: func.func @reversed_read
// CHECK:         linalg.generic
// CHECK-NOT:     dlc.tile_sizes
// CHECK:         return
func.func @reversed_read(%a: tensor<4x32xf32>) -> tensor<4x32xf32> {
  %e = tensor.empty() : tensor<4x32xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, -d1 + 31)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x32xf32>) outs(%e : tensor<4x32xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<4x32xf32>
  return %0 : tensor<4x32xf32>
}

// -----

// 2-D pooling: one output row, up to 8 columns, a vector of channels, kh = 1
// (the tile decomposes into a 1-D pooling), kw whole.
// CHECK-LABEL: func.func @max_pool
// CHECK:         linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, dlc.tile_sizes = array<i64: 1, 16, 1, 8, 1, 0>
// VW8-LABEL:   func.func @max_pool
// VW8:           linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, dlc.tile_sizes = array<i64: 1, 8, 1, 8, 1, 0>
func.func @max_pool(%x: tensor<1x64x114x114xf32>, %acc: tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32> {
  %w = tensor.empty() : tensor<3x3xf32>
  %0 = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
       ins(%x, %w : tensor<1x64x114x114xf32>, tensor<3x3xf32>) outs(%acc : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  return %0 : tensor<1x64x56x56xf32>
}

// -----

// A 1x1 convolution on 7x7: 7 columns take 24 / 7 -> 2 (a power of two)
// filter vectors, and the filter tile is a multiple of the vector width that
// divides 160 (32, not 40).
// CHECK-LABEL: func.func @conv_7x7_pointwise
// CHECK:         linalg.conv_2d_nchw_fchw
// CHECK-SAME:      dlc.tile_sizes = array<i64: 1, 32, 1, 7, 1, 1, 0>
// VW8-LABEL:   func.func @conv_7x7_pointwise
// VW8:           linalg.conv_2d_nchw_fchw
// VW8-SAME:        dlc.tile_sizes = array<i64: 1, 16, 1, 7, 1, 1, 0>
func.func @conv_7x7_pointwise(%x: tensor<1x960x7x7xf32>, %w: tensor<160x960x1x1xf32>, %o: tensor<1x160x7x7xf32>) -> tensor<1x160x7x7xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
       ins(%x, %w : tensor<1x960x7x7xf32>, tensor<160x960x1x1xf32>) outs(%o : tensor<1x160x7x7xf32>) -> tensor<1x160x7x7xf32>
  return %0 : tensor<1x160x7x7xf32>
}

// -----

// An elementwise op reading a convolution's only result with an identity
// map is its epilogue: its tile sizes are only a fallback, for when
// dlc-cpu-tile-and-fuse cannot fuse it into the convolution's tiles. The
// convolution (filters in the lanes, input columns broadcast) takes no
// producer of its input into its tiles (dlc.unfused_inputs), with 32
// registers as with 16.
// CHECK-LABEL: func.func @conv_relu
// CHECK:         linalg.conv_2d_nchw_fchw
// CHECK-SAME:      dlc.tile_sizes
// CHECK-SAME:      dlc.unfused_inputs
// CHECK:         linalg.generic
// CHECK-SAME:      dlc.epilogue_tile_sizes = array<i64: 1, 1, 1, 7>
// CHECK-NOT:       dlc.tile_sizes
func.func @conv_relu(%x: tensor<1x960x7x7xf32>, %w: tensor<160x960x1x1xf32>, %o: tensor<1x160x7x7xf32>) -> tensor<1x160x7x7xf32> {
  %cst = arith.constant 0.0 : f32
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
       ins(%x, %w : tensor<1x960x7x7xf32>, tensor<160x960x1x1xf32>) outs(%o : tensor<1x160x7x7xf32>) -> tensor<1x160x7x7xf32>
  %e = tensor.empty() : tensor<1x160x7x7xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%0 : tensor<1x160x7x7xf32>) outs(%e : tensor<1x160x7x7xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %cst : f32
    linalg.yield %m : f32
  } -> tensor<1x160x7x7xf32>
  return %1 : tensor<1x160x7x7xf32>
}

// -----

// With 16 vector registers (AVX2), convolution blocks fit accumulators,
// filter vectors and a broadcast. A 3x3 window over rows of 24 with 64
// channels: the window as loops outside an innermost channel loop
// (dlc.reduction_order), 2 filter vectors by 6 columns (12 accumulators,
// 15 registers), ahead of unrolling the window (3 filter vectors live,
// 10 columns with a remainder) and of 1 filter vector by 12 columns as
// loops (a broadcast per FMA): 0.305 against 0.328 ms for the latter.
// CHECK-LABEL: func.func @conv_window_loops
// R16-LABEL:   func.func @conv_window_loops
// R16:           linalg.conv_2d_nchw_fchw
// R16-SAME:        dlc.reduction_order = array<i64: 0, 1, 2, 3, 5, 6, 4>
// R16-SAME:        dlc.tile_sizes = array<i64: 1, 16, 1, 6, 1, 1, 1>
// R16-SAME:        dlc.unfused_inputs
func.func @conv_window_loops(%x: tensor<1x64x26x26xf32>, %w: tensor<64x64x3x3xf32>, %o: tensor<1x64x24x24xf32>) -> tensor<1x64x24x24xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x64x26x26xf32>, tensor<64x64x3x3xf32>) outs(%o : tensor<1x64x24x24xf32>) -> tensor<1x64x24x24xf32>
  return %0 : tensor<1x64x24x24xf32>
}

// -----

// Each choice is timed over the whole row at its measured rate, the
// remainder tile at its own. With the window as loops, a remainder of few
// columns takes as many rows as its accumulators allow and divide the
// height (dlc.remainder_tile_sizes). Rows of 56: 2 x 6 as loops and a
// remainder of 2 columns by 2 rows; rows of 14: 6 + 6 + 2 columns by 2 rows
// (8 accumulators, as many as 5 + 5 + 4 leaves); rows of 7: the window
// unrolled over all 7 (7 accumulators; 2 x 4 as loops leaves 3 columns).
// Three input channels (a stem), rows of 24: as loops, 10 + 10 + 4 columns
// by 2 rows, ahead of the window unrolled over 8 + 8 + 8 (each accumulator
// a chain of 3 taps). A stride-4 4x4 window over 3 channels, rows of 56
// (ConvNeXt's stem): 10 columns and a remainder of 6, too many for a
// second row.
// CHECK-LABEL: func.func @conv_rows
// R16-LABEL:   func.func @conv_rows
// R16:           linalg.conv_2d_nchw_fchw
// R16-SAME:        dlc.reduction_order = array<i64: 0, 1, 2, 3, 5, 6, 4>
// R16-SAME:        dlc.remainder_tile_sizes = array<i64: 1, 16, 2, 2, 1, 1, 1>
// R16-SAME:        dlc.tile_sizes = array<i64: 1, 16, 1, 6, 1, 1, 1>
// R16:           linalg.conv_2d_nchw_fchw
// R16-SAME:        dlc.reduction_order = array<i64: 0, 1, 2, 3, 5, 6, 4>
// R16-SAME:        dlc.remainder_tile_sizes = array<i64: 1, 16, 2, 2, 1, 1, 1>
// R16-SAME:        dlc.tile_sizes = array<i64: 1, 16, 1, 6, 1, 1, 1>
// R16:           linalg.conv_2d_nchw_fchw
// R16-NOT:         dlc.re
// R16-SAME:        dlc.tile_sizes = array<i64: 1, 8, 1, 7, 1, 1, 0>
// R16:           linalg.conv_2d_nchw_fchw
// R16-SAME:        dlc.reduction_order = array<i64: 0, 1, 2, 3, 5, 6, 4>
// R16-SAME:        dlc.remainder_tile_sizes = array<i64: 1, 8, 2, 4, 1, 1, 1>
// R16-SAME:        dlc.tile_sizes = array<i64: 1, 8, 1, 10, 1, 1, 1>
// R16:           linalg.conv_2d_nchw_fchw
// R16-SAME:        dlc.reduction_order = array<i64: 0, 1, 2, 3, 5, 6, 4>
// R16-NOT:         dlc.remainder
// R16-SAME:        dlc.tile_sizes = array<i64: 1, 8, 1, 10, 1, 1, 1>
func.func @conv_rows(%x: tensor<1x64x58x58xf32>, %w: tensor<64x64x3x3xf32>, %o: tensor<1x64x56x56xf32>,
                     %x14: tensor<1x256x16x16xf32>, %w14: tensor<256x256x3x3xf32>, %o14: tensor<1x256x14x14xf32>,
                     %x7: tensor<1x512x9x9xf32>, %w7: tensor<512x512x3x3xf32>, %o7: tensor<1x512x7x7xf32>,
                     %x2: tensor<1x3x26x26xf32>, %w2: tensor<64x3x3x3xf32>, %o2: tensor<1x64x24x24xf32>,
                     %x4: tensor<1x3x224x224xf32>, %w4: tensor<96x3x4x4xf32>, %o4: tensor<1x96x56x56xf32>)
    -> (tensor<1x64x56x56xf32>, tensor<1x256x14x14xf32>, tensor<1x512x7x7xf32>, tensor<1x64x24x24xf32>, tensor<1x96x56x56xf32>) {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x64x58x58xf32>, tensor<64x64x3x3xf32>) outs(%o : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  %1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x14, %w14 : tensor<1x256x16x16xf32>, tensor<256x256x3x3xf32>) outs(%o14 : tensor<1x256x14x14xf32>) -> tensor<1x256x14x14xf32>
  %2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x7, %w7 : tensor<1x512x9x9xf32>, tensor<512x512x3x3xf32>) outs(%o7 : tensor<1x512x7x7xf32>) -> tensor<1x512x7x7xf32>
  %3 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x2, %w2 : tensor<1x3x26x26xf32>, tensor<64x3x3x3xf32>) outs(%o2 : tensor<1x64x24x24xf32>) -> tensor<1x64x24x24xf32>
  %4 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<4> : tensor<2xi64>}
         ins(%x4, %w4 : tensor<1x3x224x224xf32>, tensor<96x3x4x4xf32>) outs(%o4 : tensor<1x96x56x56xf32>) -> tensor<1x96x56x56xf32>
  return %0, %1, %2, %3, %4 : tensor<1x64x56x56xf32>, tensor<1x256x14x14xf32>, tensor<1x512x7x7xf32>, tensor<1x64x24x24xf32>, tensor<1x96x56x56xf32>
}

// -----

// A matmul block of 6 rows by 2 vectors (12 accumulators); row blocks the
// innermost tile loop only with a long reduction (K = 1024, not 32).
// CHECK-LABEL: func.func @matmul_r16
// R16-LABEL:   func.func @matmul_r16
// R16:           linalg.matmul {dlc.tile_sizes = array<i64: 6, 16, 1>}
// R16:           linalg.matmul {dlc.parallel_order = array<i64: 1, 0, 2>, dlc.tile_sizes = array<i64: 6, 16, 1>}
func.func @matmul_r16(%a: tensor<64x32xf32>, %b: tensor<32x64xf32>, %c: tensor<64x64xf32>,
                      %a2: tensor<1024x1024xf32>, %b2: tensor<1024x64xf32>, %c2: tensor<1024x64xf32>) -> (tensor<64x64xf32>, tensor<1024x64xf32>) {
  %0 = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  %1 = linalg.matmul ins(%a2, %b2 : tensor<1024x1024xf32>, tensor<1024x64xf32>) outs(%c2 : tensor<1024x64xf32>) -> tensor<1024x64xf32>
  return %0, %1 : tensor<64x64xf32>, tensor<1024x64xf32>
}

// -----

// Loops of run-time size (symbolic dimensions) are sized as long loops
// that the tiles divide: a matmul of dynamic M keeps its 8 x 32 register
// block (full tiles get static shapes from dlc-cpu-version-partial-tiles),
// an elementwise op of dynamic rows one vector along its static row, and
// one of a dynamic row one vector along it.
// CHECK-LABEL: func.func @dynamic_rows
// CHECK:         linalg.matmul {{{.*}}dlc.tile_sizes = array<i64: 8, 32, 1>}
// CHECK:         linalg.generic {{.*}}dlc.tile_sizes = array<i64: 1, 16>
// CHECK:         linalg.generic {{.*}}dlc.tile_sizes = array<i64: 1, 16>
func.func @dynamic_rows(%a: tensor<?x64xf32>, %b: tensor<64x64xf32>, %n: index, %r: tensor<4x?xf32>) -> (tensor<?x64xf32>, tensor<?x64xf32>, tensor<4x?xf32>) {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty(%n) : tensor<?x64xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<?x64xf32>) -> tensor<?x64xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<?x64xf32>, tensor<64x64xf32>) outs(%f : tensor<?x64xf32>) -> tensor<?x64xf32>
  %e2 = tensor.empty(%n) : tensor<?x64xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<?x64xf32>) outs(%e2 : tensor<?x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %2 = arith.maximumf %in, %cst : f32
    linalg.yield %2 : f32
  } -> tensor<?x64xf32>
  %e3 = tensor.empty(%n) : tensor<4x?xf32>
  %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r : tensor<4x?xf32>) outs(%e3 : tensor<4x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %4 = arith.maximumf %in, %cst : f32
    linalg.yield %4 : f32
  } -> tensor<4x?xf32>
  return %0, %1, %3 : tensor<?x64xf32>, tensor<?x64xf32>, tensor<4x?xf32>
}

// -----

// A loop of run-time size whose bound is below its tile (a chunk of at
// most 4 samples, an 8-row register block) gets the largest power of two
// within the bound: runs at the bound then take full tiles. A bound of 6
// gives 4; an unbounded size keeps 8.
// CHECK-LABEL: func.func @bounded_rows
// CHECK:         linalg.matmul {{.*}}dlc.tile_sizes = array<i64: 4, 32, 1>
// CHECK:         linalg.matmul {{.*}}dlc.tile_sizes = array<i64: 4, 32, 1>
// CHECK:         linalg.matmul {{.*}}dlc.tile_sizes = array<i64: 8, 32, 1>
func.func @bounded_rows(%a: tensor<?x64xf32>, %b: tensor<64x64xf32>, %s: index) -> (tensor<?x64xf32>, tensor<?x64xf32>, tensor<?x64xf32>) {
  %cst = arith.constant 0.0 : f32
  %n4 = affine.min affine_map<()[s0] -> (s0, 4)>()[%s]
  %n6 = affine.min affine_map<()[s0] -> (s0, 6)>()[%s]
  %a4 = tensor.extract_slice %a[0, 0] [%n4, 64] [1, 1] : tensor<?x64xf32> to tensor<?x64xf32>
  %e4 = tensor.empty(%n4) : tensor<?x64xf32>
  %0 = linalg.matmul ins(%a4, %b : tensor<?x64xf32>, tensor<64x64xf32>) outs(%e4 : tensor<?x64xf32>) -> tensor<?x64xf32>
  %a6 = tensor.extract_slice %a[0, 0] [%n6, 64] [1, 1] : tensor<?x64xf32> to tensor<?x64xf32>
  %e6 = tensor.empty(%n6) : tensor<?x64xf32>
  %1 = linalg.matmul ins(%a6, %b : tensor<?x64xf32>, tensor<64x64xf32>) outs(%e6 : tensor<?x64xf32>) -> tensor<?x64xf32>
  %e = tensor.empty(%s) : tensor<?x64xf32>
  %2 = linalg.matmul ins(%a, %b : tensor<?x64xf32>, tensor<64x64xf32>) outs(%e : tensor<?x64xf32>) -> tensor<?x64xf32>
  return %0, %1, %2 : tensor<?x64xf32>, tensor<?x64xf32>, tensor<?x64xf32>
}

// -----

// A depthwise convolution as one multiply-add per tap over slices of the
// padded input at different rows takes several rows per tile (the taps of
// adjacent rows load the same input rows once; the rows accumulate
// independently): up to a quarter of the registers as accumulators, the
// tile with the most rows per tile on average. 7 columns are one vector: 7
// rows with 32 registers, 4 (and a remainder of 3) with 16. Strided slices
// (a stride-2 depthwise convolution) too; a strided window that only
// compares (a stride-2 max pooling) keeps one row per tile.
// CHECK-LABEL: func.func @depthwise_rows
// CHECK:         linalg.generic {{.*}}dlc.tile_sizes = array<i64: 1, 1, 7, 7>
// CHECK:         linalg.generic {{.*}}dlc.tile_sizes = array<i64: 1, 1, 7, 7>
// CHECK:         linalg.generic {{.*}}dlc.tile_sizes = array<i64: 1, 1, 1, 7>
// VW8-LABEL:   func.func @depthwise_rows
// VW8:           linalg.generic {{.*}}dlc.tile_sizes = array<i64: 1, 1, 7, 7>
// VW8:           linalg.generic {{.*}}dlc.tile_sizes = array<i64: 1, 1, 7, 7>
// VW8:           linalg.generic {{.*}}dlc.tile_sizes = array<i64: 1, 1, 1, 7>
// R16-LABEL:   func.func @depthwise_rows
// R16:           linalg.generic {{.*}}dlc.tile_sizes = array<i64: 1, 1, 4, 7>
// R16:           linalg.generic {{.*}}dlc.tile_sizes = array<i64: 1, 1, 4, 7>
// R16:           linalg.generic {{.*}}dlc.tile_sizes = array<i64: 1, 1, 1, 7>
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1)>
func.func @depthwise_rows(%x: tensor<1x32x9x9xf32>, %y: tensor<1x32x15x15xf32>, %w0: tensor<32xf32>, %w1: tensor<32xf32>) -> (tensor<1x32x7x7xf32>, tensor<1x32x7x7xf32>, tensor<1x32x7x7xf32>) {
  %t0 = tensor.extract_slice %x[0, 0, 0, 0] [1, 32, 7, 7] [1, 1, 1, 1] : tensor<1x32x9x9xf32> to tensor<1x32x7x7xf32>
  %t1 = tensor.extract_slice %x[0, 0, 1, 0] [1, 32, 7, 7] [1, 1, 1, 1] : tensor<1x32x9x9xf32> to tensor<1x32x7x7xf32>
  %e = tensor.empty() : tensor<1x32x7x7xf32>
  %0 = linalg.generic {indexing_maps = [#map, #ch, #map, #ch, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t0, %w0, %t1, %w1 : tensor<1x32x7x7xf32>, tensor<32xf32>, tensor<1x32x7x7xf32>, tensor<32xf32>) outs(%e : tensor<1x32x7x7xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %d: f32, %out: f32):
    %m = arith.mulf %a, %b : f32
    %r = math.fma %c, %d, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x32x7x7xf32>
  %s0 = tensor.extract_slice %y[0, 0, 0, 0] [1, 32, 7, 7] [1, 1, 2, 2] : tensor<1x32x15x15xf32> to tensor<1x32x7x7xf32>
  %s1 = tensor.extract_slice %y[0, 0, 1, 0] [1, 32, 7, 7] [1, 1, 2, 2] : tensor<1x32x15x15xf32> to tensor<1x32x7x7xf32>
  %1 = linalg.generic {indexing_maps = [#map, #ch, #map, #ch, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s0, %w0, %s1, %w1 : tensor<1x32x7x7xf32>, tensor<32xf32>, tensor<1x32x7x7xf32>, tensor<32xf32>) outs(%e : tensor<1x32x7x7xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %d: f32, %out: f32):
    %m = arith.mulf %a, %b : f32
    %r = math.fma %c, %d, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x32x7x7xf32>
  %2 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s0, %s1 : tensor<1x32x7x7xf32>, tensor<1x32x7x7xf32>) outs(%e : tensor<1x32x7x7xf32>) {
  ^bb0(%a: f32, %c: f32, %out: f32):
    %g = arith.cmpf ogt, %a, %c : f32
    %r = arith.select %g, %a, %c : f32
    linalg.yield %r : f32
  } -> tensor<1x32x7x7xf32>
  return %0, %1, %2 : tensor<1x32x7x7xf32>, tensor<1x32x7x7xf32>, tensor<1x32x7x7xf32>
}

// -----

// Rows of 55 columns (8 lanes): an elementwise op takes tiles of 5 (a
// divisor of the row), one reading strided slices (a stride-2 pooling
// window) whole vectors and a remainder of 7.
// VW8-LABEL:   func.func @strided_row_tiles
// VW8:           linalg.generic {{.*}}dlc.tile_sizes = array<i64: 1, 1, 1, 5>
// VW8:           linalg.generic {{.*}}dlc.tile_sizes = array<i64: 1, 1, 1, 8>
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @strided_row_tiles(%x: tensor<1x4x3x55xf32>, %y: tensor<1x4x7x111xf32>) -> (tensor<1x4x3x55xf32>, tensor<1x4x3x55xf32>) {
  %e = tensor.empty() : tensor<1x4x3x55xf32>
  %0 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x4x3x55xf32>) outs(%e : tensor<1x4x3x55xf32>) {
  ^bb0(%a: f32, %out: f32):
    %r = arith.addf %a, %a : f32
    linalg.yield %r : f32
  } -> tensor<1x4x3x55xf32>
  %s0 = tensor.extract_slice %y[0, 0, 0, 0] [1, 4, 3, 55] [1, 1, 2, 2] : tensor<1x4x7x111xf32> to tensor<1x4x3x55xf32>
  %s1 = tensor.extract_slice %y[0, 0, 0, 1] [1, 4, 3, 55] [1, 1, 2, 2] : tensor<1x4x7x111xf32> to tensor<1x4x3x55xf32>
  %1 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s0, %s1 : tensor<1x4x3x55xf32>, tensor<1x4x3x55xf32>) outs(%e : tensor<1x4x3x55xf32>) {
  ^bb0(%a: f32, %c: f32, %out: f32):
    %g = arith.cmpf ogt, %a, %c : f32
    %r = arith.select %g, %a, %c : f32
    linalg.yield %r : f32
  } -> tensor<1x4x3x55xf32>
  return %0, %1 : tensor<1x4x3x55xf32>, tensor<1x4x3x55xf32>
}

// -----

// A pointwise convolution over an image flattened into one row (49 pixels,
// dlc-cpu-pointwise-convs) is tiled like a 2-D one: with 32 registers 7
// columns (the row's divisor) by 2 filter vectors; with 16 the tile with
// the best FMA rate over the whole row, remainder included: 2 vectors of 8
// filters by 5 columns (9 tiles and one of 4) for 512 filters. 440 filters
// (55 vectors, no whole pairs) take 2 vectors by 5 columns as well, their
// last vector a remainder tile (SqueezeNet's classifier), unless an
// activation follows (a split would run it as a pass of its own): then 1
// vector by 13 columns (one spare register).
// CHECK-LABEL: func.func @conv_1d_row
// CHECK:         linalg.conv_1d_ncw_fcw
// CHECK-SAME:      dlc.tile_sizes = array<i64: 1, 32, 7, 1, 0>
// CHECK:         linalg.conv_1d_ncw_fcw
// CHECK-SAME:      dlc.tile_sizes = array<i64: 1, 32, 7, 1, 0>
// R16-LABEL:   func.func @conv_1d_row
// R16:           linalg.conv_1d_ncw_fcw
// R16-SAME:        dlc.tile_sizes = array<i64: 1, 16, 5, 1, 0>
// R16:           linalg.conv_1d_ncw_fcw
// R16-SAME:        dlc.tile_sizes = array<i64: 1, 16, 5, 1, 0>
// R16:           linalg.conv_1d_ncw_fcw
// R16-SAME:        dlc.tile_sizes = array<i64: 1, 8, 13, 1, 0>
func.func @conv_1d_row(%x: tensor<1x2048x49xf32>, %w: tensor<512x2048x1xf32>, %o: tensor<1x512x49xf32>,
                       %x2: tensor<1x440x49xf32>, %w2: tensor<440x440x1xf32>, %o2: tensor<1x440x49xf32>)
    -> (tensor<1x512x49xf32>, tensor<1x440x49xf32>, tensor<1x440x49xf32>) {
  %0 = linalg.conv_1d_ncw_fcw {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>}
       ins(%x, %w : tensor<1x2048x49xf32>, tensor<512x2048x1xf32>) outs(%o : tensor<1x512x49xf32>) -> tensor<1x512x49xf32>
  %1 = linalg.conv_1d_ncw_fcw {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>}
       ins(%x2, %w2 : tensor<1x440x49xf32>, tensor<440x440x1xf32>) outs(%o2 : tensor<1x440x49xf32>) -> tensor<1x440x49xf32>
  %2 = linalg.conv_1d_ncw_fcw {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>}
       ins(%x2, %w2 : tensor<1x440x49xf32>, tensor<440x440x1xf32>) outs(%o2 : tensor<1x440x49xf32>) -> tensor<1x440x49xf32>
  %e = tensor.empty() : tensor<1x440x49xf32>
  %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%2 : tensor<1x440x49xf32>) outs(%e : tensor<1x440x49xf32>) {
  ^bb0(%in: f32, %out: f32):
    %zero = arith.constant 0.0 : f32
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x440x49xf32>
  return %0, %1, %3 : tensor<1x512x49xf32>, tensor<1x440x49xf32>, tensor<1x440x49xf32>
}

// -----

// Filters that are not whole vectors (ShuffleNet's 116 with 8 lanes; its
// largest divisor within a vector, 4, is less than 8 lanes): whole-vector
// tiles, the remainder of 4 split off later, within the register budget
// on 16 registers (7 columns of a row of 14), not the pointwise rate rule
// (which needs whole vectors of filters).
// R16-LABEL:   func.func @conv_pointwise_half_vectors
// R16:           linalg.conv_2d_nchw_fchw
// R16-SAME:        dlc.tile_sizes = array<i64: 1, 8, 1, 7, 1, 1, 0>
func.func @conv_pointwise_half_vectors(%x: tensor<1x116x14x14xf32>, %w: tensor<116x116x1x1xf32>, %o: tensor<1x116x14x14xf32>) -> tensor<1x116x14x14xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
       ins(%x, %w : tensor<1x116x14x14xf32>, tensor<116x116x1x1xf32>) outs(%o : tensor<1x116x14x14xf32>) -> tensor<1x116x14x14xf32>
  return %0 : tensor<1x116x14x14xf32>
}

// -----

// A 7x7 stride-2 stem over 3 channels on 16 registers: with the window
// unrolled its 7 filter vectors leave room for 6 columns (6 accumulator
// chains of 7 FMAs each per step); with the window as loops outside the
// channel loop (dlc.reduction_order: kh, kw, then c) the 3 channels' filter
// vectors are live at once (LLVM unrolls the loop), which leaves 10
// columns: 10 accumulators (ResNet's stem with its ReLU, AVX2: 2.70 ->
// 2.12 ms; 12 columns spilled).
// R16-LABEL:   func.func @conv_stem_7x7
// R16:           linalg.conv_2d_nchw_fchw
// R16-SAME:        dlc.reduction_order = array<i64: 0, 1, 2, 3, 5, 6, 4>
// R16-SAME:        dlc.tile_sizes = array<i64: 1, 8, 1, 10, 1, 1, 1>
func.func @conv_stem_7x7(%x: tensor<1x3x230x230xf32>, %w: tensor<64x3x7x7xf32>, %o: tensor<1x64x112x112xf32>) -> tensor<1x64x112x112xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
       ins(%x, %w : tensor<1x3x230x230xf32>, tensor<64x3x7x7xf32>) outs(%o : tensor<1x64x112x112xf32>) -> tensor<1x64x112x112xf32>
  return %0 : tensor<1x64x112x112xf32>
}

// -----

// A pointwise convolution's contraction over 64 channels of a computed
// image: row blocks innermost re-read each tile's panel of the image, one
// channel plane apart per row of the panel, so the panel is copied once per
// tile (dlc.panel_tile_sizes: the tile without its rows and channels). The
// same contraction over 32 channels keeps its rows outermost and reads in
// place; a matmul's B of rank 2 (PackMatmulOperands' to pack), an image
// whose channels are innermost and a panel for fewer than 8 row blocks (24
// filters: 4 blocks of 6) are read in place too.
// R16-LABEL:   func.func @pointwise_panel
// R16:           linalg.generic
// R16-SAME:        dlc.panel_tile_sizes = array<i64: 1, 0, 2, 8, 0>
// R16-SAME:        dlc.tile_sizes = array<i64: 1, 6, 2, 8, 1>
// R16:           linalg.generic
// R16-NOT:         dlc.panel_tile_sizes
// R16-SAME:        dlc.tile_sizes = array<i64: 1, 6, 2, 8, 1>
// R16:           linalg.matmul
// R16-NOT:         dlc.panel_tile_sizes
// R16-SAME:        dlc.tile_sizes
// R16:           linalg.generic
// R16-NOT:         dlc.panel_tile_sizes
// R16-SAME:        dlc.tile_sizes
// R16:           linalg.generic
// R16-NOT:         dlc.panel_tile_sizes
// R16-SAME:        dlc.tile_sizes = array<i64: 1, 6, 2, 8, 1>
func.func @pointwise_panel(%w: tensor<64x64xf32>, %x: tensor<1x64x56x56xf32>, %y: tensor<1x64x56x56xf32>,
                           %w32: tensor<64x32xf32>, %x32: tensor<1x32x56x56xf32>,
                           %a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %c: tensor<64x64xf32>,
                           %xl: tensor<1x56x56x64xf32>, %w24: tensor<24x64xf32>, %y24: tensor<1x24x56x56xf32>)
    -> (tensor<1x64x56x56xf32>, tensor<1x64x56x56xf32>, tensor<64x64xf32>, tensor<1x64x56x56xf32>, tensor<1x24x56x56xf32>) {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d1, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%w, %x : tensor<64x64xf32>, tensor<1x64x56x56xf32>) outs(%y : tensor<1x64x56x56xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x64x56x56xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d1, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%w32, %x32 : tensor<64x32xf32>, tensor<1x32x56x56xf32>) outs(%y : tensor<1x64x56x56xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x64x56x56xf32>
  %2 = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d1, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%w, %xl : tensor<64x64xf32>, tensor<1x56x56x64xf32>) outs(%y : tensor<1x64x56x56xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x64x56x56xf32>
  %4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d1, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%w24, %x : tensor<24x64xf32>, tensor<1x64x56x56xf32>) outs(%y24 : tensor<1x24x56x56xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x24x56x56xf32>
  return %0, %1, %2, %3, %4 : tensor<1x64x56x56xf32>, tensor<1x64x56x56xf32>, tensor<64x64xf32>, tensor<1x64x56x56xf32>, tensor<1x24x56x56xf32>
}
