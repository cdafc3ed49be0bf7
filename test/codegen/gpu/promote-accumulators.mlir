// RUN: dlc-opt %s -split-input-file --dlc-gpu-promote-accumulators | FileCheck %s

// A matmul's reduction loop: the output element is loaded once, carried in
// a register and stored once.
// CHECK-LABEL: func.func @matmul
// CHECK:         scf.parallel (%[[I:.+]], %[[J:.+]]) =
// CHECK:           %[[INIT:.+]] = memref.load %[[C:.+]][%[[I]], %[[J]]]
// CHECK:           %[[R:.+]] = scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[ACC:.+]] = %[[INIT]]) -> (f32) {
// CHECK-NOT:         memref.store
// CHECK:             %[[S:.+]] = arith.addf %[[ACC]], %{{.+}}
// CHECK:             scf.yield %[[S]]
// CHECK:           memref.store %[[R]], %[[C]][%[[I]], %[[J]]]
func.func @matmul(%a: memref<4x8xf32>, %b: memref<8x2xf32>, %c: memref<4x2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c2) step (%c1, %c1) {
    scf.for %k = %c0 to %c8 step %c1 {
      %x = memref.load %a[%i, %k] : memref<4x8xf32>
      %y = memref.load %b[%k, %j] : memref<8x2xf32>
      %acc = memref.load %c[%i, %j] : memref<4x2xf32>
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      memref.store %s, %c[%i, %j] : memref<4x2xf32>
    }
    scf.reduce
  }
  return
}

// -----

// Nested reduction loops (a convolution's): promoted at every level, one
// load before the outer loop and one store after it.
// CHECK-LABEL: func.func @nested
// CHECK:         memref.load %{{.+}}[%{{.+}}] : memref<4xf32>
// CHECK-NEXT:    scf.for {{.+}} iter_args
// CHECK-NEXT:      scf.for {{.+}} iter_args
// CHECK-NOT:     memref.store
// CHECK:         memref.store %{{.+}}, %{{.+}}[%{{.+}}] : memref<4xf32>
func.func @nested(%a: memref<4x3x3xf32>, %c: memref<4xf32>, %i: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  scf.for %k = %c0 to %c3 step %c1 {
    scf.for %l = %c0 to %c3 step %c1 {
      %x = memref.load %a[%i, %k, %l] : memref<4x3x3xf32>
      %acc = memref.load %c[%i] : memref<4xf32>
      %s = arith.addf %acc, %x : f32
      memref.store %s, %c[%i] : memref<4xf32>
    }
  }
  return
}

// -----

// The index depends on the loop (a prefix sum): not an accumulator.
// CHECK-LABEL: func.func @varying
// CHECK:         scf.for
// CHECK-NOT:       iter_args
// CHECK:           memref.store
func.func @varying(%c: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %one = arith.constant 1.0 : f32
  scf.for %k = %c1 to %c8 step %c1 {
    %acc = memref.load %c[%k] : memref<8xf32>
    %s = arith.addf %acc, %one : f32
    memref.store %s, %c[%k] : memref<8xf32>
  }
  return
}

// -----

// The buffer is also read elsewhere in the loop: left alone.
// CHECK-LABEL: func.func @other_read
// CHECK:         scf.for
// CHECK-NOT:       iter_args
// CHECK:           memref.store
func.func @other_read(%c: memref<8xf32>, %i: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %k = %c0 to %c8 step %c1 {
    %acc = memref.load %c[%i] : memref<8xf32>
    %y = memref.load %c[%k] : memref<8xf32>
    %s = arith.addf %acc, %y : f32
    memref.store %s, %c[%i] : memref<8xf32>
  }
  return
}
