// RUN: dlc-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(func.func(dlc-bound-dynamic-allocs))' --mlir-print-local-scope | FileCheck %s

// A dynamic allocation becomes a static one of its bounds' elements (the
// sizes are clamped to 4 and 8), viewed densely at its sizes.
// CHECK-LABEL: func.func @bounded
// CHECK-SAME:    (%[[A:[^:]+]]: index, %[[B:[^:]+]]: index)
// CHECK:         %[[M:.+]] = affine.min affine_map<()[s0] -> (s0, 4)>()[%[[A]]]
// CHECK:         %[[N:.+]] = affine.min affine_map<()[s0] -> (s0, 8)>()[%[[B]]]
// CHECK:         %[[FLAT:.+]] = memref.alloc() {alignment = 64 : i64} : memref<96xf32>
// CHECK:         %[[S:.+]] = arith.muli %[[N]], %c3{{.*}}
// CHECK:         %[[V:.+]] = memref.reinterpret_cast %[[FLAT]] to offset: [0], sizes: [%[[M]], %[[N]], 3], strides: [%[[S]], 3, 1] : memref<96xf32> to memref<?x?x3xf32>
// CHECK:         return %[[V]]
func.func @bounded(%a: index, %b: index) -> memref<?x?x3xf32> {
  %m = affine.min affine_map<()[s0] -> (s0, 4)>()[%a]
  %n = affine.min affine_map<()[s0] -> (s0, 8)>()[%b]
  %0 = memref.alloc(%m, %n) {alignment = 64 : i64} : memref<?x?x3xf32>
  return %0 : memref<?x?x3xf32>
}

// -----

// A size without a bound is an error.
func.func @unbounded(%a: index) -> memref<?xf32> {
  // expected-error @+1 {{cannot bound dimension 0 of 'memref<?xf32>': its size is not bounded at compile time}}
  %0 = memref.alloc(%a) : memref<?xf32>
  return %0 : memref<?xf32>
}

// -----

// A loop's carried buffer keeps its initial size (the frontend refuses
// loops whose carried shapes change): a buffer sized by its dimension in the
// body is bounded by the initial buffer's size (1 to 4).
// CHECK-LABEL: func.func @carried
// CHECK:         scf.while
// CHECK:         } do {
// CHECK:           memref.alloc() {alignment = 64 : i64} : memref<4xf32>
func.func @carried(%a: index, %n: i64) {
  %m1 = affine.max affine_map<()[s0] -> (s0, 1)>()[%a]
  %m = affine.min affine_map<()[s0] -> (s0, 4)>()[%m1]
  %init = memref.alloc(%m) {alignment = 64 : i64} : memref<?xf32>
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %r:2 = scf.while (%i = %c0, %x = %init) : (i64, memref<?xf32>) -> (i64, memref<?xf32>) {
    %go = arith.cmpi slt, %i, %n : i64
    scf.condition(%go) %i, %x : i64, memref<?xf32>
  } do {
  ^bb0(%i: i64, %x: memref<?xf32>):
    %z = arith.constant 0 : index
    %d = memref.dim %x, %z : memref<?xf32>
    %t = memref.alloc(%d) {alignment = 64 : i64} : memref<?xf32>
    memref.copy %t, %x : memref<?xf32> to memref<?xf32>
    %next = arith.addi %i, %c1 : i64
    scf.yield %next, %x : i64, memref<?xf32>
  }
  return
}
