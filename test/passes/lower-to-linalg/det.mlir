// RUN: dlc-opt %s --dlc-lower-to-linalg --canonicalize --mlir-print-local-scope | FileCheck %s

// Det: per matrix of the [batch, M, M] view, M elimination steps carry the
// working copy and the determinant: a pivot search (largest magnitude), a
// row swap that negates the determinant, the product of the pivots, and
// the elimination below the pivot unless it is zero.
// CHECK-LABEL: func.func @det
// CHECK:         %[[A:.+]] = tensor.collapse_shape %{{.+}} {{\[\[}}0, 1], [2], [3]] : tensor<2x3x3x3xf32> into tensor<6x3x3xf32>
// CHECK:         scf.for %[[B:.+]] = %c0 to %c6 step %c1 iter_args(%{{.+}} = %{{.+}}) -> (tensor<6xf32>)
// CHECK:           %[[MAT:.+]] = tensor.extract_slice %[[A]][%[[B]], 0, 0] [1, 3, 3] [1, 1, 1] : tensor<6x3x3xf32> to tensor<3x3xf32>
// CHECK:           scf.for %[[K:.+]] = %c0 to %c3 step %c1 iter_args(%{{.+}} = %[[MAT]], %{{.+}} = %cst{{.*}}) -> (tensor<3x3xf32>, f32)
// CHECK:             math.absf
// CHECK:             arith.cmpf ogt
// CHECK:             scf.if
// CHECK:               arith.negf
// CHECK:             arith.mulf
// CHECK:             arith.cmpf oeq
// CHECK:             arith.divf
// CHECK:         tensor.expand_shape %{{.+}} {{\[\[}}0, 1]] output_shape [2, 3] : tensor<6xf32> into tensor<2x3xf32>
func.func @det(%x: tensor<2x3x3x3xf32>) -> tensor<2x3xf32> {
  %0 = dlc.det %x : tensor<2x3x3x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
