// Constant folding of shape arithmetic (ir/DlcFolders.cpp and the cast and
// concat folders): -canonicalize evaluates add/sub/mul/div of integer and
// float constants, concat of rank-1 constants, gather and slice of rank-1
// constants, cast and neg of constants.
// RUN: dlc-opt %s -canonicalize -split-input-file | FileCheck %s

// i64 arithmetic, with a splat (scalar) operand broadcast.
// CHECK-LABEL: func.func @int_arith
// CHECK-DAG:   %[[ADD:.+]] = dlc.constant dense<[5, 7, 9]> : tensor<3xi64>
// CHECK-DAG:   %[[SUB:.+]] = dlc.constant dense<-3> : tensor<3xi64>
// CHECK-DAG:   %[[MUL:.+]] = dlc.constant dense<[2, 4, 6]> : tensor<3xi64>
// CHECK-DAG:   %[[DIV:.+]] = dlc.constant dense<[2, -2, 1]> : tensor<3xi64>
// CHECK-NOT:   dlc.add
// CHECK-NOT:   dlc.sub
// CHECK-NOT:   dlc.mul
// CHECK-NOT:   dlc.div
// CHECK:       return %[[ADD]], %[[SUB]], %[[MUL]], %[[DIV]]
func.func @int_arith() -> (tensor<3xi64>, tensor<3xi64>, tensor<3xi64>, tensor<3xi64>) {
  %a = dlc.constant dense<[1, 2, 3]> : tensor<3xi64>
  %b = dlc.constant dense<[4, 5, 6]> : tensor<3xi64>
  %two = dlc.constant dense<2> : tensor<i64>
  %c = dlc.constant dense<[5, -5, 3]> : tensor<3xi64>
  %0 = dlc.add %a, %b : tensor<3xi64>, tensor<3xi64> -> tensor<3xi64>
  %1 = dlc.sub %a, %b : tensor<3xi64>, tensor<3xi64> -> tensor<3xi64>
  %2 = dlc.mul %a, %two : tensor<3xi64>, tensor<i64> -> tensor<3xi64>
  // Integer division truncates towards zero.
  %3 = dlc.div %c, %two : tensor<3xi64>, tensor<i64> -> tensor<3xi64>
  return %0, %1, %2, %3 : tensor<3xi64>, tensor<3xi64>, tensor<3xi64>, tensor<3xi64>
}

// -----

// A chain folds all the way: (d0 * d1) / 2 + 1.
// CHECK-LABEL: func.func @int_chain
// CHECK-NEXT:  %[[C:.+]] = dlc.constant dense<13> : tensor<1xi64>
// CHECK-NEXT:  return %[[C]]
func.func @int_chain() -> tensor<1xi64> {
  %d0 = dlc.constant dense<[4]> : tensor<1xi64>
  %d1 = dlc.constant dense<[6]> : tensor<1xi64>
  %two = dlc.constant dense<2> : tensor<1xi64>
  %one = dlc.constant dense<1> : tensor<i64>
  %0 = dlc.mul %d0, %d1 : tensor<1xi64>, tensor<1xi64> -> tensor<1xi64>
  %1 = dlc.div %0, %two : tensor<1xi64>, tensor<1xi64> -> tensor<1xi64>
  %2 = dlc.add %1, %one : tensor<1xi64>, tensor<i64> -> tensor<1xi64>
  return %2 : tensor<1xi64>
}

// -----

// Integer division by zero is left for run time.
// CHECK-LABEL: func.func @int_div_by_zero
// CHECK:       dlc.div
func.func @int_div_by_zero() -> tensor<2xi64> {
  %a = dlc.constant dense<[4, 6]> : tensor<2xi64>
  %z = dlc.constant dense<[2, 0]> : tensor<2xi64>
  %0 = dlc.div %a, %z : tensor<2xi64>, tensor<2xi64> -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----

// Floats fold too.
// CHECK-LABEL: func.func @float_arith
// CHECK-DAG:   %[[ADD:.+]] = dlc.constant dense<[1.500000e+00, 3.000000e+00]> : tensor<2xf32>
// CHECK-DAG:   %[[DIV:.+]] = dlc.constant dense<[5.000000e-01, 1.250000e+00]> : tensor<2xf32>
// CHECK-NOT:   dlc.add
// CHECK-NOT:   dlc.div
// CHECK:       return %[[ADD]], %[[DIV]]
func.func @float_arith() -> (tensor<2xf32>, tensor<2xf32>) {
  %a = dlc.constant dense<[1.0, 2.5]> : tensor<2xf32>
  %h = dlc.constant dense<0.5> : tensor<f32>
  %two = dlc.constant dense<2.0> : tensor<f32>
  %0 = dlc.add %a, %h : tensor<2xf32>, tensor<f32> -> tensor<2xf32>
  %1 = dlc.div %a, %two : tensor<2xf32>, tensor<f32> -> tensor<2xf32>
  return %0, %1 : tensor<2xf32>, tensor<2xf32>
}

// -----

// Non-constant operands, and non-splat operands that would need a real
// broadcast, are not folded.
// CHECK-LABEL: func.func @no_fold
// CHECK:       dlc.add
// CHECK:       dlc.mul
func.func @no_fold(%x: tensor<3xi64>) -> (tensor<3xi64>, tensor<2x3xi64>) {
  %a = dlc.constant dense<[1, 2, 3]> : tensor<3xi64>
  %col = dlc.constant dense<[[1], [2]]> : tensor<2x1xi64>
  %0 = dlc.add %x, %a : tensor<3xi64>, tensor<3xi64> -> tensor<3xi64>
  %1 = dlc.mul %col, %a : tensor<2x1xi64>, tensor<3xi64> -> tensor<2x3xi64>
  return %0, %1 : tensor<3xi64>, tensor<2x3xi64>
}

// -----

// Concat of rank-1 constants (a shape vector).
// CHECK-LABEL: func.func @concat_shape
// CHECK-NEXT:  %[[C:.+]] = dlc.constant dense<[1, 3, -1, 7]> : tensor<4xi64>
// CHECK-NEXT:  return %[[C]]
func.func @concat_shape() -> tensor<4xi64> {
  %a = dlc.constant dense<[1, 3]> : tensor<2xi64>
  %b = dlc.constant dense<[-1]> : tensor<1xi64>
  %c = dlc.constant dense<[7]> : tensor<1xi64>
  %0 = dlc.concat %a, %b, %c {axis = 0 : i64} : (tensor<2xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

// Gather of a rank-1 constant with constant indices (negative ones count
// from the end); scalar indices give a scalar.
// CHECK-LABEL: func.func @gather_shape
// CHECK-DAG:   %[[V:.+]] = dlc.constant dense<[8, 2]> : tensor<2xi64>
// CHECK-DAG:   %[[S:.+]] = dlc.constant dense<5> : tensor<i64>
// CHECK-NOT:   dlc.gather
// CHECK:       return %[[V]], %[[S]]
func.func @gather_shape() -> (tensor<2xi64>, tensor<i64>) {
  %shape = dlc.constant dense<[2, 5, 8]> : tensor<3xi64>
  %i = dlc.constant dense<[-1, 0]> : tensor<2xi64>
  %s = dlc.constant dense<1> : tensor<i64>
  %0 = dlc.gather %shape, %i {axis = 0 : i64} : tensor<3xi64>, tensor<2xi64> -> tensor<2xi64>
  %1 = dlc.gather %shape, %s {axis = 0 : i64} : tensor<3xi64>, tensor<i64> -> tensor<i64>
  return %0, %1 : tensor<2xi64>, tensor<i64>
}

// -----

// Out-of-range constant indices are left alone (not folded to garbage).
// CHECK-LABEL: func.func @gather_out_of_range
// CHECK:       dlc.gather
func.func @gather_out_of_range() -> tensor<1xi64> {
  %shape = dlc.constant dense<[2, 5, 8]> : tensor<3xi64>
  %i = dlc.constant dense<[3]> : tensor<1xi64>
  %0 = dlc.gather %shape, %i {axis = 0 : i64} : tensor<3xi64>, tensor<1xi64> -> tensor<1xi64>
  return %0 : tensor<1xi64>
}

// -----

// Slice of a rank-1 constant, forwards, backwards and with a stride.
// CHECK-LABEL: func.func @slice_shape
// CHECK-DAG:   %[[F:.+]] = dlc.constant dense<[5, 8]> : tensor<2xi64>
// CHECK-DAG:   %[[B:.+]] = dlc.constant dense<[9, 8, 5]> : tensor<3xi64>
// CHECK-DAG:   %[[S:.+]] = dlc.constant dense<[9, 5]> : tensor<2xi64>
// CHECK-NOT:   dlc.slice
// CHECK:       return %[[F]], %[[B]], %[[S]]
func.func @slice_shape() -> (tensor<2xi64>, tensor<3xi64>, tensor<2xi64>) {
  %shape = dlc.constant dense<[2, 5, 8, 9]> : tensor<4xi64>
  %0 = dlc.slice %shape {starts = array<i64: 1>, steps = array<i64: 1>} : tensor<4xi64> -> tensor<2xi64>
  %1 = dlc.slice %shape {starts = array<i64: 3>, steps = array<i64: -1>} : tensor<4xi64> -> tensor<3xi64>
  %2 = dlc.slice %shape {starts = array<i64: 3>, steps = array<i64: -2>} : tensor<4xi64> -> tensor<2xi64>
  return %0, %1, %2 : tensor<2xi64>, tensor<3xi64>, tensor<2xi64>
}

// -----

// Casts of constants: int -> float, float -> int (truncating towards
// zero), float -> bool (non-zero), i64 -> i32, and unsigned i8 -> float.
// CHECK-LABEL: func.func @cast_constants
// CHECK-DAG:   %[[IF:.+]] = dlc.constant dense<[7.000000e+00, -3.000000e+00]> : tensor<2xf32>
// CHECK-DAG:   %[[FI:.+]] = dlc.constant dense<[-2, 0, 3]> : tensor<3xi64>
// CHECK-DAG:   %[[FB:.+]] = dlc.constant dense<[true, false, true]> : tensor<3xi1>
// CHECK-DAG:   %[[NARROW:.+]] = dlc.constant dense<[7, -3]> : tensor<2xi32>
// CHECK-DAG:   %[[U8:.+]] = dlc.constant dense<[2.550000e+02, 1.000000e+00]> : tensor<2xf32>
// CHECK-NOT:   dlc.cast
// CHECK:       return %[[IF]], %[[FI]], %[[FB]], %[[NARROW]], %[[U8]]
func.func @cast_constants() -> (tensor<2xf32>, tensor<3xi64>, tensor<3xi1>, tensor<2xi32>, tensor<2xf32>) {
  %i = dlc.constant dense<[7, -3]> : tensor<2xi64>
  %f = dlc.constant dense<[-2.7, 0.0, 3.9]> : tensor<3xf32>
  %u = dlc.constant dense<[-1, 1]> : tensor<2xi8>
  %0 = dlc.cast %i : tensor<2xi64> -> tensor<2xf32>
  %1 = dlc.cast %f : tensor<3xf32> -> tensor<3xi64>
  %2 = dlc.cast %f : tensor<3xf32> -> tensor<3xi1>
  %3 = dlc.cast %i : tensor<2xi64> -> tensor<2xi32>
  %4 = dlc.cast %u {unsigned_source} : tensor<2xi8> -> tensor<2xf32>
  return %0, %1, %2, %3, %4 : tensor<2xf32>, tensor<3xi64>, tensor<3xi1>, tensor<2xi32>, tensor<2xf32>
}

// -----

// A cast to the same type is no cast, constant or not.
// CHECK-LABEL: func.func @cast_identity
// CHECK-SAME:  (%[[X:.+]]: tensor<3xf32>)
// CHECK-NOT:   dlc.cast
// CHECK:       return %[[X]]
func.func @cast_identity(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = dlc.cast %x : tensor<3xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// CHECK-LABEL: func.func @neg_constants
// CHECK-DAG:   %[[I:.+]] = dlc.constant dense<[-1, 0, 4]> : tensor<3xi64>
// CHECK-DAG:   %[[F:.+]] = dlc.constant dense<[-1.500000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-NOT:   dlc.neg
// CHECK:       return %[[I]], %[[F]]
func.func @neg_constants() -> (tensor<3xi64>, tensor<2xf32>) {
  %i = dlc.constant dense<[1, 0, -4]> : tensor<3xi64>
  %f = dlc.constant dense<[1.5, -2.0]> : tensor<2xf32>
  %0 = dlc.neg %i : tensor<3xi64>
  %1 = dlc.neg %f : tensor<2xf32>
  return %0, %1 : tensor<3xi64>, tensor<2xf32>
}
