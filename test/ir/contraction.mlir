// Round trip of dlc.matmul (2-D, 1-D promotion, broadcast batch) and dlc.gemm.
// RUN: dlc-opt %s | dlc-opt | FileCheck %s

// CHECK-LABEL: func.func @matmul_2d
// CHECK-SAME: (%[[A:.+]]: tensor<2x3xf32>, %[[B:.+]]: tensor<3x4xf32>)
func.func @matmul_2d(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  // CHECK: dlc.matmul %[[A]], %[[B]] : tensor<2x3xf32>, tensor<3x4xf32> -> tensor<2x4xf32>
  %0 = dlc.matmul %a, %b : tensor<2x3xf32>, tensor<3x4xf32> -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// 1-D operands are promoted and the promoted dimension is dropped again.
// CHECK-LABEL: func.func @matmul_1d
func.func @matmul_1d(%v: tensor<3xf32>, %m: tensor<3x4xf32>, %n: tensor<2x3xf32>)
    -> (tensor<4xf32>, tensor<2xf32>, tensor<f32>) {
  // CHECK: dlc.matmul %{{.+}}, %{{.+}} : tensor<3xf32>, tensor<3x4xf32> -> tensor<4xf32>
  %0 = dlc.matmul %v, %m : tensor<3xf32>, tensor<3x4xf32> -> tensor<4xf32>
  // CHECK: dlc.matmul %{{.+}}, %{{.+}} : tensor<2x3xf32>, tensor<3xf32> -> tensor<2xf32>
  %1 = dlc.matmul %n, %v : tensor<2x3xf32>, tensor<3xf32> -> tensor<2xf32>
  // CHECK: dlc.matmul %{{.+}}, %{{.+}} : tensor<3xf32>, tensor<3xf32> -> tensor<f32>
  %2 = dlc.matmul %v, %v : tensor<3xf32>, tensor<3xf32> -> tensor<f32>
  return %0, %1, %2 : tensor<4xf32>, tensor<2xf32>, tensor<f32>
}

// Batch dimensions broadcast; a 2-D operand is reused for every batch.
// CHECK-LABEL: func.func @matmul_batch
func.func @matmul_batch(%a: tensor<5x1x2x3xf32>, %b: tensor<4x3x6xf32>,
                        %c: tensor<3x6xf32>, %v: tensor<3xf32>)
    -> (tensor<5x4x2x6xf32>, tensor<5x1x2x6xf32>, tensor<4x6xf32>) {
  // CHECK: dlc.matmul %{{.+}}, %{{.+}} : tensor<5x1x2x3xf32>, tensor<4x3x6xf32> -> tensor<5x4x2x6xf32>
  %0 = dlc.matmul %a, %b : tensor<5x1x2x3xf32>, tensor<4x3x6xf32> -> tensor<5x4x2x6xf32>
  // CHECK: dlc.matmul %{{.+}}, %{{.+}} : tensor<5x1x2x3xf32>, tensor<3x6xf32> -> tensor<5x1x2x6xf32>
  %1 = dlc.matmul %a, %c : tensor<5x1x2x3xf32>, tensor<3x6xf32> -> tensor<5x1x2x6xf32>
  // CHECK: dlc.matmul %{{.+}}, %{{.+}} : tensor<3xf32>, tensor<4x3x6xf32> -> tensor<4x6xf32>
  %2 = dlc.matmul %v, %b : tensor<3xf32>, tensor<4x3x6xf32> -> tensor<4x6xf32>
  return %0, %1, %2 : tensor<5x4x2x6xf32>, tensor<5x1x2x6xf32>, tensor<4x6xf32>
}

// CHECK-LABEL: func.func @gemm
// CHECK-SAME: (%[[A:.+]]: tensor<1x4xf32>, %[[B:.+]]: tensor<3x4xf32>, %[[C:.+]]: tensor<3xf32>, %[[AT:.+]]: tensor<4x2xf32>, %[[BN:.+]]: tensor<4x3xf32>, %[[C2:.+]]: tensor<2x1xf32>)
func.func @gemm(%a: tensor<1x4xf32>, %b: tensor<3x4xf32>, %c: tensor<3xf32>,
                %at: tensor<4x2xf32>, %bn: tensor<4x3xf32>, %c2: tensor<2x1xf32>)
    -> (tensor<1x3xf32>, tensor<1x3xf32>, tensor<2x3xf32>) {
  // CHECK: dlc.gemm %[[A]], %[[B]], %[[C]] {transB = true} : (tensor<1x4xf32>, tensor<3x4xf32>, tensor<3xf32>) -> tensor<1x3xf32>
  %0 = dlc.gemm %a, %b, %c {transB = true} : (tensor<1x4xf32>, tensor<3x4xf32>, tensor<3xf32>) -> tensor<1x3xf32>
  // Without C; default-valued attributes are elided.
  // CHECK: dlc.gemm %[[A]], %[[BN]] {alpha = 5.000000e-01 : f32} : (tensor<1x4xf32>, tensor<4x3xf32>) -> tensor<1x3xf32>
  %1 = dlc.gemm %a, %bn {alpha = 0.5 : f32, beta = 1.0 : f32, transA = false} : (tensor<1x4xf32>, tensor<4x3xf32>) -> tensor<1x3xf32>
  // transA, and a C that broadcasts along columns.
  // CHECK: dlc.gemm %[[AT]], %[[BN]], %[[C2]] {beta = 2.000000e+00 : f32, transA = true} : (tensor<4x2xf32>, tensor<4x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  %2 = dlc.gemm %at, %bn, %c2 {beta = 2.0 : f32, transA = true} : (tensor<4x2xf32>, tensor<4x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  return %0, %1, %2 : tensor<1x3xf32>, tensor<1x3xf32>, tensor<2x3xf32>
}
