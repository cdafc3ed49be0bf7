// RUN: dlc-opt %s -split-input-file --dlc-lower-to-linalg --mlir-print-local-scope | FileCheck %s

// No transposes, alpha = beta = 1, no C: just linalg.matmul.
// CHECK-LABEL: func.func @gemm_plain
// CHECK-SAME:    (%[[A:.+]]: tensor<2x4xf32>, %[[B:.+]]: tensor<4x3xf32>)
// CHECK:         %[[ACC:.+]] = linalg.fill
// CHECK:         %[[MM:.+]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<2x4xf32>, tensor<4x3xf32>) outs(%[[ACC]] : tensor<2x3xf32>)
// CHECK-NEXT:    return %[[MM]]
func.func @gemm_plain(%a: tensor<2x4xf32>, %b: tensor<4x3xf32>) -> tensor<2x3xf32> {
  %0 = dlc.gemm %a, %b : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// transB: a generic contraction that reads B at (n, k); the 1-D C then
// broadcasts along the rows in an epilogue generic (beta = 1: a plain add).
// CHECK-LABEL: func.func @gemm_transb_bias
// CHECK-SAME:    (%[[A:.+]]: tensor<1x4xf32>, %[[B:.+]]: tensor<3x4xf32>, %[[C:.+]]: tensor<3xf32>)
// CHECK:         %[[ACC:.+]] = linalg.fill
// CHECK:         %[[MM:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-SAME:      ins(%[[A]], %[[B]] : tensor<1x4xf32>, tensor<3x4xf32>) outs(%[[ACC]] : tensor<1x3xf32>)
// CHECK:           arith.mulf
// CHECK:           arith.addf
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK-SAME:      ins(%[[MM]], %[[C]] : tensor<1x3xf32>, tensor<3xf32>)
// CHECK:         ^bb0(%[[X:.+]]: f32, %[[Y:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT:      %[[S:.+]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK-NEXT:      linalg.yield %[[S]] : f32
// CHECK:         return %[[R]]
func.func @gemm_transb_bias(%a: tensor<1x4xf32>, %b: tensor<3x4xf32>, %c: tensor<3xf32>) -> tensor<1x3xf32> {
  %0 = dlc.gemm %a, %b, %c {transB = true} : (tensor<1x4xf32>, tensor<3x4xf32>, tensor<3xf32>) -> tensor<1x3xf32>
  return %0 : tensor<1x3xf32>
}

// -----

// transA reads A at (k, m).
// CHECK-LABEL: func.func @gemm_transa
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
// CHECK-SAME:      ins(%{{.+}}, %{{.+}} : tensor<4x2xf32>, tensor<4x3xf32>)
// CHECK-NOT:     linalg.matmul
func.func @gemm_transa(%a: tensor<4x2xf32>, %b: tensor<4x3xf32>) -> tensor<2x3xf32> {
  %0 = dlc.gemm %a, %b {transA = true} : (tensor<4x2xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Both transposed.
// CHECK-LABEL: func.func @gemm_transab
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
func.func @gemm_transab(%a: tensor<4x2xf32>, %b: tensor<3x4xf32>) -> tensor<2x3xf32> {
  %0 = dlc.gemm %a, %b {transA = true, transB = true} : (tensor<4x2xf32>, tensor<3x4xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// alpha and beta scale the product and C in the epilogue.
// CHECK-LABEL: func.func @gemm_alpha_beta
// CHECK-SAME:    (%[[A:.+]]: tensor<2x4xf32>, %[[B:.+]]: tensor<4x3xf32>, %[[C:.+]]: tensor<2x3xf32>)
// CHECK:         %[[MM:.+]] = linalg.matmul
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%[[MM]], %[[C]] : tensor<2x3xf32>, tensor<2x3xf32>)
// CHECK:         ^bb0(%[[X:.+]]: f32, %[[Y:.+]]: f32, %{{.+}}: f32):
// CHECK:           %[[ALPHA:.+]] = arith.constant 2.000000e+00 : f32
// CHECK:           %[[AX:.+]] = arith.mulf %[[X]], %[[ALPHA]] : f32
// CHECK:           %[[BETA:.+]] = arith.constant 5.000000e-01 : f32
// CHECK:           %[[BY:.+]] = arith.mulf %[[Y]], %[[BETA]] : f32
// CHECK:           %[[S:.+]] = arith.addf %[[AX]], %[[BY]] : f32
// CHECK:           linalg.yield %[[S]] : f32
func.func @gemm_alpha_beta(%a: tensor<2x4xf32>, %b: tensor<4x3xf32>, %c: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = dlc.gemm %a, %b, %c {alpha = 2.0 : f32, beta = 0.5 : f32} : (tensor<2x4xf32>, tensor<4x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// alpha without C: the epilogue only scales.
// CHECK-LABEL: func.func @gemm_alpha_only
// CHECK:         %[[MM:.+]] = linalg.matmul
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%[[MM]] : tensor<2x3xf32>)
// CHECK:           %[[ALPHA:.+]] = arith.constant 2.500000e-01 : f32
// CHECK:           %[[AX:.+]] = arith.mulf %{{.+}}, %[[ALPHA]] : f32
// CHECK-NEXT:      linalg.yield %[[AX]] : f32
func.func @gemm_alpha_only(%a: tensor<2x4xf32>, %b: tensor<4x3xf32>) -> tensor<2x3xf32> {
  %0 = dlc.gemm %a, %b {alpha = 0.25 : f32} : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// beta = 0 drops C entirely: no epilogue.
// CHECK-LABEL: func.func @gemm_beta_zero
// CHECK:         %[[MM:.+]] = linalg.matmul
// CHECK-NEXT:    return %[[MM]]
func.func @gemm_beta_zero(%a: tensor<2x4xf32>, %b: tensor<4x3xf32>, %c: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = dlc.gemm %a, %b, %c {beta = 0.0 : f32} : (tensor<2x4xf32>, tensor<4x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// A column C (Mx1) broadcasts along the columns.
// CHECK-LABEL: func.func @gemm_column_c
// CHECK:         linalg.matmul
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>]
func.func @gemm_column_c(%a: tensor<2x4xf32>, %b: tensor<4x3xf32>, %c: tensor<2x1xf32>) -> tensor<2x3xf32> {
  %0 = dlc.gemm %a, %b, %c : (tensor<2x4xf32>, tensor<4x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
