// RUN: dlc-opt %s -split-input-file --dlc-cpu-fold-loop-transposes --canonicalize --mlir-print-local-scope | FileCheck %s

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

// -----

// A contraction accumulator of 32 filters by 7 columns (7 of 16 lanes used)
// is carried as 7 x 32 (whole vectors of filters): transposed before and
// after the loop, the contraction's accumulator map permuted to match.
// CHECK-LABEL: func.func @widen_lanes
// CHECK-SAME:    (%[[INIT:.+]]: vector<1x32x7xf32>
// CHECK:         %[[T:.+]] = vector.transpose %[[INIT]], [0, 2, 1] : vector<1x32x7xf32> to vector<1x7x32xf32>
// CHECK:         %[[R:.+]] = scf.for {{.+}} iter_args(%[[A:.+]] = %[[T]]) -> (vector<1x7x32xf32>)
// CHECK:           %[[C:.+]] = vector.contract {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]
// CHECK-SAME:        %[[A]] : vector<1x1x7xf32>, vector<1x32xf32> into vector<1x7x32xf32>
// CHECK:           scf.yield %[[C]]
// CHECK:         %[[OUT:.+]] = vector.transpose %[[R]], [0, 2, 1] : vector<1x7x32xf32> to vector<1x32x7xf32>
// CHECK:         return %[[OUT]]
#lhs = affine_map<(d0, d1, d2, d3) -> (d0, d3, d1)>
#rhs = affine_map<(d0, d1, d2, d3) -> (d3, d2)>
#acc = affine_map<(d0, d1, d2, d3) -> (d0, d2, d1)>
func.func @widen_lanes(%init: vector<1x32x7xf32>, %x: vector<1x1x7xf32>, %w: vector<1x32xf32>) -> vector<1x32x7xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c9 = arith.constant 9 : index
  %r = scf.for %i = %c0 to %c9 step %c1 iter_args(%a = %init) -> (vector<1x32x7xf32>) {
    %c = vector.contract {indexing_maps = [#lhs, #rhs, #acc], iterator_types = ["parallel", "parallel", "parallel", "reduction"], kind = #vector.kind<add>}
         %x, %w, %a : vector<1x1x7xf32>, vector<1x32xf32> into vector<1x32x7xf32>
    scf.yield %c : vector<1x32x7xf32>
  }
  return %r : vector<1x32x7xf32>
}

// -----

// 48 filters (three vectors, not a power of two) and an accumulator whose
// innermost dimension is already whole vectors are left alone.
// CHECK-LABEL: func.func @keep_lanes
// CHECK:         scf.for {{.+}} -> (vector<1x48x7xf32>)
// CHECK:         scf.for {{.+}} -> (vector<1x7x32xf32>)
// CHECK-NOT:     vector.transpose
#lhs2 = affine_map<(d0, d1, d2, d3) -> (d0, d3, d1)>
#rhs2 = affine_map<(d0, d1, d2, d3) -> (d3, d2)>
#acc2 = affine_map<(d0, d1, d2, d3) -> (d0, d2, d1)>
#acc3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
func.func @keep_lanes(%init: vector<1x48x7xf32>, %x: vector<1x1x7xf32>, %w: vector<1x48xf32>,
                      %init2: vector<1x7x32xf32>, %w2: vector<1x32xf32>) -> (vector<1x48x7xf32>, vector<1x7x32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c9 = arith.constant 9 : index
  %r = scf.for %i = %c0 to %c9 step %c1 iter_args(%a = %init) -> (vector<1x48x7xf32>) {
    %c = vector.contract {indexing_maps = [#lhs2, #rhs2, #acc2], iterator_types = ["parallel", "parallel", "parallel", "reduction"], kind = #vector.kind<add>}
         %x, %w, %a : vector<1x1x7xf32>, vector<1x48xf32> into vector<1x48x7xf32>
    scf.yield %c : vector<1x48x7xf32>
  }
  %r2 = scf.for %i = %c0 to %c9 step %c1 iter_args(%a = %init2) -> (vector<1x7x32xf32>) {
    %c = vector.contract {indexing_maps = [#lhs2, #rhs2, #acc3], iterator_types = ["parallel", "parallel", "parallel", "reduction"], kind = #vector.kind<add>}
         %x, %w2, %a : vector<1x1x7xf32>, vector<1x32xf32> into vector<1x7x32xf32>
    scf.yield %c : vector<1x7x32xf32>
  }
  return %r, %r2 : vector<1x48x7xf32>, vector<1x7x32xf32>
}
