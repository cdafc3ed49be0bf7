// RUN: dlc-opt %s -split-input-file --dlc-lower-to-linalg --mlir-print-local-scope | FileCheck %s

// A reshape that merges (or splits) adjacent axes is one collapse (or
// expand); others go through a flat rank-1 tensor.
// CHECK-LABEL: func.func @reshape
// CHECK-SAME:    (%[[X:.+]]: tensor<1x8x2x2xf32>)
// CHECK:         %[[R:.+]] = tensor.collapse_shape %[[X]] {{\[\[}}0], [1, 2, 3]] : tensor<1x8x2x2xf32> into tensor<1x32xf32>
// CHECK:         return %[[R]]
func.func @reshape(%x: tensor<1x8x2x2xf32>) -> tensor<1x32xf32> {
  %0 = dlc.reshape %x : tensor<1x8x2x2xf32> -> tensor<1x32xf32>
  return %0 : tensor<1x32xf32>
}

// -----

// [2,3] -> [3,2] neither merges nor splits: through [6].
// CHECK-LABEL: func.func @reshape_regroup
// CHECK:         %[[FLAT:.+]] = tensor.collapse_shape %{{.+}} {{\[\[}}0, 1]] : tensor<2x3xf32> into tensor<6xf32>
// CHECK:         tensor.expand_shape %[[FLAT]] {{\[\[}}0, 1]] output_shape [3, 2] : tensor<6xf32> into tensor<3x2xf32>
func.func @reshape_regroup(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = dlc.reshape %x : tensor<2x3xf32> -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// To rank 1: only the collapse.
// CHECK-LABEL: func.func @reshape_to_1d
// CHECK:         %[[R:.+]] = tensor.collapse_shape %{{.+}} {{\[\[}}0, 1]] : tensor<3x4xi64> into tensor<12xi64>
// CHECK-NEXT:    return %[[R]]
func.func @reshape_to_1d(%x: tensor<3x4xi64>) -> tensor<12xi64> {
  %0 = dlc.reshape %x : tensor<3x4xi64> -> tensor<12xi64>
  return %0 : tensor<12xi64>
}

// -----

// From rank 0: expand to 1 element, then to the result shape.
// CHECK-LABEL: func.func @reshape_scalar
// CHECK:         %[[ONE:.+]] = tensor.expand_shape %{{.+}} [] output_shape [1] : tensor<f32> into tensor<1xf32>
// CHECK:         tensor.expand_shape %[[ONE]] {{\[\[}}0, 1]] output_shape [1, 1] : tensor<1xf32> into tensor<1x1xf32>
func.func @reshape_scalar(%x: tensor<f32>) -> tensor<1x1xf32> {
  %0 = dlc.reshape %x : tensor<f32> -> tensor<1x1xf32>
  return %0 : tensor<1x1xf32>
}

// -----

// To rank 0: collapse everything.
// CHECK-LABEL: func.func @reshape_to_scalar
// CHECK:         %[[FLAT:.+]] = tensor.collapse_shape %{{.+}} {{\[\[}}0, 1]] : tensor<1x1xf32> into tensor<1xf32>
// CHECK:         tensor.collapse_shape %[[FLAT]] [] : tensor<1xf32> into tensor<f32>
func.func @reshape_to_scalar(%x: tensor<1x1xf32>) -> tensor<f32> {
  %0 = dlc.reshape %x : tensor<1x1xf32> -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// CHECK-LABEL: func.func @transpose
// CHECK-SAME:    (%[[X:.+]]: tensor<2x3x4xf32>)
// CHECK:         %[[INIT:.+]] = tensor.empty() : tensor<4x2x3xf32>
// CHECK:         %[[T:.+]] = linalg.transpose ins(%[[X]] : tensor<2x3x4xf32>) outs(%[[INIT]] : tensor<4x2x3xf32>) permutation = [2, 0, 1]
// CHECK:         return %[[T]]
func.func @transpose(%x: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %0 = dlc.transpose %x {perm = array<i64: 2, 0, 1>} : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
  return %0 : tensor<4x2x3xf32>
}

// -----

// Concat: insert_slice at running offsets along the axis; empty inputs are
// skipped.
// CHECK-LABEL: func.func @concat
// CHECK-SAME:    (%[[A:.+]]: tensor<2x2xf32>, %[[B:.+]]: tensor<2x0xf32>, %[[C:.+]]: tensor<2x3xf32>)
// CHECK:         %[[E:.+]] = tensor.empty() : tensor<2x5xf32>
// CHECK:         %[[S0:.+]] = tensor.insert_slice %[[A]] into %[[E]][0, 0] [2, 2] [1, 1] : tensor<2x2xf32> into tensor<2x5xf32>
// CHECK-NOT:     %[[B]]
// CHECK:         %[[S1:.+]] = tensor.insert_slice %[[C]] into %[[S0]][0, 2] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<2x5xf32>
// CHECK:         return %[[S1]]
func.func @concat(%a: tensor<2x2xf32>, %b: tensor<2x0xf32>, %c: tensor<2x3xf32>) -> tensor<2x5xf32> {
  %0 = dlc.concat %a, %b, %c {axis = 1 : i64} : (tensor<2x2xf32>, tensor<2x0xf32>, tensor<2x3xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

// Concat along axis 0 of integer tensors.
// CHECK-LABEL: func.func @concat_axis0
// CHECK:         tensor.insert_slice %{{.+}} into %{{.+}}[0, 0] [1, 4] [1, 1] : tensor<1x4xi64> into tensor<3x4xi64>
// CHECK:         tensor.insert_slice %{{.+}} into %{{.+}}[1, 0] [2, 4] [1, 1] : tensor<2x4xi64> into tensor<3x4xi64>
func.func @concat_axis0(%a: tensor<1x4xi64>, %b: tensor<2x4xi64>) -> tensor<3x4xi64> {
  %0 = dlc.concat %a, %b {axis = 0 : i64} : (tensor<1x4xi64>, tensor<2x4xi64>) -> tensor<3x4xi64>
  return %0 : tensor<3x4xi64>
}

// -----

// Constants become arith.constant with the same value (dense or resource).
// CHECK-LABEL: func.func @constants
// CHECK-DAG:     %[[F:.+]] = arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-DAG:     %[[I:.+]] = arith.constant dense<[1, 2, 3]> : tensor<3xi64>
// CHECK-DAG:     %[[W:.+]] = arith.constant dense_resource<conv1.weight> : tensor<2x2xf32>
// CHECK-NOT:     dlc.
// CHECK:         return %[[F]], %[[I]], %[[W]]
func.func @constants() -> (tensor<2xf32>, tensor<3xi64>, tensor<2x2xf32>) {
  %0 = dlc.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %1 = dlc.constant dense<[1, 2, 3]> : tensor<3xi64>
  %2 = dlc.constant dense_resource<conv1.weight> : tensor<2x2xf32>
  return %0, %1, %2 : tensor<2xf32>, tensor<3xi64>, tensor<2x2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      conv1.weight: "0x040000000000803F000000400000404000008040"
    }
  }
#-}

// -----

// Concatenations that extend one another (a DenseNet block: each layer
// concatenates all features so far) become one tensor of the last one's
// shape: each input inserted once, the earlier concatenations its leading
// slices, instead of each copying every input again.
// CHECK-LABEL: func.func @concat_prefixes
// CHECK-SAME:    (%[[X:.+]]: tensor<1x4x2x2xf32>, %[[Y1:.+]]: tensor<1x2x2x2xf32>, %[[Y2:.+]]: tensor<1x2x2x2xf32>, %[[Y3:.+]]: tensor<1x2x2x2xf32>)
// CHECK:         %[[E:.+]] = tensor.empty() : tensor<1x10x2x2xf32>
// CHECK:         %[[S0:.+]] = tensor.insert_slice %[[X]] into %[[E]][0, 0, 0, 0] [1, 4, 2, 2] [1, 1, 1, 1]
// CHECK:         %[[S1:.+]] = tensor.insert_slice %[[Y1]] into %[[S0]][0, 4, 0, 0] [1, 2, 2, 2] [1, 1, 1, 1]
// CHECK:         %[[A:.+]] = tensor.extract_slice %[[S1]][0, 0, 0, 0] [1, 6, 2, 2] [1, 1, 1, 1] : tensor<1x10x2x2xf32> to tensor<1x6x2x2xf32>
// CHECK:         %[[S2:.+]] = tensor.insert_slice %[[Y2]] into %[[S1]][0, 6, 0, 0] [1, 2, 2, 2] [1, 1, 1, 1]
// CHECK:         %[[B:.+]] = tensor.extract_slice %[[S2]][0, 0, 0, 0] [1, 8, 2, 2] [1, 1, 1, 1] : tensor<1x10x2x2xf32> to tensor<1x8x2x2xf32>
// CHECK:         %[[S3:.+]] = tensor.insert_slice %[[Y3]] into %[[S2]][0, 8, 0, 0] [1, 2, 2, 2] [1, 1, 1, 1]
// CHECK-NOT:     tensor.empty
// CHECK:         return %[[A]], %[[B]], %[[S3]]
func.func @concat_prefixes(%x: tensor<1x4x2x2xf32>, %y1: tensor<1x2x2x2xf32>, %y2: tensor<1x2x2x2xf32>, %y3: tensor<1x2x2x2xf32>)
    -> (tensor<1x6x2x2xf32>, tensor<1x8x2x2xf32>, tensor<1x10x2x2xf32>) {
  %a = dlc.concat %x, %y1 {axis = 1 : i64} : (tensor<1x4x2x2xf32>, tensor<1x2x2x2xf32>) -> tensor<1x6x2x2xf32>
  %b = dlc.concat %x, %y1, %y2 {axis = 1 : i64} : (tensor<1x4x2x2xf32>, tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) -> tensor<1x8x2x2xf32>
  %c = dlc.concat %x, %y1, %y2, %y3 {axis = 1 : i64} : (tensor<1x4x2x2xf32>, tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) -> tensor<1x10x2x2xf32>
  return %a, %b, %c : tensor<1x6x2x2xf32>, tensor<1x8x2x2xf32>, tensor<1x10x2x2xf32>
}

// -----

// Not extensions of one another: another axis, another order of the
// inputs; each is lowered on its own.
// CHECK-LABEL: func.func @concat_not_prefixes
// CHECK:         tensor.empty() : tensor<1x4x2x2xf32>
// CHECK:         tensor.empty() : tensor<1x4x2x2xf32>
// CHECK:         tensor.empty() : tensor<1x2x4x2xf32>
// CHECK-NOT:     tensor.extract_slice
func.func @concat_not_prefixes(%x: tensor<1x2x2x2xf32>, %y: tensor<1x2x2x2xf32>)
    -> (tensor<1x4x2x2xf32>, tensor<1x4x2x2xf32>, tensor<1x2x4x2xf32>) {
  %a = dlc.concat %x, %y {axis = 1 : i64} : (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) -> tensor<1x4x2x2xf32>
  %b = dlc.concat %y, %x {axis = 1 : i64} : (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) -> tensor<1x4x2x2xf32>
  %c = dlc.concat %x, %y {axis = 2 : i64} : (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) -> tensor<1x2x4x2xf32>
  return %a, %b, %c : tensor<1x4x2x2xf32>, tensor<1x4x2x2xf32>, tensor<1x2x4x2xf32>
}
