// RUN: dlc-opt %s -split-input-file --dlc-lower-to-linalg --mlir-print-local-scope | FileCheck %s

// 2-D x 2-D: linalg.matmul into a zero-filled accumulator.
// CHECK-LABEL: func.func @matmul_2d
// CHECK-SAME:    (%[[A:.+]]: tensor<2x3xf32>, %[[B:.+]]: tensor<3x4xf32>)
// CHECK-DAG:     %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:     %[[EMPTY:.+]] = tensor.empty() : tensor<2x4xf32>
// CHECK:         %[[ACC:.+]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[EMPTY]] : tensor<2x4xf32>)
// CHECK:         %[[MM:.+]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<2x3xf32>, tensor<3x4xf32>) outs(%[[ACC]] : tensor<2x4xf32>)
// CHECK-NEXT:    return %[[MM]]
// CHECK-NOT:     linalg.generic
func.func @matmul_2d(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %0 = dlc.matmul %a, %b : tensor<2x3xf32>, tensor<3x4xf32> -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// A 1-D lhs is promoted to 1xK, and the unit dim dropped from the result.
// CHECK-LABEL: func.func @matmul_vec_mat
// CHECK-SAME:    (%[[A:.+]]: tensor<3xf32>, %[[B:.+]]: tensor<3x4xf32>)
// CHECK:         %[[A2:.+]] = tensor.expand_shape %[[A]] {{\[\[}}0, 1]] output_shape [1, 3] : tensor<3xf32> into tensor<1x3xf32>
// CHECK:         %[[MM:.+]] = linalg.matmul ins(%[[A2]], %[[B]] : tensor<1x3xf32>, tensor<3x4xf32>)
// CHECK:         %[[R:.+]] = tensor.collapse_shape %[[MM]] {{\[\[}}0, 1]] : tensor<1x4xf32> into tensor<4xf32>
// CHECK:         return %[[R]]
func.func @matmul_vec_mat(%a: tensor<3xf32>, %b: tensor<3x4xf32>) -> tensor<4xf32> {
  %0 = dlc.matmul %a, %b : tensor<3xf32>, tensor<3x4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A 1-D rhs is promoted to Kx1.
// CHECK-LABEL: func.func @matmul_mat_vec
// CHECK:         tensor.expand_shape %{{.+}} {{\[\[}}0, 1]] output_shape [3, 1] : tensor<3xf32> into tensor<3x1xf32>
// CHECK:         linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<2x3xf32>, tensor<3x1xf32>)
// CHECK:         tensor.collapse_shape %{{.+}} {{\[\[}}0, 1]] : tensor<2x1xf32> into tensor<2xf32>
func.func @matmul_mat_vec(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2xf32> {
  %0 = dlc.matmul %a, %b : tensor<2x3xf32>, tensor<3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// Batched lhs, 2-D rhs: a generic contraction over (batch, m, n, k); the
// rhs map has no batch dim.
// CHECK-LABEL: func.func @matmul_batched
// CHECK-SAME:    (%[[A:.+]]: tensor<5x2x3xf32>, %[[B:.+]]: tensor<3x4xf32>)
// CHECK:         %[[ACC:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<5x2x4xf32>)
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK-SAME:      ins(%[[A]], %[[B]] : tensor<5x2x3xf32>, tensor<3x4xf32>) outs(%[[ACC]] : tensor<5x2x4xf32>)
// CHECK:         ^bb0(%[[L:.+]]: f32, %[[RV:.+]]: f32, %[[O:.+]]: f32):
// CHECK-NEXT:      %[[P:.+]] = arith.mulf %[[L]], %[[RV]] : f32
// CHECK-NEXT:      %[[S:.+]] = arith.addf %[[O]], %[[P]] : f32
// CHECK-NEXT:      linalg.yield %[[S]] : f32
// CHECK:         return %[[R]]
func.func @matmul_batched(%a: tensor<5x2x3xf32>, %b: tensor<3x4xf32>) -> tensor<5x2x4xf32> {
  %0 = dlc.matmul %a, %b : tensor<5x2x3xf32>, tensor<3x4xf32> -> tensor<5x2x4xf32>
  return %0 : tensor<5x2x4xf32>
}

// -----

// Batch dims broadcast numpy-style: (5, 1) x (6) -> (5, 6); the size-1 batch
// dim of the lhs reads index 0.
// CHECK-LABEL: func.func @matmul_broadcast
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, 0, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>]
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]
// CHECK-SAME:      outs(%{{.+}} : tensor<5x6x2x4xf32>)
func.func @matmul_broadcast(%a: tensor<5x1x2x3xf32>, %b: tensor<6x3x4xf32>) -> tensor<5x6x2x4xf32> {
  %0 = dlc.matmul %a, %b : tensor<5x1x2x3xf32>, tensor<6x3x4xf32> -> tensor<5x6x2x4xf32>
  return %0 : tensor<5x6x2x4xf32>
}

// -----

// Batched lhs with a 1-D rhs: Kx1 promotion, then the batched contraction,
// then the trailing unit dim is dropped by one collapse.
// CHECK-LABEL: func.func @matmul_batched_vec
// CHECK:         tensor.expand_shape %{{.+}} {{\[\[}}0, 1]] output_shape [3, 1] : tensor<3xf32> into tensor<3x1xf32>
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]
// CHECK-SAME:      outs(%{{.+}} : tensor<4x2x1xf32>)
// CHECK:         tensor.collapse_shape %[[R]] {{\[\[}}0], [1, 2]] : tensor<4x2x1xf32> into tensor<4x2xf32>
func.func @matmul_batched_vec(%a: tensor<4x2x3xf32>, %b: tensor<3xf32>) -> tensor<4x2xf32> {
  %0 = dlc.matmul %a, %b : tensor<4x2x3xf32>, tensor<3xf32> -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}
