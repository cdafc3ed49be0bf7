// Round trip of dlc.reshape, dlc.transpose and dlc.concat.
// RUN: dlc-opt %s | dlc-opt | FileCheck %s

// CHECK-LABEL: func.func @reshape
// CHECK-SAME: (%[[X:.+]]: tensor<1x8x2x2xf32>, %[[D:.+]]: tensor<?x4xf32>, %[[I:.+]]: tensor<6xi64>, %[[N:.+]]: index)
func.func @reshape(%x: tensor<1x8x2x2xf32>, %d: tensor<?x4xf32>, %i: tensor<6xi64>, %n: index)
    -> (tensor<1x32xf32>, tensor<32xf32>, tensor<?x2x2xf32>, tensor<2x3xi64>, tensor<1x1x32x1xf32>) {
  // CHECK: dlc.reshape %[[X]] : tensor<1x8x2x2xf32> -> tensor<1x32xf32>
  %0 = dlc.reshape %x : tensor<1x8x2x2xf32> -> tensor<1x32xf32>
  // CHECK: dlc.reshape %[[X]] : tensor<1x8x2x2xf32> -> tensor<32xf32>
  %1 = dlc.reshape %x : tensor<1x8x2x2xf32> -> tensor<32xf32>
  // Element counts are only checked for static shapes; dynamic result
  // dimensions carry their sizes.
  // CHECK: dlc.reshape %[[D]] sizes(%[[N]]) : tensor<?x4xf32> -> tensor<?x2x2xf32>
  %2 = dlc.reshape %d sizes(%n) : tensor<?x4xf32> -> tensor<?x2x2xf32>
  // CHECK: dlc.reshape %[[I]] : tensor<6xi64> -> tensor<2x3xi64>
  %3 = dlc.reshape %i : tensor<6xi64> -> tensor<2x3xi64>
  // CHECK: dlc.reshape %[[X]] : tensor<1x8x2x2xf32> -> tensor<1x1x32x1xf32>
  %4 = dlc.reshape %x : tensor<1x8x2x2xf32> -> tensor<1x1x32x1xf32>
  return %0, %1, %2, %3, %4 : tensor<1x32xf32>, tensor<32xf32>, tensor<?x2x2xf32>, tensor<2x3xi64>, tensor<1x1x32x1xf32>
}

// CHECK-LABEL: func.func @transpose
// CHECK-SAME: (%[[X:.+]]: tensor<2x3xf32>, %[[Y:.+]]: tensor<2x3x4x5xi32>)
func.func @transpose(%x: tensor<2x3xf32>, %y: tensor<2x3x4x5xi32>)
    -> (tensor<3x2xf32>, tensor<2x4x5x3xi32>, tensor<2x3xf32>) {
  // CHECK: dlc.transpose %[[X]] {perm = array<i64: 1, 0>} : tensor<2x3xf32> -> tensor<3x2xf32>
  %0 = dlc.transpose %x {perm = array<i64: 1, 0>} : tensor<2x3xf32> -> tensor<3x2xf32>
  // CHECK: dlc.transpose %[[Y]] {perm = array<i64: 0, 2, 3, 1>} : tensor<2x3x4x5xi32> -> tensor<2x4x5x3xi32>
  %1 = dlc.transpose %y {perm = array<i64: 0, 2, 3, 1>} : tensor<2x3x4x5xi32> -> tensor<2x4x5x3xi32>
  // The identity permutation is a valid op (it folds away; see canonicalize.mlir).
  // CHECK: dlc.transpose %[[X]] {perm = array<i64: 0, 1>} : tensor<2x3xf32> -> tensor<2x3xf32>
  %2 = dlc.transpose %x {perm = array<i64: 0, 1>} : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0, %1, %2 : tensor<3x2xf32>, tensor<2x4x5x3xi32>, tensor<2x3xf32>
}

// CHECK-LABEL: func.func @concat
// CHECK-SAME: (%[[A:.+]]: tensor<2xf32>, %[[B:.+]]: tensor<3xf32>, %[[C:.+]]: tensor<1x2x4xf32>, %[[D:.+]]: tensor<1x5x4xf32>, %[[E:.+]]: tensor<1x?x4xf32>)
func.func @concat(%a: tensor<2xf32>, %b: tensor<3xf32>, %c: tensor<1x2x4xf32>,
                  %d: tensor<1x5x4xf32>, %e: tensor<1x?x4xf32>)
    -> (tensor<5xf32>, tensor<1x9x4xf32>, tensor<1x?x4xf32>, tensor<2xf32>) {
  // CHECK: dlc.concat %[[A]], %[[B]] {axis = 0 : i64} : (tensor<2xf32>, tensor<3xf32>) -> tensor<5xf32>
  %0 = dlc.concat %a, %b {axis = 0 : i64} : (tensor<2xf32>, tensor<3xf32>) -> tensor<5xf32>
  // Three inputs along the middle axis.
  // CHECK: dlc.concat %[[C]], %[[D]], %[[C]] {axis = 1 : i64} : (tensor<1x2x4xf32>, tensor<1x5x4xf32>, tensor<1x2x4xf32>) -> tensor<1x9x4xf32>
  %1 = dlc.concat %c, %d, %c {axis = 1 : i64} : (tensor<1x2x4xf32>, tensor<1x5x4xf32>, tensor<1x2x4xf32>) -> tensor<1x9x4xf32>
  // A dynamic size along the axis makes the result dynamic there.
  // CHECK: dlc.concat %[[C]], %[[E]] {axis = 1 : i64} : (tensor<1x2x4xf32>, tensor<1x?x4xf32>) -> tensor<1x?x4xf32>
  %2 = dlc.concat %c, %e {axis = 1 : i64} : (tensor<1x2x4xf32>, tensor<1x?x4xf32>) -> tensor<1x?x4xf32>
  // A single input.
  // CHECK: dlc.concat %[[A]] {axis = 0 : i64} : (tensor<2xf32>) -> tensor<2xf32>
  %3 = dlc.concat %a {axis = 0 : i64} : (tensor<2xf32>) -> tensor<2xf32>
  return %0, %1, %2, %3 : tensor<5xf32>, tensor<1x9x4xf32>, tensor<1x?x4xf32>, tensor<2xf32>
}
