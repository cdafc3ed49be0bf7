// Round trip of the elementwise ops added with the ONNX op families:
// activations with alpha/beta, numeric unary ops, binary math and logic,
// comparisons (i1 results), is_nan/is_inf, where and cast. The verifier
// and shape-inference errors are in invalid-elementwise-ext.mlir.
// RUN: dlc-opt %s | dlc-opt | FileCheck %s
// RUN: dlc-opt %s -mlir-print-op-generic | dlc-opt | FileCheck %s

// CHECK-LABEL: func.func @activations
// CHECK-SAME: (%[[X:.+]]: tensor<2x3xf32>)
func.func @activations(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  // CHECK: dlc.leaky_relu %[[X]] {alpha = 0.00999999977 : f32, beta = 0.000000e+00 : f32} : tensor<2x3xf32>
  %0 = dlc.leaky_relu %x {alpha = 0.01 : f32, beta = 0.0 : f32} : tensor<2x3xf32>
  // CHECK: dlc.hard_sigmoid %[[X]] {alpha = 2.000000e-01 : f32, beta = 5.000000e-01 : f32} : tensor<2x3xf32>
  %1 = dlc.hard_sigmoid %x {alpha = 0.2 : f32, beta = 0.5 : f32} : tensor<2x3xf32>
  // CHECK: dlc.selu %[[X]] {alpha = 1.67326319 : f32, beta = 1.05070102 : f32} : tensor<2x3xf32>
  %2 = dlc.selu %x {alpha = 1.67326319 : f32, beta = 1.05070102 : f32} : tensor<2x3xf32>
  // CHECK: dlc.shrink %[[X]] {alpha = 5.000000e-01 : f32, beta = 1.000000e+00 : f32} : tensor<2x3xf32>
  %3 = dlc.shrink %x {alpha = 0.5 : f32, beta = 1.0 : f32} : tensor<2x3xf32>
  return %0, %1, %2, %3 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// Float unary math, and the numeric unary ops on integers.
// CHECK-LABEL: func.func @unary
// CHECK-SAME: (%[[X:.+]]: tensor<4xf32>, %[[I:.+]]: tensor<4xi32>)
func.func @unary(%x: tensor<4xf32>, %i: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) {
  // CHECK: dlc.erf %[[X]] : tensor<4xf32>
  %0 = dlc.erf %x : tensor<4xf32>
  // CHECK: dlc.sqrt %[[X]] : tensor<4xf32>
  %1 = dlc.sqrt %x : tensor<4xf32>
  // CHECK: dlc.abs %[[I]] : tensor<4xi32>
  %2 = dlc.abs %i : tensor<4xi32>
  // CHECK: dlc.neg %[[I]] : tensor<4xi32>
  %3 = dlc.neg %i : tensor<4xi32>
  // CHECK: dlc.sign %[[I]] : tensor<4xi32>
  %4 = dlc.sign %i : tensor<4xi32>
  return %0, %1, %2, %3, %4 : tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>
}

// Binary math broadcasts like dlc.add; logic ops on i1.
// CHECK-LABEL: func.func @binary
func.func @binary(%a: tensor<2x3xf32>, %b: tensor<3xf32>, %i: tensor<2x3xi64>, %j: tensor<1xi64>,
                  %p: tensor<4xi1>, %q: tensor<4xi1>)
    -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xi64>, tensor<2x3xi64>, tensor<4xi1>, tensor<4xi1>) {
  // CHECK: dlc.pow %{{.+}}, %{{.+}} : tensor<2x3xf32>, tensor<3xf32> -> tensor<2x3xf32>
  %0 = dlc.pow %a, %b : tensor<2x3xf32>, tensor<3xf32> -> tensor<2x3xf32>
  // CHECK: dlc.prelu %{{.+}}, %{{.+}} : tensor<2x3xf32>, tensor<3xf32> -> tensor<2x3xf32>
  %1 = dlc.prelu %a, %b : tensor<2x3xf32>, tensor<3xf32> -> tensor<2x3xf32>
  // CHECK: dlc.mod %{{.+}}, %{{.+}} : tensor<2x3xi64>, tensor<1xi64> -> tensor<2x3xi64>
  %2 = dlc.mod %i, %j : tensor<2x3xi64>, tensor<1xi64> -> tensor<2x3xi64>
  // CHECK: dlc.max %{{.+}}, %{{.+}} : tensor<2x3xi64>, tensor<2x3xi64> -> tensor<2x3xi64>
  %3 = dlc.max %i, %i : tensor<2x3xi64>, tensor<2x3xi64> -> tensor<2x3xi64>
  // CHECK: dlc.and %{{.+}}, %{{.+}} : tensor<4xi1>, tensor<4xi1> -> tensor<4xi1>
  %4 = dlc.and %p, %q : tensor<4xi1>, tensor<4xi1> -> tensor<4xi1>
  // CHECK: dlc.not %{{.+}} : tensor<4xi1>
  %5 = dlc.not %p : tensor<4xi1>
  return %0, %1, %2, %3, %4, %5 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xi64>, tensor<2x3xi64>, tensor<4xi1>, tensor<4xi1>
}

// Comparisons broadcast and return i1.
// CHECK-LABEL: func.func @compare
// CHECK-SAME: (%[[A:.+]]: tensor<2x3xf32>, %[[B:.+]]: tensor<3xf32>, %[[I:.+]]: tensor<4x1xi32>, %[[J:.+]]: tensor<5xi32>)
func.func @compare(%a: tensor<2x3xf32>, %b: tensor<3xf32>, %i: tensor<4x1xi32>, %j: tensor<5xi32>)
    -> (tensor<2x3xi1>, tensor<4x5xi1>, tensor<2x3xi1>, tensor<2x3xi1>) {
  // CHECK: dlc.less %[[A]], %[[B]] : tensor<2x3xf32>, tensor<3xf32> -> tensor<2x3xi1>
  %0 = dlc.less %a, %b : tensor<2x3xf32>, tensor<3xf32> -> tensor<2x3xi1>
  // CHECK: dlc.equal %[[I]], %[[J]] : tensor<4x1xi32>, tensor<5xi32> -> tensor<4x5xi1>
  %1 = dlc.equal %i, %j : tensor<4x1xi32>, tensor<5xi32> -> tensor<4x5xi1>
  // CHECK: dlc.is_nan %[[A]] : tensor<2x3xf32> -> tensor<2x3xi1>
  %2 = dlc.is_nan %a : tensor<2x3xf32> -> tensor<2x3xi1>
  // CHECK: dlc.is_inf %[[A]] {detect_negative = false, detect_positive = true} : tensor<2x3xf32> -> tensor<2x3xi1>
  %3 = dlc.is_inf %a {detect_negative = false, detect_positive = true} : tensor<2x3xf32> -> tensor<2x3xi1>
  return %0, %1, %2, %3 : tensor<2x3xi1>, tensor<4x5xi1>, tensor<2x3xi1>, tensor<2x3xi1>
}

// Where broadcasts all three operands.
// CHECK-LABEL: func.func @where
// CHECK-SAME: (%[[C:.+]]: tensor<2x1xi1>, %[[A:.+]]: tensor<3xf32>, %[[B:.+]]: tensor<f32>)
func.func @where(%c: tensor<2x1xi1>, %a: tensor<3xf32>, %b: tensor<f32>) -> tensor<2x3xf32> {
  // CHECK: dlc.where %[[C]], %[[A]], %[[B]] : tensor<2x1xi1>, tensor<3xf32>, tensor<f32> -> tensor<2x3xf32>
  %0 = dlc.where %c, %a, %b : tensor<2x1xi1>, tensor<3xf32>, tensor<f32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// Casts between any element types; unsigned ONNX types are marked.
// CHECK-LABEL: func.func @cast
// CHECK-SAME: (%[[X:.+]]: tensor<2x3xf32>, %[[U:.+]]: tensor<4xi8>)
func.func @cast(%x: tensor<2x3xf32>, %u: tensor<4xi8>) -> (tensor<2x3xi64>, tensor<2x3xi1>, tensor<4xf32>) {
  // CHECK: dlc.cast %[[X]] : tensor<2x3xf32> -> tensor<2x3xi64>
  %0 = dlc.cast %x : tensor<2x3xf32> -> tensor<2x3xi64>
  // CHECK: dlc.cast %[[X]] : tensor<2x3xf32> -> tensor<2x3xi1>
  %1 = dlc.cast %x : tensor<2x3xf32> -> tensor<2x3xi1>
  // CHECK: dlc.cast %[[U]] {unsigned_source} : tensor<4xi8> -> tensor<4xf32>
  %2 = dlc.cast %u {unsigned_source} : tensor<4xi8> -> tensor<4xf32>
  return %0, %1, %2 : tensor<2x3xi64>, tensor<2x3xi1>, tensor<4xf32>
}
