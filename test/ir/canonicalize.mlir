// Folders of dlc.reshape, dlc.transpose and dlc.concat.
// RUN: dlc-opt %s -canonicalize -split-input-file | FileCheck %s

// A reshape of a reshape reads the original input.
// CHECK-LABEL: func.func @reshape_of_reshape
// CHECK-SAME: (%[[X:.+]]: tensor<2x3x4xf32>)
// CHECK-NEXT: %[[R:.+]] = dlc.reshape %[[X]] : tensor<2x3x4xf32> -> tensor<4x6xf32>
// CHECK-NEXT: return %[[R]]
func.func @reshape_of_reshape(%x: tensor<2x3x4xf32>) -> tensor<4x6xf32> {
  %0 = dlc.reshape %x : tensor<2x3x4xf32> -> tensor<24xf32>
  %1 = dlc.reshape %0 : tensor<24xf32> -> tensor<6x4xf32>
  %2 = dlc.reshape %1 : tensor<6x4xf32> -> tensor<4x6xf32>
  return %2 : tensor<4x6xf32>
}

// -----

// Reshaping back to the original shape is no reshape at all.
// CHECK-LABEL: func.func @reshape_round_trip
// CHECK-SAME: (%[[X:.+]]: tensor<2x3xf32>)
// CHECK-NOT: dlc.reshape
// CHECK: return %[[X]]
func.func @reshape_round_trip(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = dlc.reshape %x : tensor<2x3xf32> -> tensor<6xf32>
  %1 = dlc.reshape %0 : tensor<6xf32> -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}

// -----

// A reshape of an inline constant becomes a constant.
// CHECK-LABEL: func.func @reshape_constant
// CHECK-NEXT: %[[C:.+]] = dlc.constant dense<{{\[}}[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi64>
// CHECK-NEXT: return %[[C]]
func.func @reshape_constant() -> tensor<2x3xi64> {
  %0 = dlc.constant dense<[1, 2, 3, 4, 5, 6]> : tensor<6xi64>
  %1 = dlc.reshape %0 : tensor<6xi64> -> tensor<2x3xi64>
  return %1 : tensor<2x3xi64>
}

// -----

// CHECK-LABEL: func.func @identity_transpose
// CHECK-SAME: (%[[X:.+]]: tensor<2x3x4xf32>)
// CHECK-NOT: dlc.transpose
// CHECK: return %[[X]]
func.func @identity_transpose(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %0 = dlc.transpose %x {perm = array<i64: 0, 1, 2>} : tensor<2x3x4xf32> -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

// A real permutation stays, even when it keeps the shape.
// CHECK-LABEL: func.func @square_transpose
// CHECK: dlc.transpose %{{.+}} {perm = array<i64: 1, 0>} : tensor<3x3xf32> -> tensor<3x3xf32>
func.func @square_transpose(%x: tensor<3x3xf32>) -> tensor<3x3xf32> {
  %0 = dlc.transpose %x {perm = array<i64: 1, 0>} : tensor<3x3xf32> -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

// CHECK-LABEL: func.func @single_input_concat
// CHECK-SAME: (%[[X:.+]]: tensor<2x5xf32>)
// CHECK-NOT: dlc.concat
// CHECK: return %[[X]]
func.func @single_input_concat(%x: tensor<2x5xf32>) -> tensor<2x5xf32> {
  %0 = dlc.concat %x {axis = 1 : i64} : (tensor<2x5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

// CHECK-LABEL: func.func @two_input_concat
// CHECK: dlc.concat %{{.+}}, %{{.+}} {axis = 0 : i64}
func.func @two_input_concat(%x: tensor<2x5xf32>) -> tensor<4x5xf32> {
  %0 = dlc.concat %x, %x {axis = 0 : i64} : (tensor<2x5xf32>, tensor<2x5xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

// dlc ops are pure: unused results are erased.
// CHECK-LABEL: func.func @dead
// CHECK-NEXT: return
func.func @dead(%x: tensor<2x3xf32>) {
  %0 = dlc.relu %x : tensor<2x3xf32>
  %1 = dlc.transpose %x {perm = array<i64: 1, 0>} : tensor<2x3xf32> -> tensor<3x2xf32>
  return
}

// -----

// A run-time check that cannot fail (an element count compared with
// itself) is erased; one that may fail stays.
// CHECK-LABEL: func.func @reports
// CHECK-NOT: "cannot fail"
// CHECK: dlc.report %{{.*}}, "may fail"
// CHECK-NOT: dlc.report
func.func @reports(%a: index, %b: index) {
  %c6 = arith.constant 6 : index
  %x = arith.muli %a, %c6 : index
  %same = arith.cmpi ne, %x, %x : index
  dlc.report %same, "cannot fail"
  %z = arith.muli %b, %c6 : index
  %other = arith.cmpi ne, %x, %z : index
  dlc.report %other, "may fail"
  return
}
