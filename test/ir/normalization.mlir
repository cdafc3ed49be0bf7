// Round trip of dlc.batch_norm and dlc.softmax (per-axis and trailing forms).
// RUN: dlc-opt %s | dlc-opt | FileCheck %s

// CHECK-LABEL: func.func @batch_norm
// CHECK-SAME: (%[[X:.+]]: tensor<1x8x4x4xf32>, %[[S:.+]]: tensor<8xf32>, %[[B:.+]]: tensor<8xf32>, %[[M:.+]]: tensor<8xf32>, %[[V:.+]]: tensor<8xf32>)
func.func @batch_norm(%x: tensor<1x8x4x4xf32>, %s: tensor<8xf32>, %b: tensor<8xf32>,
                      %m: tensor<8xf32>, %v: tensor<8xf32>) -> tensor<1x8x4x4xf32> {
  // CHECK: dlc.batch_norm %[[X]], %[[S]], %[[B]], %[[M]], %[[V]] {epsilon = 9.99999974E-6 : f32} : tensor<1x8x4x4xf32>, tensor<8xf32>
  %0 = dlc.batch_norm %x, %s, %b, %m, %v {epsilon = 1.0e-05 : f32} : tensor<1x8x4x4xf32>, tensor<8xf32>
  return %0 : tensor<1x8x4x4xf32>
}

// A 2-D input (N x C) and a dynamic channel count.
// CHECK-LABEL: func.func @batch_norm_2d
func.func @batch_norm_2d(%x: tensor<3x5xf32>, %p: tensor<5xf32>,
                         %y: tensor<1x?x2xf32>, %q: tensor<7xf32>)
    -> (tensor<3x5xf32>, tensor<1x?x2xf32>) {
  // CHECK: dlc.batch_norm {{.+}} {epsilon = 1.000000e-03 : f32} : tensor<3x5xf32>, tensor<5xf32>
  %0 = dlc.batch_norm %x, %p, %p, %p, %p {epsilon = 1.0e-03 : f32} : tensor<3x5xf32>, tensor<5xf32>
  // CHECK: dlc.batch_norm {{.+}} : tensor<1x?x2xf32>, tensor<7xf32>
  %1 = dlc.batch_norm %y, %q, %q, %q, %q {epsilon = 1.0e-03 : f32} : tensor<1x?x2xf32>, tensor<7xf32>
  return %0, %1 : tensor<3x5xf32>, tensor<1x?x2xf32>
}

// CHECK-LABEL: func.func @softmax
// CHECK-SAME: (%[[X:.+]]: tensor<2x3x4xf32>)
func.func @softmax(%x: tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>) {
  // Softmax-13: one axis.
  // CHECK: dlc.softmax %[[X]] {axis = 2 : i64} : tensor<2x3x4xf32>
  %0 = dlc.softmax %x {axis = 2 : i64} : tensor<2x3x4xf32>
  // CHECK: dlc.softmax %[[X]] {axis = 0 : i64} : tensor<2x3x4xf32>
  %1 = dlc.softmax %x {axis = 0 : i64} : tensor<2x3x4xf32>
  // Softmax-1/11: axis and all trailing axes.
  // CHECK: dlc.softmax %[[X]] {axis = 1 : i64, trailing} : tensor<2x3x4xf32>
  %2 = dlc.softmax %x {axis = 1 : i64, trailing} : tensor<2x3x4xf32>
  return %0, %1, %2 : tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>
}
