// RUN: dlc-opt %s -split-input-file --dlc-lower-to-linalg --mlir-print-local-scope | FileCheck %s

// 2-D, group 1, with padding and bias: the input is zero-padded with
// tensor.pad, the accumulator starts as the bias broadcast along the channel
// dim, and the convolution is linalg.conv_2d_nchw_fchw.
// CHECK-LABEL: func.func @conv2d_pad_bias
// CHECK-SAME:    (%[[X:.+]]: tensor<1x1x8x8xf32>, %[[W:.+]]: tensor<8x1x3x3xf32>, %[[B:.+]]: tensor<8xf32>)
// CHECK:         %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[PAD:.+]] = tensor.pad %[[X]] low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK:           tensor.yield %[[ZERO]] : f32
// CHECK:         } : tensor<1x1x8x8xf32> to tensor<1x1x10x10xf32>
// CHECK:         %[[EMPTY:.+]] = tensor.empty() : tensor<1x8x8x8xf32>
// CHECK:         %[[INIT:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>]
// CHECK-SAME:      ins(%[[B]] : tensor<8xf32>) outs(%[[EMPTY]] : tensor<1x8x8x8xf32>)
// CHECK:         ^bb0(%[[BV:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT:      linalg.yield %[[BV]] : f32
// CHECK:         %[[CONV:.+]] = linalg.conv_2d_nchw_fchw
// CHECK-SAME:      dilations = dense<1> : tensor<2xi64>
// CHECK-SAME:      strides = dense<1> : tensor<2xi64>
// CHECK-SAME:      ins(%[[PAD]], %[[W]] : tensor<1x1x10x10xf32>, tensor<8x1x3x3xf32>) outs(%[[INIT]] : tensor<1x8x8x8xf32>)
// CHECK-NEXT:    return %[[CONV]]
func.func @conv2d_pad_bias(%x: tensor<1x1x8x8xf32>, %w: tensor<8x1x3x3xf32>, %b: tensor<8xf32>) -> tensor<1x8x8x8xf32> {
  %0 = dlc.conv %x, %w, %b {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64}
       : (tensor<1x1x8x8xf32>, tensor<8x1x3x3xf32>, tensor<8xf32>) -> tensor<1x8x8x8xf32>
  return %0 : tensor<1x8x8x8xf32>
}

// -----

// No padding: no tensor.pad. No bias: a zero fill. Strides and dilations
// become the named op's attributes.
// CHECK-LABEL: func.func @conv2d_stride_dilation
// CHECK-SAME:    (%[[X:.+]]: tensor<1x2x9x9xf32>, %[[W:.+]]: tensor<4x2x3x3xf32>)
// CHECK-NOT:     tensor.pad
// CHECK:         %[[ACC:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<1x4x3x4xf32>)
// CHECK:         linalg.conv_2d_nchw_fchw
// CHECK-SAME:      dilations = dense<[2, 1]> : tensor<2xi64>
// CHECK-SAME:      strides = dense<2> : tensor<2xi64>
// CHECK-SAME:      ins(%[[X]], %[[W]] : tensor<1x2x9x9xf32>, tensor<4x2x3x3xf32>) outs(%[[ACC]] : tensor<1x4x3x4xf32>)
func.func @conv2d_stride_dilation(%x: tensor<1x2x9x9xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<1x4x3x4xf32> {
  %0 = dlc.conv %x, %w {strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 2, 1>, group = 1 : i64}
       : (tensor<1x2x9x9xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x3x4xf32>
  return %0 : tensor<1x4x3x4xf32>
}

// -----

// Asymmetric pads: begin values first, then end values.
// CHECK-LABEL: func.func @conv2d_asymmetric_pad
// CHECK:         tensor.pad %{{.+}} low[0, 0, 1, 0] high[0, 0, 0, 2]
// CHECK:         } : tensor<1x1x4x4xf32> to tensor<1x1x5x6xf32>
// CHECK:         linalg.conv_2d_nchw_fchw
func.func @conv2d_asymmetric_pad(%x: tensor<1x1x4x4xf32>, %w: tensor<1x1x2x2xf32>) -> tensor<1x1x4x5xf32> {
  %0 = dlc.conv %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 1, 0, 0, 2>, dilations = array<i64: 1, 1>, group = 1 : i64}
       : (tensor<1x1x4x4xf32>, tensor<1x1x2x2xf32>) -> tensor<1x1x4x5xf32>
  return %0 : tensor<1x1x4x5xf32>
}

// -----

// Depthwise (group = C = 4, one filter per channel), stride 2, dilation
// (1, 2): one elementwise fused multiply-add per window tap (3 x 3), reading a
// strided slice of the input at offset (kh, 2 * kw) and the tap's column
// of filters; the running sum is an input so the taps fuse into one op.
// CHECK-LABEL: func.func @conv2d_depthwise
// CHECK-SAME:    (%[[X:.+]]: tensor<1x4x9x9xf32>, %[[W:.+]]: tensor<4x1x3x3xf32>)
// CHECK-NOT:     linalg.conv_2d_nchw_fchw
// CHECK:         %[[ACC:.+]] = linalg.fill
// CHECK:         %[[X0:.+]] = tensor.extract_slice %[[X]][0, 0, 0, 0] [1, 4, 4, 3] [1, 1, 2, 2] : tensor<1x4x9x9xf32> to tensor<1x4x4x3xf32>
// CHECK:         %[[W0:.+]] = tensor.extract_slice %[[W]][0, 0, 0, 0] [4, 1, 1, 1] [1, 1, 1, 1] : tensor<4x1x3x3xf32> to tensor<4xf32>
// CHECK:         %[[T0:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>]
// CHECK-SAME:      ins(%[[X0]], %[[W0]], %[[ACC]] : tensor<1x4x4x3xf32>, tensor<4xf32>, tensor<1x4x4x3xf32>)
// CHECK:         ^bb0(%[[I:.+]]: f32, %[[K:.+]]: f32, %[[S:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT:      %[[A:.+]] = math.fma %[[I]], %[[K]], %[[S]] : f32
// CHECK-NEXT:      linalg.yield %[[A]] : f32
// CHECK:         tensor.extract_slice %[[X]][0, 0, 0, 2] [1, 4, 4, 3] [1, 1, 2, 2]
// CHECK:         tensor.extract_slice %[[W]][0, 0, 0, 1] [4, 1, 1, 1]
// CHECK-COUNT-7: linalg.generic
// CHECK:         %[[XL:.+]] = tensor.extract_slice %[[X]][0, 0, 2, 4] [1, 4, 4, 3] [1, 1, 2, 2]
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK-SAME:      ins(%[[XL]], %{{.+}}, %{{.+}} :
// CHECK-NOT:     linalg.generic
// CHECK:         return %[[R]]
func.func @conv2d_depthwise(%x: tensor<1x4x9x9xf32>, %w: tensor<4x1x3x3xf32>) -> tensor<1x4x4x3xf32> {
  %0 = dlc.conv %x, %w {strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 2>, group = 4 : i64}
       : (tensor<1x4x9x9xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x4x3xf32>
  return %0 : tensor<1x4x4x3xf32>
}

// -----

// Grouped (group = 2 of 4 channels, 6 filters) with stride, dilation, pads
// and bias: linalg.conv_2d_ngchw_gfchw over [N, G, C/G, H, W] views of the
// padded input, the weights and the accumulator (the bias broadcast), the
// result collapsed back (how it runs is the target's choice:
// dlc-grouped-conv-taps).
// CHECK-LABEL: func.func @conv2d_grouped
// CHECK-SAME:    (%[[X:.+]]: tensor<1x4x7x7xf32>, %[[W:.+]]: tensor<6x2x3x3xf32>, %[[B:.+]]: tensor<6xf32>)
// CHECK:         %[[PAD:.+]] = tensor.pad %[[X]] low[0, 0, 1, 0] high[0, 0, 0, 1]
// CHECK:         %[[INIT:.+]] = linalg.generic
// CHECK-SAME:      ins(%[[B]] : tensor<6xf32>)
// CHECK:         %[[AG:.+]] = tensor.expand_shape %[[INIT]] {{\[\[}}0], [1, 2], [3], [4]] output_shape [1, 2, 3, 3, 2] : tensor<1x6x3x2xf32> into tensor<1x2x3x3x2xf32>
// CHECK:         %[[XG:.+]] = tensor.expand_shape %[[PAD]] {{\[\[}}0], [1, 2], [3], [4]] output_shape [1, 2, 2, 8, 8] : tensor<1x4x8x8xf32> into tensor<1x2x2x8x8xf32>
// CHECK:         %[[WG:.+]] = tensor.expand_shape %[[W]] {{\[\[}}0, 1], [2], [3], [4]] output_shape [2, 3, 2, 3, 3] : tensor<6x2x3x3xf32> into tensor<2x3x2x3x3xf32>
// CHECK:         %[[Y:.+]] = linalg.conv_2d_ngchw_gfchw {dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[XG]], %[[WG]] : tensor<1x2x2x8x8xf32>, tensor<2x3x2x3x3xf32>) outs(%[[AG]] : tensor<1x2x3x3x2xf32>)
// CHECK:         tensor.collapse_shape %[[Y]] {{\[\[}}0], [1, 2], [3], [4]] : tensor<1x2x3x3x2xf32> into tensor<1x6x3x2xf32>
func.func @conv2d_grouped(%x: tensor<1x4x7x7xf32>, %w: tensor<6x2x3x3xf32>, %b: tensor<6xf32>) -> tensor<1x6x3x2xf32> {
  %0 = dlc.conv %x, %w, %b {strides = array<i64: 2, 2>, pads = array<i64: 1, 0, 0, 1>, dilations = array<i64: 1, 2>, group = 2 : i64}
       : (tensor<1x4x7x7xf32>, tensor<6x2x3x3xf32>, tensor<6xf32>) -> tensor<1x6x3x2xf32>
  return %0 : tensor<1x6x3x2xf32>
}

// -----

// Grouped with a dynamic batch: the grouped generic form over [N, G, C/G,
// ...] views, strides and dilations in the input map.
// CHECK-LABEL: func.func @conv2d_grouped_dynamic
// CHECK-NOT:     linalg.conv_
// CHECK-DAG:     tensor.expand_shape %{{.+}} {{\[\[}}0], [1, 2], [3], [4]] output_shape [%{{.+}}, 2, 32, 5, 5]
// CHECK-DAG:     tensor.expand_shape %{{.+}} {{\[\[}}0, 1], [2], [3], [4]] output_shape [2, 2, 32, 3, 3]
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d5, d3 + d6, d4 + d7)>, affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d1, d2, d5, d6, d7)>, affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3, d4)>]
// CHECK-SAME:      outs(%{{.+}} : tensor<?x2x2x3x3xf32>)
// CHECK:         tensor.collapse_shape %{{.+}} : tensor<?x2x2x3x3xf32> into tensor<?x4x3x3xf32>
func.func @conv2d_grouped_dynamic(%x: tensor<?x64x5x5xf32>, %w: tensor<4x32x3x3xf32>) -> tensor<?x4x3x3xf32> {
  %0 = dlc.conv %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 2 : i64}
       : (tensor<?x64x5x5xf32>, tensor<4x32x3x3xf32>) -> tensor<?x4x3x3xf32>
  return %0 : tensor<?x4x3x3xf32>
}
// -----

// 1-D convolution (group 1): the generic form with one group, stride 2 and
// dilation 2 in the input map.
// CHECK-LABEL: func.func @conv1d
// CHECK-NOT:     linalg.conv_
// CHECK:         tensor.expand_shape %{{.+}} {{\[\[}}0], [1, 2], [3]] output_shape [1, 1, 2, 10] : tensor<1x2x10xf32> into tensor<1x1x2x10xf32>
// CHECK:         tensor.expand_shape %{{.+}} {{\[\[}}0, 1], [2], [3]] output_shape [1, 3, 2, 3] : tensor<3x2x3xf32> into tensor<1x3x2x3xf32>
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d4, d3 * 2 + d5 * 2)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>]
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]
// CHECK:         tensor.collapse_shape %{{.+}} {{\[\[}}0], [1, 2], [3]] : tensor<1x1x3x3xf32> into tensor<1x3x3xf32>
func.func @conv1d(%x: tensor<1x2x10xf32>, %w: tensor<3x2x3xf32>, %b: tensor<3xf32>) -> tensor<1x3x3xf32> {
  %0 = dlc.conv %x, %w, %b {strides = array<i64: 2>, pads = array<i64: 0, 0>, dilations = array<i64: 2>, group = 1 : i64}
       : (tensor<1x2x10xf32>, tensor<3x2x3xf32>, tensor<3xf32>) -> tensor<1x3x3xf32>
  return %0 : tensor<1x3x3xf32>
}

// -----

// 3-D convolution: loops (n, g, f, od, oh, ow, c, kd, kh, kw).
// CHECK-LABEL: func.func @conv3d
// CHECK-NOT:     linalg.conv_
// CHECK:         tensor.pad %{{.+}} low[0, 0, 1, 0, 0] high[0, 0, 1, 0, 0]
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8, d9) -> (d0, d1, d6, d3 + d7, d4 + d8, d5 + d9)>, affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8, d9) -> (d1, d2, d6, d7, d8, d9)>, affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8, d9) -> (d0, d1, d2, d3, d4, d5)>]
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]
// CHECK-SAME:      outs(%{{.+}} : tensor<1x1x2x5x3x3xf32>)
// CHECK:         tensor.collapse_shape %{{.+}} {{\[\[}}0], [1, 2], [3], [4], [5]] : tensor<1x1x2x5x3x3xf32> into tensor<1x2x5x3x3xf32>
func.func @conv3d(%x: tensor<1x1x4x4x4xf32>, %w: tensor<2x1x2x2x2xf32>) -> tensor<1x2x5x3x3xf32> {
  %0 = dlc.conv %x, %w {strides = array<i64: 1, 1, 1>, pads = array<i64: 1, 0, 0, 1, 0, 0>, dilations = array<i64: 1, 1, 1>, group = 1 : i64}
       : (tensor<1x1x4x4x4xf32>, tensor<2x1x2x2x2xf32>) -> tensor<1x2x5x3x3xf32>
  return %0 : tensor<1x2x5x3x3xf32>
}
