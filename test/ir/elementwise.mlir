// Round trip of the elementwise ops: binary ops with numpy broadcasting and
// the unary activations.
// RUN: dlc-opt %s | dlc-opt | FileCheck %s

// CHECK-LABEL: func.func @binary
// CHECK-SAME: (%[[A:.+]]: tensor<2x3xf32>, %[[B:.+]]: tensor<3xf32>)
func.func @binary(%a: tensor<2x3xf32>, %b: tensor<3xf32>)
    -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  // CHECK: dlc.add %[[A]], %[[B]] : tensor<2x3xf32>, tensor<3xf32> -> tensor<2x3xf32>
  %0 = dlc.add %a, %b : tensor<2x3xf32>, tensor<3xf32> -> tensor<2x3xf32>
  // CHECK: dlc.sub %[[B]], %[[A]] : tensor<3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  %1 = dlc.sub %b, %a : tensor<3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  // CHECK: dlc.mul %[[A]], %[[A]] : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  %2 = dlc.mul %a, %a : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  // CHECK: dlc.div %[[A]], %[[B]] : tensor<2x3xf32>, tensor<3xf32> -> tensor<2x3xf32>
  %3 = dlc.div %a, %b : tensor<2x3xf32>, tensor<3xf32> -> tensor<2x3xf32>
  return %0, %1, %2, %3 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// Both operands broadcast (size-1 dims on each side), scalars and integers.
// CHECK-LABEL: func.func @broadcast_both
func.func @broadcast_both(%a: tensor<4x1xf32>, %b: tensor<1x5xf32>,
                          %s: tensor<f32>, %i: tensor<2x1xi64>, %j: tensor<3xi64>)
    -> (tensor<4x5xf32>, tensor<4x1xf32>, tensor<2x3xi64>) {
  // CHECK: dlc.add %{{.+}}, %{{.+}} : tensor<4x1xf32>, tensor<1x5xf32> -> tensor<4x5xf32>
  %0 = dlc.add %a, %b : tensor<4x1xf32>, tensor<1x5xf32> -> tensor<4x5xf32>
  // CHECK: dlc.mul %{{.+}}, %{{.+}} : tensor<f32>, tensor<4x1xf32> -> tensor<4x1xf32>
  %1 = dlc.mul %s, %a : tensor<f32>, tensor<4x1xf32> -> tensor<4x1xf32>
  // CHECK: dlc.sub %{{.+}}, %{{.+}} : tensor<2x1xi64>, tensor<3xi64> -> tensor<2x3xi64>
  %2 = dlc.sub %i, %j : tensor<2x1xi64>, tensor<3xi64> -> tensor<2x3xi64>
  return %0, %1, %2 : tensor<4x5xf32>, tensor<4x1xf32>, tensor<2x3xi64>
}

// Dynamic dimensions broadcast against static ones.
// CHECK-LABEL: func.func @dynamic
func.func @dynamic(%a: tensor<?x3xf32>, %b: tensor<3xf32>) -> tensor<?x3xf32> {
  // CHECK: dlc.add %{{.+}}, %{{.+}} : tensor<?x3xf32>, tensor<3xf32> -> tensor<?x3xf32>
  %0 = dlc.add %a, %b : tensor<?x3xf32>, tensor<3xf32> -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// CHECK-LABEL: func.func @unary
// CHECK-SAME: (%[[X:.+]]: tensor<1x4xf32>)
func.func @unary(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  // CHECK: %[[R:.+]] = dlc.relu %[[X]] : tensor<1x4xf32>
  %0 = dlc.relu %x : tensor<1x4xf32>
  // CHECK: %[[S:.+]] = dlc.sigmoid %[[R]] : tensor<1x4xf32>
  %1 = dlc.sigmoid %0 : tensor<1x4xf32>
  // CHECK: %[[T:.+]] = dlc.tanh %[[S]] : tensor<1x4xf32>
  %2 = dlc.tanh %1 : tensor<1x4xf32>
  // CHECK: return %[[T]]
  return %2 : tensor<1x4xf32>
}

// CHECK-LABEL: func.func @unary_f16
func.func @unary_f16(%x: tensor<8xf16>) -> tensor<8xf16> {
  // CHECK: dlc.relu %{{.+}} : tensor<8xf16>
  %0 = dlc.relu %x : tensor<8xf16>
  return %0 : tensor<8xf16>
}
