// Round trip of the sliding-window ops: dlc.conv, dlc.max_pool, dlc.avg_pool
// and dlc.global_avg_pool, with the output sizes their inference computes.
// RUN: dlc-opt %s | dlc-opt | FileCheck %s

// CHECK-LABEL: func.func @conv
// CHECK-SAME: (%[[X:.+]]: tensor<1x1x8x8xf32>, %[[W:.+]]: tensor<8x1x3x3xf32>, %[[B:.+]]: tensor<8xf32>)
func.func @conv(%x: tensor<1x1x8x8xf32>, %w: tensor<8x1x3x3xf32>, %b: tensor<8xf32>)
    -> (tensor<1x8x8x8xf32>, tensor<1x8x3x2xf32>) {
  // CHECK: dlc.conv %[[X]], %[[W]], %[[B]] {dilations = array<i64: 1, 1>, group = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>}
  // CHECK-SAME: : (tensor<1x1x8x8xf32>, tensor<8x1x3x3xf32>, tensor<8xf32>) -> tensor<1x8x8x8xf32>
  %0 = dlc.conv %x, %w, %b {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>,
                            dilations = array<i64: 1, 1>, group = 1 : i64}
      : (tensor<1x1x8x8xf32>, tensor<8x1x3x3xf32>, tensor<8xf32>) -> tensor<1x8x8x8xf32>
  // No bias; strides 2x3, dilation 2 along H, pads [H begin, W begin, H end, W end]:
  //   H: (8 + 1 + 0 - 5) / 2 + 1 = 3;  W: (8 - 3) / 3 + 1 = 2.
  // CHECK: dlc.conv %[[X]], %[[W]] {dilations = array<i64: 2, 1>, group = 1 : i64, pads = array<i64: 1, 0, 0, 0>, strides = array<i64: 2, 3>}
  // CHECK-SAME: : (tensor<1x1x8x8xf32>, tensor<8x1x3x3xf32>) -> tensor<1x8x3x2xf32>
  %1 = dlc.conv %x, %w {strides = array<i64: 2, 3>, pads = array<i64: 1, 0, 0, 0>,
                        dilations = array<i64: 2, 1>, group = 1 : i64}
      : (tensor<1x1x8x8xf32>, tensor<8x1x3x3xf32>) -> tensor<1x8x3x2xf32>
  return %0, %1 : tensor<1x8x8x8xf32>, tensor<1x8x3x2xf32>
}

// Grouped (depthwise) convolution: 4 input channels, group 4, weight 8x1.
// CHECK-LABEL: func.func @conv_group
func.func @conv_group(%x: tensor<2x4x5x5xf32>, %w: tensor<8x1x3x3xf32>) -> tensor<2x8x3x3xf32> {
  // CHECK: dlc.conv %{{.+}}, %{{.+}} {{{.*}}group = 4 : i64{{.*}}} : (tensor<2x4x5x5xf32>, tensor<8x1x3x3xf32>) -> tensor<2x8x3x3xf32>
  %0 = dlc.conv %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>,
                        dilations = array<i64: 1, 1>, group = 4 : i64}
      : (tensor<2x4x5x5xf32>, tensor<8x1x3x3xf32>) -> tensor<2x8x3x3xf32>
  return %0 : tensor<2x8x3x3xf32>
}

// 1-D and 3-D convolutions, and a dynamic batch size.
// CHECK-LABEL: func.func @conv_nd
func.func @conv_nd(%x1: tensor<?x2x10xf32>, %w1: tensor<4x2x3xf32>,
                   %x3: tensor<1x2x4x4x4xf32>, %w3: tensor<3x2x2x2x2xf32>)
    -> (tensor<?x4x8xf32>, tensor<1x3x2x2x2xf32>) {
  // CHECK: dlc.conv {{.+}} : (tensor<?x2x10xf32>, tensor<4x2x3xf32>) -> tensor<?x4x8xf32>
  %0 = dlc.conv %x1, %w1 {strides = array<i64: 1>, pads = array<i64: 0, 0>,
                          dilations = array<i64: 1>, group = 1 : i64}
      : (tensor<?x2x10xf32>, tensor<4x2x3xf32>) -> tensor<?x4x8xf32>
  // CHECK: dlc.conv {{.+}} : (tensor<1x2x4x4x4xf32>, tensor<3x2x2x2x2xf32>) -> tensor<1x3x2x2x2xf32>
  %1 = dlc.conv %x3, %w3 {strides = array<i64: 2, 2, 2>, pads = array<i64: 0, 0, 0, 0, 0, 0>,
                          dilations = array<i64: 1, 1, 1>, group = 1 : i64}
      : (tensor<1x2x4x4x4xf32>, tensor<3x2x2x2x2xf32>) -> tensor<1x3x2x2x2xf32>
  return %0, %1 : tensor<?x4x8xf32>, tensor<1x3x2x2x2xf32>
}

// CHECK-LABEL: func.func @max_pool
// CHECK-SAME: (%[[X:.+]]: tensor<1x3x5x5xf32>)
func.func @max_pool(%x: tensor<1x3x5x5xf32>)
    -> (tensor<1x3x2x2xf32>, tensor<1x3x3x3xf32>, tensor<1x3x2x2xf32>) {
  // Default false ceil_mode / count_include_pad are elided.
  // CHECK: dlc.max_pool %[[X]] {dilations = array<i64: 1, 1>, kernel_shape = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>} : tensor<1x3x5x5xf32> -> tensor<1x3x2x2xf32>
  %0 = dlc.max_pool %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>,
                        pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>}
      : tensor<1x3x5x5xf32> -> tensor<1x3x2x2xf32>
  // ceil_mode rounds up: (5 - 2) / 2 rounded up + 1 = 3.
  // CHECK: dlc.max_pool %[[X]] {ceil_mode = true, {{.*}}} : tensor<1x3x5x5xf32> -> tensor<1x3x3x3xf32>
  %1 = dlc.max_pool %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>,
                        pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>,
                        ceil_mode = true}
      : tensor<1x3x5x5xf32> -> tensor<1x3x3x3xf32>
  // ceil_mode with a last window that would start in the end padding: it is
  // dropped, (5 + 1 - 2) / 3 rounded up + 1 = 3 becomes 2.
  // CHECK: dlc.max_pool %[[X]] {ceil_mode = true, {{.*}}} : tensor<1x3x5x5xf32> -> tensor<1x3x2x2xf32>
  %2 = dlc.max_pool %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 3, 3>,
                        pads = array<i64: 0, 0, 1, 1>, dilations = array<i64: 1, 1>,
                        ceil_mode = true}
      : tensor<1x3x5x5xf32> -> tensor<1x3x2x2xf32>
  return %0, %1, %2 : tensor<1x3x2x2xf32>, tensor<1x3x3x3xf32>, tensor<1x3x2x2xf32>
}

// CHECK-LABEL: func.func @avg_pool
func.func @avg_pool(%x: tensor<1x3x4x4xf32>, %y: tensor<2x3x9xf32>)
    -> (tensor<1x3x4x4xf32>, tensor<2x3x3xf32>) {
  // CHECK: dlc.avg_pool %{{.+}} {count_include_pad = true, dilations = array<i64: 1, 1>, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : tensor<1x3x4x4xf32> -> tensor<1x3x4x4xf32>
  %0 = dlc.avg_pool %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 1, 1>,
                        pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>,
                        count_include_pad = true}
      : tensor<1x3x4x4xf32> -> tensor<1x3x4x4xf32>
  // 1-D pooling.
  // CHECK: dlc.avg_pool %{{.+}} {{{.*}}} : tensor<2x3x9xf32> -> tensor<2x3x3xf32>
  %1 = dlc.avg_pool %y {kernel_shape = array<i64: 3>, strides = array<i64: 3>,
                        pads = array<i64: 0, 0>, dilations = array<i64: 1>}
      : tensor<2x3x9xf32> -> tensor<2x3x3xf32>
  return %0, %1 : tensor<1x3x4x4xf32>, tensor<2x3x3xf32>
}

// CHECK-LABEL: func.func @global_avg_pool
func.func @global_avg_pool(%x: tensor<1x8x4x4xf32>, %y: tensor<2x3x7xf32>)
    -> (tensor<1x8x1x1xf32>, tensor<2x3x1xf32>) {
  // CHECK: dlc.global_avg_pool %{{.+}} : tensor<1x8x4x4xf32> -> tensor<1x8x1x1xf32>
  %0 = dlc.global_avg_pool %x : tensor<1x8x4x4xf32> -> tensor<1x8x1x1xf32>
  // CHECK: dlc.global_avg_pool %{{.+}} : tensor<2x3x7xf32> -> tensor<2x3x1xf32>
  %1 = dlc.global_avg_pool %y : tensor<2x3x7xf32> -> tensor<2x3x1xf32>
  return %0, %1 : tensor<1x8x1x1xf32>, tensor<2x3x1xf32>
}
