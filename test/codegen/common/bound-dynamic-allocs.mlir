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
