// RUN: dlc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(dlc-dynamic-expand-shapes))' --mlir-print-local-scope | FileCheck %s

// An expand_shape with two dynamic sizes in one group becomes a
// reinterpret_cast of the base buffer: sizes from output_shape, strides
// from the sizes inside the group (8 and %n * 8).
// CHECK-LABEL: func.func @two_dynamic
// CHECK-SAME:    (%[[SRC:.+]]: memref<?xf32>, %[[M:.+]]: index, %[[N:.+]]: index)
// CHECK:         %[[BASE:.+]], %[[OFF:.+]], %[[SIZE:.+]], %[[STRIDE:.+]] = memref.extract_strided_metadata %[[SRC]]
// CHECK:         %[[S1:.+]] = arith.muli %[[STRIDE]], %c8
// CHECK:         %[[S0:.+]] = arith.muli %[[S1]], %[[N]]
// CHECK:         %[[CAST:.+]] = memref.reinterpret_cast %[[BASE]] to offset: [0], sizes: [%[[M]], %[[N]], 8], strides: [%[[S0]], 8, 1] : memref<f32> to memref<?x?x8xf32>
// CHECK:         return %[[CAST]]
func.func @two_dynamic(%src: memref<?xf32>, %m: index, %n: index) -> memref<?x?x8xf32> {
  %e = memref.expand_shape %src [[0, 1, 2]] output_shape [%m, %n, 8] : memref<?xf32> into memref<?x?x8xf32>
  return %e : memref<?x?x8xf32>
}

// -----

// One dynamic size per group is left to expand-strided-metadata.
// CHECK-LABEL: func.func @one_dynamic
// CHECK:         memref.expand_shape
// CHECK-NOT:     memref.reinterpret_cast
func.func @one_dynamic(%src: memref<?xf32>, %m: index) -> memref<?x8xf32> {
  %e = memref.expand_shape %src [[0, 1]] output_shape [%m, 8] : memref<?xf32> into memref<?x8xf32>
  return %e : memref<?x8xf32>
}
