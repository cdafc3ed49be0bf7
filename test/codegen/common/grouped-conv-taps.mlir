// RUN: dlc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(dlc-grouped-conv-taps{min-filter-lanes=8}))' --mlir-print-local-scope | FileCheck %s
// RUN: dlc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(dlc-grouped-conv-taps{min-filter-lanes=1000 generalize=true}))' --mlir-print-local-scope | FileCheck %s --check-prefix=GPU

// 2 groups of 2 channels and 3 filters, 3x3 window, stride 2, dilation 2
// along the width: fewer filters per group than 8, 2 x 3 x 3 = 18 taps, so
// one fused multiply-add per input channel of the group and window tap in
// the [N, G, F/G, OH, OW] form. Tap (j, kh, kw) reads the padded NCHW input
// at channels j, j + 2 (stride 2 = channels per group), rows from kh and
// columns from 2 * kw, with the convolution's strides; its filters are the
// [G, F/G] matrix w[:, :, j, kh, kw]. The chain starts from the accumulator.
// CHECK-LABEL: func.func @few_filters
// CHECK-SAME:    (%[[X:.+]]: tensor<1x4x8x8xf32>, %[[W:.+]]: tensor<2x3x2x3x3xf32>, %[[ACC:.+]]: tensor<1x2x3x3x2xf32>)
// CHECK-NOT:     linalg.conv_2d_ngchw_gfchw
// CHECK:         %[[X0:.+]] = tensor.extract_slice %[[X]][0, 0, 0, 0] [1, 2, 3, 2] [1, 2, 2, 2] : tensor<1x4x8x8xf32> to tensor<1x2x3x2xf32>
// CHECK:         %[[W0:.+]] = tensor.extract_slice %[[W]][0, 0, 0, 0, 0] [2, 3, 1, 1, 1] [1, 1, 1, 1, 1] : tensor<2x3x2x3x3xf32> to tensor<2x3xf32>
// CHECK:         %[[T0:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>]
// CHECK-SAME:      ins(%[[X0]], %[[W0]], %[[ACC]] : tensor<1x2x3x2xf32>, tensor<2x3xf32>, tensor<1x2x3x3x2xf32>)
// CHECK:           math.fma
// CHECK:         tensor.extract_slice %[[X]][0, 0, 0, 2] [1, 2, 3, 2] [1, 2, 2, 2]
// CHECK:         ins(%{{.+}}, %{{.+}}, %[[T0]] :
// CHECK:         tensor.extract_slice %[[X]][0, 1, 2, 4] [1, 2, 3, 2] [1, 2, 2, 2]
// CHECK:         tensor.extract_slice %[[W]][0, 0, 1, 2, 2] [2, 3, 1, 1, 1]
// CHECK:         %[[LAST:.+]] = linalg.generic
// CHECK:         tensor.collapse_shape %[[LAST]] {{\[\[}}0], [1, 2], [3], [4]] : tensor<1x2x3x3x2xf32> into tensor<1x6x3x2xf32>
// The CUDA configuration takes the same form.
// GPU-LABEL:     func.func @few_filters
// GPU-NOT:       linalg.conv_2d_ngchw_gfchw
// GPU-COUNT-18:  math.fma
func.func @few_filters(%x: tensor<1x4x8x8xf32>, %w: tensor<2x3x2x3x3xf32>, %acc: tensor<1x2x3x3x2xf32>) -> tensor<1x6x3x2xf32> {
  %xg = tensor.expand_shape %x [[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 8, 8] : tensor<1x4x8x8xf32> into tensor<1x2x2x8x8xf32>
  %0 = linalg.conv_2d_ngchw_gfchw {dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%xg, %w : tensor<1x2x2x8x8xf32>, tensor<2x3x2x3x3xf32>) outs(%acc : tensor<1x2x3x3x2xf32>) -> tensor<1x2x3x3x2xf32>
  %1 = tensor.collapse_shape %0 [[0], [1, 2], [3], [4]] : tensor<1x2x3x3x2xf32> into tensor<1x6x3x2xf32>
  return %1 : tensor<1x6x3x2xf32>
}

// -----

// 8 filters per group (RegNet's groups): the CPU keeps the named op (it is
// vectorized along the group's filters); the CUDA configuration takes it tap
// by tap (8 x 3 x 3 = 72 taps).
// CHECK-LABEL: func.func @eight_filters
// CHECK:         linalg.conv_2d_ngchw_gfchw
// CHECK-NOT:     math.fma
// GPU-LABEL:     func.func @eight_filters
// GPU-NOT:       linalg.conv_2d_ngchw_gfchw
// GPU-COUNT-72:  math.fma
func.func @eight_filters(%x: tensor<1x16x9x9xf32>, %w: tensor<2x8x8x3x3xf32>, %acc: tensor<1x2x8x7x7xf32>) -> tensor<1x2x8x7x7xf32> {
  %xg = tensor.expand_shape %x [[0], [1, 2], [3], [4]] output_shape [1, 2, 8, 9, 9] : tensor<1x16x9x9xf32> into tensor<1x2x8x9x9xf32>
  %0 = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%xg, %w : tensor<1x2x8x9x9xf32>, tensor<2x8x8x3x3xf32>) outs(%acc : tensor<1x2x8x7x7xf32>) -> tensor<1x2x8x7x7xf32>
  return %0 : tensor<1x2x8x7x7xf32>
}

// -----

// 32 channels per group by a 3x3 window (288 taps, over max-taps): the
// named op on the CPU, the generic form (loops n, g, f, oh, ow, c, kh, kw)
// for CUDA.
// CHECK-LABEL: func.func @many_channels
// CHECK:         linalg.conv_2d_ngchw_gfchw
// GPU-LABEL:     func.func @many_channels
// GPU-NOT:       linalg.conv_2d_ngchw_gfchw
// GPU:           linalg.generic
// GPU-SAME:        indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d5, d3 + d6, d4 + d7)>, affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d1, d2, d5, d6, d7)>, affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3, d4)>]
// GPU-SAME:        iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]
// GPU-NOT:       math.fma
func.func @many_channels(%x: tensor<1x64x5x5xf32>, %w: tensor<2x2x32x3x3xf32>, %acc: tensor<1x2x2x3x3xf32>) -> tensor<1x2x2x3x3xf32> {
  %xg = tensor.expand_shape %x [[0], [1, 2], [3], [4]] output_shape [1, 2, 32, 5, 5] : tensor<1x64x5x5xf32> into tensor<1x2x32x5x5xf32>
  %0 = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%xg, %w : tensor<1x2x32x5x5xf32>, tensor<2x2x32x3x3xf32>) outs(%acc : tensor<1x2x2x3x3xf32>) -> tensor<1x2x2x3x3xf32>
  return %0 : tensor<1x2x2x3x3xf32>
}

// -----

// An input that is not a view of an NCHW tensor (no strided channel slices
// to take): the named op stays (generic form for CUDA).
// CHECK-LABEL: func.func @not_a_view
// CHECK:         linalg.conv_2d_ngchw_gfchw
// GPU-LABEL:     func.func @not_a_view
// GPU:           linalg.generic
// GPU-NOT:       math.fma
func.func @not_a_view(%xg: tensor<1x2x2x4x4xf32>, %w: tensor<2x2x2x3x3xf32>, %acc: tensor<1x2x2x2x2xf32>) -> tensor<1x2x2x2x2xf32> {
  %0 = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%xg, %w : tensor<1x2x2x4x4xf32>, tensor<2x2x2x3x3xf32>) outs(%acc : tensor<1x2x2x2x2xf32>) -> tensor<1x2x2x2x2xf32>
  return %0 : tensor<1x2x2x2x2xf32>
}

// -----

// Constant weights of a convolution the CPU keeps (8 filters per group):
// the op reads a constant of the [G, F/G, C/G, KH, KW] view (the same
// elements), which the target's packing can lay out for its reads.
// CHECK-LABEL: func.func @constant_weights
// CHECK:         %[[W:.+]] = arith.constant dense<{{\[}}{{\[}}{{\[}}{{\[}}{{\[}}0.000000e+00]]], {{\[}}{{\[}}{{\[}}1.000000e+00]]], {{.+}}, {{\[}}{{\[}}{{\[}}7.000000e+00]]]]]> : tensor<1x8x1x1x1xf32>
// CHECK:         linalg.conv_2d_ngchw_gfchw {{.+}} ins(%{{.+}}, %[[W]] : tensor<1x1x1x1x3xf32>, tensor<1x8x1x1x1xf32>)
// GPU-LABEL:     func.func @constant_weights
// GPU:           linalg.generic
func.func @constant_weights(%x: tensor<1x1x1x3xf32>, %acc: tensor<1x1x8x1x3xf32>) -> tensor<1x1x8x1x3xf32> {
  %w = arith.constant dense<[[[[0.0]]], [[[1.0]]], [[[2.0]]], [[[3.0]]], [[[4.0]]], [[[5.0]]], [[[6.0]]], [[[7.0]]]]> : tensor<8x1x1x1xf32>
  %xg = tensor.expand_shape %x [[0], [1, 2], [3], [4]] output_shape [1, 1, 1, 1, 3] : tensor<1x1x1x3xf32> into tensor<1x1x1x1x3xf32>
  %wg = tensor.expand_shape %w [[0, 1], [2], [3], [4]] output_shape [1, 8, 1, 1, 1] : tensor<8x1x1x1xf32> into tensor<1x8x1x1x1xf32>
  %0 = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%xg, %wg : tensor<1x1x1x1x3xf32>, tensor<1x8x1x1x1xf32>) outs(%acc : tensor<1x1x8x1x3xf32>) -> tensor<1x1x8x1x3xf32>
  return %0 : tensor<1x1x8x1x3xf32>
}
