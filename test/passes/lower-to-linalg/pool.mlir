// RUN: dlc-opt %s -split-input-file --dlc-lower-to-linalg --mlir-print-local-scope | FileCheck %s

// MaxPool: the input is padded with -inf; a small static 2-D window
// becomes one elementwise op over a strided slice of the padded input per
// tap (offsets kh, kw; strides 2), as depthwise convolutions are: the
// largest tap by compares and selects (one max instruction each on x86),
// NaN when any pair of taps is unordered (NaN propagates, as with
// arith.maximumf).
// CHECK-LABEL: func.func @max_pool
// CHECK-SAME:    (%[[X:.+]]: tensor<1x2x4x4xf32>)
// CHECK:         %[[NEGINF:.+]] = arith.constant 0xFF800000 : f32
// CHECK:         %[[PAD:.+]] = tensor.pad %[[X]] low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK:           tensor.yield %[[NEGINF]] : f32
// CHECK:         } : tensor<1x2x4x4xf32> to tensor<1x2x6x6xf32>
// CHECK:         %[[T0:.+]] = tensor.extract_slice %[[PAD]][0, 0, 0, 0] [1, 2, 2, 2] [1, 1, 2, 2]
// CHECK:         %[[T1:.+]] = tensor.extract_slice %[[PAD]][0, 0, 0, 1] [1, 2, 2, 2] [1, 1, 2, 2]
// CHECK:         tensor.extract_slice %[[PAD]][0, 0, 0, 2] [1, 2, 2, 2] [1, 1, 2, 2]
// CHECK:         tensor.extract_slice %[[PAD]][0, 0, 1, 0] [1, 2, 2, 2] [1, 1, 2, 2]
// CHECK:         tensor.extract_slice %[[PAD]][0, 0, 1, 1] [1, 2, 2, 2] [1, 1, 2, 2]
// CHECK:         tensor.extract_slice %[[PAD]][0, 0, 1, 2] [1, 2, 2, 2] [1, 1, 2, 2]
// CHECK:         tensor.extract_slice %[[PAD]][0, 0, 2, 0] [1, 2, 2, 2] [1, 1, 2, 2]
// CHECK:         tensor.extract_slice %[[PAD]][0, 0, 2, 1] [1, 2, 2, 2] [1, 1, 2, 2]
// CHECK:         %[[T8:.+]] = tensor.extract_slice %[[PAD]][0, 0, 2, 2] [1, 2, 2, 2] [1, 1, 2, 2]
// CHECK-NOT:     linalg.fill
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK-SAME:      ins(%[[T0]], %[[T1]], {{.*}}, %[[T8]] :
// CHECK:         ^bb0(%[[A0:[^:]+]]: f32, %[[A1:[^:]+]]: f32, %[[A2:[^:]+]]: f32, {{.*}}, %[[A8:[^:]+]]: f32, %{{.+}}: f32):
// CHECK-NEXT:      %[[C1:.+]] = arith.cmpf ogt, %[[A1]], %[[A0]] : f32
// CHECK-NEXT:      %[[M1:.+]] = arith.select %[[C1]], %[[A1]], %[[A0]] : f32
// CHECK-NEXT:      %[[C2:.+]] = arith.cmpf ogt, %[[A2]], %[[M1]] : f32
// CHECK-NEXT:      arith.select %[[C2]], %[[A2]], %[[M1]] : f32
// CHECK-COUNT-6:   arith.select
// CHECK-NEXT:      %[[N0:.+]] = arith.cmpf uno, %[[A0]], %[[A1]] : f32
// CHECK-COUNT-4:   arith.cmpf uno
// CHECK-NOT:       arith.cmpf uno
// CHECK:           %[[QNAN:.+]] = arith.constant 0x7FC00000 : f32
// CHECK-NEXT:      %[[Y:.+]] = arith.select %{{.+}}, %[[QNAN]], %{{.+}} : f32
// CHECK-NEXT:      linalg.yield %[[Y]] : f32
// CHECK:         return %[[R]]
func.func @max_pool(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32> {
  %0 = dlc.max_pool %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>}
       : tensor<1x2x4x4xf32> -> tensor<1x2x2x2xf32>
  return %0 : tensor<1x2x2x2xf32>
}

// -----

// No pads: no tensor.pad; the taps of a dilated window are `dilation`
// apart.
// CHECK-LABEL: func.func @max_pool_dilated
// CHECK-SAME:    (%[[X:.+]]: tensor<1x1x5x5xf32>)
// CHECK-NOT:     tensor.pad
// CHECK:         tensor.extract_slice %[[X]][0, 0, 0, 0] [1, 1, 3, 3] [1, 1, 1, 1]
// CHECK:         tensor.extract_slice %[[X]][0, 0, 0, 2] [1, 1, 3, 3] [1, 1, 1, 1]
// CHECK:         tensor.extract_slice %[[X]][0, 0, 2, 0] [1, 1, 3, 3] [1, 1, 1, 1]
// CHECK:         tensor.extract_slice %[[X]][0, 0, 2, 2] [1, 1, 3, 3] [1, 1, 1, 1]
// CHECK:         linalg.generic
func.func @max_pool_dilated(%x: tensor<1x1x5x5xf32>) -> tensor<1x1x3x3xf32> {
  %0 = dlc.max_pool %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 2, 2>}
       : tensor<1x1x5x5xf32> -> tensor<1x1x3x3xf32>
  return %0 : tensor<1x1x3x3xf32>
}

// -----

// A window of more than 25 taps reduces with linalg's named
// pooling_nchw_max (its arith.maximumf propagates NaN; the CPU vectorizer
// handles the named op's strided windows, not a generic's), its
// accumulator filled with -inf. The window tensor only carries the kernel
// shape.
// CHECK-LABEL: func.func @max_pool_large_window
// CHECK:         %[[EMPTY:.+]] = tensor.empty() : tensor<1x1x2x2xf32>
// CHECK:         %[[NEGINF:.+]] = arith.constant 0xFF800000 : f32
// CHECK:         %[[ACC:.+]] = linalg.fill ins(%[[NEGINF]] : f32) outs(%[[EMPTY]] : tensor<1x1x2x2xf32>)
// CHECK:         %[[WIN:.+]] = tensor.empty() : tensor<6x5xf32>
// CHECK:         %[[R:.+]] = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
// CHECK-SAME:      ins(%{{.+}}, %[[WIN]] : tensor<1x1x7x6xf32>, tensor<6x5xf32>) outs(%[[ACC]] : tensor<1x1x2x2xf32>)
// CHECK:         return %[[R]]
func.func @max_pool_large_window(%x: tensor<1x1x7x6xf32>) -> tensor<1x1x2x2xf32> {
  %0 = dlc.max_pool %x {kernel_shape = array<i64: 6, 5>, strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>}
       : tensor<1x1x7x6xf32> -> tensor<1x1x2x2xf32>
  return %0 : tensor<1x1x2x2xf32>
}

// -----

// MaxPool with ceil_mode: the last window reaches one element past the
// input, which is padded (with -inf) at the end.
// CHECK-LABEL: func.func @max_pool_ceil
// CHECK:         %[[NEGINF:.+]] = arith.constant 0xFF800000 : f32
// CHECK:         tensor.pad %{{.+}} low[0, 0, 0, 0] high[0, 0, 1, 1]
// CHECK:           tensor.yield %[[NEGINF]] : f32
// CHECK:         } : tensor<1x1x5x5xf32> to tensor<1x1x6x6xf32>
func.func @max_pool_ceil(%x: tensor<1x1x5x5xf32>) -> tensor<1x1x3x3xf32> {
  %0 = dlc.max_pool %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, ceil_mode = true}
       : tensor<1x1x5x5xf32> -> tensor<1x1x3x3xf32>
  return %0 : tensor<1x1x3x3xf32>
}

// -----

// AveragePool (count_include_pad = 0): the sum pads with 0 and adds the
// window's taps (strided slices of the padded input, as MaxPool's); the
// divisors count only the input elements of each window: 4 in the corners,
// 6 on the edges, 9 in the middle of a 3x3 window over a 1-padded 3x3 input.
// CHECK-LABEL: func.func @avg_pool
// CHECK:         %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[PAD:.+]] = tensor.pad %{{.+}} low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK:           tensor.yield %[[ZERO]] : f32
// CHECK:         %[[T0:.+]] = tensor.extract_slice %[[PAD]][0, 0, 0, 0] [1, 1, 3, 3] [1, 1, 1, 1]
// CHECK:         %[[T8:.+]] = tensor.extract_slice %[[PAD]][0, 0, 2, 2] [1, 1, 3, 3] [1, 1, 1, 1]
// CHECK:         %[[SUM:.+]] = linalg.generic
// CHECK-SAME:      ins(%[[T0]], {{.*}}, %[[T8]] :
// CHECK:         ^bb0(%[[A0:[^:]+]]: f32, %[[A1:[^:]+]]: f32,
// CHECK-NEXT:      %[[S1:.+]] = arith.addf %[[A0]], %[[A1]] : f32
// CHECK-COUNT-7:   arith.addf
// CHECK-NEXT:      linalg.yield
// CHECK:         %[[DIV:.+]] = arith.constant dense<{{\[\[}}4.000000e+00, 6.000000e+00, 4.000000e+00], [6.000000e+00, 9.000000e+00, 6.000000e+00], [4.000000e+00, 6.000000e+00, 4.000000e+00]]> : tensor<3x3xf32>
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>]
// CHECK-SAME:      ins(%[[SUM]], %[[DIV]] : tensor<1x1x3x3xf32>, tensor<3x3xf32>)
// CHECK:         ^bb0(%[[A:.+]]: f32, %[[B:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT:      %[[Q:.+]] = arith.divf %[[A]], %[[B]] : f32
// CHECK-NEXT:      linalg.yield %[[Q]] : f32
// CHECK:         return %[[R]]
func.func @avg_pool(%x: tensor<1x1x3x3xf32>) -> tensor<1x1x3x3xf32> {
  %0 = dlc.avg_pool %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>}
       : tensor<1x1x3x3xf32> -> tensor<1x1x3x3xf32>
  return %0 : tensor<1x1x3x3xf32>
}

// -----

// count_include_pad = 1: every window counts the padding: all divisors 9.
// CHECK-LABEL: func.func @avg_pool_count_include_pad
// CHECK:         %[[DIV:.+]] = arith.constant dense<9.000000e+00> : tensor<3x3xf32>
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%{{.+}}, %[[DIV]] : tensor<1x1x3x3xf32>, tensor<3x3xf32>)
// CHECK:           arith.divf
func.func @avg_pool_count_include_pad(%x: tensor<1x1x3x3xf32>) -> tensor<1x1x3x3xf32> {
  %0 = dlc.avg_pool %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, count_include_pad = true}
       : tensor<1x1x3x3xf32> -> tensor<1x1x3x3xf32>
  return %0 : tensor<1x1x3x3xf32>
}

// -----

// ceil_mode: the last window of each dim covers only one input element
// (the extra padding is never counted).
// CHECK-LABEL: func.func @avg_pool_ceil
// CHECK:         tensor.pad %{{.+}} low[0, 0, 0, 0] high[0, 0, 1, 1]
// CHECK:         %[[DIV:.+]] = arith.constant dense<{{\[\[}}4.000000e+00, 4.000000e+00, 2.000000e+00], [4.000000e+00, 4.000000e+00, 2.000000e+00], [2.000000e+00, 2.000000e+00, 1.000000e+00]]> : tensor<3x3xf32>
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%{{.+}}, %[[DIV]] : tensor<1x1x3x3xf32>, tensor<3x3xf32>)
func.func @avg_pool_ceil(%x: tensor<1x1x5x5xf32>) -> tensor<1x1x3x3xf32> {
  %0 = dlc.avg_pool %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, ceil_mode = true}
       : tensor<1x1x5x5xf32> -> tensor<1x1x3x3xf32>
  return %0 : tensor<1x1x3x3xf32>
}

// -----

// ceil_mode with count_include_pad: the explicit pad (1 at the end) counts,
// the ceil_mode overhang beyond it does not. Width: in 5, pad [0, 1],
// k 3, s 2 -> windows [0,3) [2,5) [4,7) of which 6 is past the pad: 3, 3, 2.
// CHECK-LABEL: func.func @avg_pool_ceil_include_pad
// CHECK:         tensor.pad %{{.+}} low[0, 0, 0, 0] high[0, 0, 0, 2]
// CHECK:         arith.constant dense<{{\[\[}}3.000000e+00, 3.000000e+00, 2.000000e+00]]> : tensor<1x3xf32>
func.func @avg_pool_ceil_include_pad(%x: tensor<1x1x1x5xf32>) -> tensor<1x1x1x3xf32> {
  %0 = dlc.avg_pool %x {kernel_shape = array<i64: 1, 3>, strides = array<i64: 1, 2>, pads = array<i64: 0, 0, 0, 1>, dilations = array<i64: 1, 1>, ceil_mode = true, count_include_pad = true}
       : tensor<1x1x1x5xf32> -> tensor<1x1x1x3xf32>
  return %0 : tensor<1x1x1x3xf32>
}

// -----

// 1-D average pooling: a window generic (the named ops are for 2-D); the
// divisor constant is 1-D.
// CHECK-LABEL: func.func @avg_pool_1d
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2 * 2 + d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK:         arith.constant dense<2.000000e+00> : tensor<3xf32>
func.func @avg_pool_1d(%x: tensor<1x2x6xf32>) -> tensor<1x2x3xf32> {
  %0 = dlc.avg_pool %x {kernel_shape = array<i64: 2>, strides = array<i64: 2>, pads = array<i64: 0, 0>, dilations = array<i64: 1>}
       : tensor<1x2x6xf32> -> tensor<1x2x3xf32>
  return %0 : tensor<1x2x3xf32>
}

// -----

// GlobalAveragePool: a sum over the spatial dims into N x C, a divide by
// H * W = 16, and a reshape to N x C x 1 x 1.
// CHECK-LABEL: func.func @global_avg_pool
// CHECK-SAME:    (%[[X:.+]]: tensor<1x8x4x4xf32>)
// CHECK:         %[[ACC:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<1x8xf32>)
// CHECK:         %[[SUM:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>]
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "reduction", "reduction"]
// CHECK-SAME:      ins(%[[X]] : tensor<1x8x4x4xf32>) outs(%[[ACC]] : tensor<1x8xf32>)
// CHECK:           arith.addf
// CHECK:         %[[MEAN:.+]] = linalg.generic
// CHECK-SAME:      ins(%[[SUM]] : tensor<1x8xf32>)
// CHECK:           %[[N:.+]] = arith.constant 1.600000e+01 : f32
// CHECK:           arith.divf %{{.+}}, %[[N]] : f32
// CHECK:         %[[R:.+]] = tensor.expand_shape %[[MEAN]] {{\[\[}}0], [1, 2, 3]] output_shape [1, 8, 1, 1] : tensor<1x8xf32> into tensor<1x8x1x1xf32>
// CHECK:         return %[[R]]
func.func @global_avg_pool(%x: tensor<1x8x4x4xf32>) -> tensor<1x8x1x1xf32> {
  %0 = dlc.global_avg_pool %x : tensor<1x8x4x4xf32> -> tensor<1x8x1x1xf32>
  return %0 : tensor<1x8x1x1xf32>
}

// -----

// 3-D input (N, C, D, H, W): the divisor is D * H * W = 24.
// CHECK-LABEL: func.func @global_avg_pool_3d
// CHECK:         iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]
// CHECK:         arith.constant 2.400000e+01 : f32
func.func @global_avg_pool_3d(%x: tensor<2x3x2x3x4xf32>) -> tensor<2x3x1x1x1xf32> {
  %0 = dlc.global_avg_pool %x : tensor<2x3x2x3x4xf32> -> tensor<2x3x1x1x1xf32>
  return %0 : tensor<2x3x1x1x1xf32>
}
