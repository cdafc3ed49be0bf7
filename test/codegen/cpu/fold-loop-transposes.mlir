// RUN: dlc-opt %s -split-input-file --dlc-cpu-fold-loop-transposes --canonicalize | FileCheck %s

// A (filters, columns) accumulator transposed into (columns, filters) at the
// top of each iteration and back at the bottom is carried transposed; in a
// loop nest the transposes move out of every loop and only the outermost
// init and result remain.
// CHECK-LABEL: func.func @nest
// CHECK-SAME:    (%[[INIT:.+]]: vector<16x8xf32>, %[[X:.+]]: vector<8x16xf32>)
// CHECK:         %[[T:.+]] = vector.transpose %[[INIT]], [1, 0] : vector<16x8xf32> to vector<8x16xf32>
// CHECK:         %[[R:.+]] = scf.for {{.+}} iter_args(%[[A:.+]] = %[[T]]) -> (vector<8x16xf32>)
// CHECK:           scf.for {{.+}} iter_args(%[[B:.+]] = %[[A]]) -> (vector<8x16xf32>)
// CHECK-NOT:         vector.transpose
// CHECK:             arith.addf %[[B]], %[[X]] : vector<8x16xf32>
// CHECK:         %[[OUT:.+]] = vector.transpose %[[R]], [1, 0] : vector<8x16xf32> to vector<16x8xf32>
// CHECK:         return %[[OUT]]
func.func @nest(%init: vector<16x8xf32>, %x: vector<8x16xf32>) -> vector<16x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %init) -> (vector<16x8xf32>) {
    %r2 = scf.for %j = %c0 to %c3 step %c1 iter_args(%b = %a) -> (vector<16x8xf32>) {
      %t = vector.transpose %b, [1, 0] : vector<16x8xf32> to vector<8x16xf32>
      %s = arith.addf %t, %x : vector<8x16xf32>
      %u = vector.transpose %s, [1, 0] : vector<8x16xf32> to vector<16x8xf32>
      scf.yield %u : vector<16x8xf32>
    }
    scf.yield %r2 : vector<16x8xf32>
  }
  return %r : vector<16x8xf32>
}

// -----

// An iter_arg with another use besides the transpose is left alone.
// CHECK-LABEL: func.func @other_use
// CHECK:         scf.for {{.+}} -> (vector<16x8xf32>)
// CHECK:           vector.transpose
// CHECK:           vector.transpose
func.func @other_use(%init: vector<16x8xf32>, %x: vector<8x16xf32>, %m: memref<16x8xf32>) -> vector<16x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %init) -> (vector<16x8xf32>) {
    vector.transfer_write %a, %m[%c0, %c0] : vector<16x8xf32>, memref<16x8xf32>
    %t = vector.transpose %a, [1, 0] : vector<16x8xf32> to vector<8x16xf32>
    %s = arith.addf %t, %x : vector<8x16xf32>
    %u = vector.transpose %s, [1, 0] : vector<8x16xf32> to vector<16x8xf32>
    scf.yield %u : vector<16x8xf32>
  }
  return %r : vector<16x8xf32>
}
