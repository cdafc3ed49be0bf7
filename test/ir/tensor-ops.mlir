// Round trip of the reductions and the data-movement ops added with the
// ONNX op families: reduce, arg_reduce, slice (negative steps), gather,
// expand, tile and pad. Errors are in invalid-tensor-ops.mlir.
// RUN: dlc-opt %s | dlc-opt | FileCheck %s
// RUN: dlc-opt %s -mlir-print-op-generic | dlc-opt | FileCheck %s

// The result shape is inferred from axes and keepdims.
// CHECK-LABEL: func.func @reduce
// CHECK-SAME: (%[[X:.+]]: tensor<2x3x4xf32>, %[[I:.+]]: tensor<5x6xi64>)
func.func @reduce(%x: tensor<2x3x4xf32>, %i: tensor<5x6xi64>) -> (tensor<2x1x1xf32>, tensor<3xf32>, tensor<f32>, tensor<5xi64>) {
  // CHECK: dlc.reduce %[[X]] {axes = array<i64: 1, 2>, keepdims = true, kind = "sum"} : tensor<2x3x4xf32> -> tensor<2x1x1xf32>
  %0 = dlc.reduce %x {kind = "sum", axes = array<i64: 1, 2>, keepdims = true} : tensor<2x3x4xf32> -> tensor<2x1x1xf32>
  // CHECK: dlc.reduce %[[X]] {axes = array<i64: 0, 2>, keepdims = false, kind = "log_sum_exp"} : tensor<2x3x4xf32> -> tensor<3xf32>
  %1 = dlc.reduce %x {kind = "log_sum_exp", axes = array<i64: 0, 2>, keepdims = false} : tensor<2x3x4xf32> -> tensor<3xf32>
  // CHECK: dlc.reduce %[[X]] {axes = array<i64: 0, 1, 2>, keepdims = false, kind = "l2"} : tensor<2x3x4xf32> -> tensor<f32>
  %2 = dlc.reduce %x {kind = "l2", axes = array<i64: 0, 1, 2>, keepdims = false} : tensor<2x3x4xf32> -> tensor<f32>
  // CHECK: dlc.reduce %[[I]] {axes = array<i64: 1>, keepdims = false, kind = "max"} : tensor<5x6xi64> -> tensor<5xi64>
  %3 = dlc.reduce %i {kind = "max", axes = array<i64: 1>, keepdims = false} : tensor<5x6xi64> -> tensor<5xi64>
  return %0, %1, %2, %3 : tensor<2x1x1xf32>, tensor<3xf32>, tensor<f32>, tensor<5xi64>
}

// Empty axes reduce nothing (the importer decides what ONNX's empty axes
// mean).
// CHECK-LABEL: func.func @reduce_no_axes
// CHECK: dlc.reduce %{{.+}} {axes = array<i64>, keepdims = true, kind = "mean"} : tensor<2x3xf32> -> tensor<2x3xf32>
func.func @reduce_no_axes(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = dlc.reduce %x {kind = "mean", axes = array<i64>, keepdims = true} : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// Indices are i64, whatever the input type.
// CHECK-LABEL: func.func @arg_reduce
// CHECK-SAME: (%[[X:.+]]: tensor<2x3xf32>, %[[I:.+]]: tensor<4x5xi32>)
func.func @arg_reduce(%x: tensor<2x3xf32>, %i: tensor<4x5xi32>) -> (tensor<2x1xi64>, tensor<5xi64>) {
  // CHECK: dlc.arg_reduce %[[X]] {axis = 1 : i64, is_max = true, keepdims = true, select_last_index = false} : tensor<2x3xf32> -> tensor<2x1xi64>
  %0 = dlc.arg_reduce %x {is_max = true, axis = 1 : i64, keepdims = true, select_last_index = false} : tensor<2x3xf32> -> tensor<2x1xi64>
  // CHECK: dlc.arg_reduce %[[I]] {axis = 0 : i64, is_max = false, keepdims = false, select_last_index = true} : tensor<4x5xi32> -> tensor<5xi64>
  %1 = dlc.arg_reduce %i {is_max = false, axis = 0 : i64, keepdims = false, select_last_index = true} : tensor<4x5xi32> -> tensor<5xi64>
  return %0, %1 : tensor<2x1xi64>, tensor<5xi64>
}

// Steps may be negative: dimension 0 is read backwards from index 3, and
// dimension 1 every other column from 1.
// CHECK-LABEL: func.func @slice
// CHECK: dlc.slice %{{.+}} {starts = array<i64: 3, 1>, steps = array<i64: -1, 2>} : tensor<4x5xf32> -> tensor<4x2xf32>
// CHECK: dlc.slice %{{.+}} {starts = array<i64: 6>, steps = array<i64: -3>} : tensor<7xi64> -> tensor<3xi64>
func.func @slice(%x: tensor<4x5xf32>, %v: tensor<7xi64>) -> (tensor<4x2xf32>, tensor<3xi64>) {
  %0 = dlc.slice %x {starts = array<i64: 3, 1>, steps = array<i64: -1, 2>} : tensor<4x5xf32> -> tensor<4x2xf32>
  %1 = dlc.slice %v {starts = array<i64: 6>, steps = array<i64: -3>} : tensor<7xi64> -> tensor<3xi64>
  return %0, %1 : tensor<4x2xf32>, tensor<3xi64>
}

// An empty result may start anywhere.
// CHECK-LABEL: func.func @slice_empty
// CHECK: dlc.slice %{{.+}} {starts = array<i64: 4, 0>, steps = array<i64: 1, 1>} : tensor<4x5xf32> -> tensor<0x5xf32>
func.func @slice_empty(%x: tensor<4x5xf32>) -> tensor<0x5xf32> {
  %0 = dlc.slice %x {starts = array<i64: 4, 0>, steps = array<i64: 1, 1>} : tensor<4x5xf32> -> tensor<0x5xf32>
  return %0 : tensor<0x5xf32>
}

// The indices' shape replaces the gathered dimension; scalar indices drop
// it.
// CHECK-LABEL: func.func @gather
// CHECK-SAME: (%[[X:.+]]: tensor<5x4x3xf32>, %[[I:.+]]: tensor<2x2xi64>, %[[S:.+]]: tensor<i32>)
func.func @gather(%x: tensor<5x4x3xf32>, %i: tensor<2x2xi64>, %s: tensor<i32>) -> (tensor<5x2x2x3xf32>, tensor<4x3xf32>) {
  // CHECK: dlc.gather %[[X]], %[[I]] {axis = 1 : i64} : tensor<5x4x3xf32>, tensor<2x2xi64> -> tensor<5x2x2x3xf32>
  %0 = dlc.gather %x, %i {axis = 1 : i64} : tensor<5x4x3xf32>, tensor<2x2xi64> -> tensor<5x2x2x3xf32>
  // CHECK: dlc.gather %[[X]], %[[S]] {axis = 0 : i64} : tensor<5x4x3xf32>, tensor<i32> -> tensor<4x3xf32>
  %1 = dlc.gather %x, %s {axis = 0 : i64} : tensor<5x4x3xf32>, tensor<i32> -> tensor<4x3xf32>
  return %0, %1 : tensor<5x2x2x3xf32>, tensor<4x3xf32>
}

// CHECK-LABEL: func.func @expand
// CHECK: dlc.expand %{{.+}} : tensor<3x1xf32> -> tensor<2x3x4xf32>
// CHECK: dlc.expand %{{.+}} : tensor<i1> -> tensor<2xi1>
func.func @expand(%x: tensor<3x1xf32>, %b: tensor<i1>) -> (tensor<2x3x4xf32>, tensor<2xi1>) {
  %0 = dlc.expand %x : tensor<3x1xf32> -> tensor<2x3x4xf32>
  %1 = dlc.expand %b : tensor<i1> -> tensor<2xi1>
  return %0, %1 : tensor<2x3x4xf32>, tensor<2xi1>
}

// CHECK-LABEL: func.func @tile
// CHECK: dlc.tile %{{.+}} : tensor<2x3xf32> -> tensor<4x9xf32>
// CHECK: dlc.tile %{{.+}} : tensor<0x3xi64> -> tensor<0x6xi64>
func.func @tile(%x: tensor<2x3xf32>, %e: tensor<0x3xi64>) -> (tensor<4x9xf32>, tensor<0x6xi64>) {
  %0 = dlc.tile %x : tensor<2x3xf32> -> tensor<4x9xf32>
  %1 = dlc.tile %e : tensor<0x3xi64> -> tensor<0x6xi64>
  return %0, %1 : tensor<4x9xf32>, tensor<0x6xi64>
}

// Pads are the begin amounts of every dimension, then the end amounts.
// CHECK-LABEL: func.func @pad
// CHECK: dlc.pad %{{.+}} {pads = array<i64: 0, 1, 2, 3>, value = -1.500000e+00 : f64} : tensor<2x2xf32> -> tensor<4x6xf32>
// CHECK: dlc.pad %{{.+}} {pads = array<i64: 1, 0>, value = 7.000000e+00 : f64} : tensor<3xi64> -> tensor<4xi64>
func.func @pad(%x: tensor<2x2xf32>, %i: tensor<3xi64>) -> (tensor<4x6xf32>, tensor<4xi64>) {
  %0 = dlc.pad %x {pads = array<i64: 0, 1, 2, 3>, value = -1.5 : f64} : tensor<2x2xf32> -> tensor<4x6xf32>
  %1 = dlc.pad %i {pads = array<i64: 1, 0>, value = 7.0 : f64} : tensor<3xi64> -> tensor<4xi64>
  return %0, %1 : tensor<4x6xf32>, tensor<4xi64>
}

// The run-time check of indices is its indices' type.
// CHECK-LABEL: func.func @check_indices
// CHECK: dlc.check_indices %{{.+}}, %{{.+}} {op_type = "ScatterND"} : tensor<5x2xi32>, tensor<2xi64>
// CHECK: dlc.check_indices %{{.+}}, %{{.+}} {op_type = "ScatterElements"} : tensor<?xi64>, tensor<1xi64>
func.func @check_indices(%i: tensor<5x2xi32>, %n: tensor<2xi64>, %j: tensor<?xi64>, %m: tensor<1xi64>) -> (tensor<5x2xi32>, tensor<?xi64>) {
  %0 = dlc.check_indices %i, %n {op_type = "ScatterND"} : tensor<5x2xi32>, tensor<2xi64>
  %1 = dlc.check_indices %j, %m {op_type = "ScatterElements"} : tensor<?xi64>, tensor<1xi64>
  return %0, %1 : tensor<5x2xi32>, tensor<?xi64>
}
