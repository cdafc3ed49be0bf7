// RUN: dlc-opt %s -split-input-file --dlc-copy-to-linalg | FileCheck %s
// RUN: dlc-opt %s -split-input-file --dlc-copy-to-linalg --convert-linalg-to-loops | FileCheck %s --check-prefix=LOOPS
// RUN: dlc-opt %s -split-input-file --dlc-copy-to-linalg=keep-contiguous=1 | FileCheck %s --check-prefix=KEEP

// Every memref.copy becomes a linalg.copy with the same source and target.
// CHECK-LABEL: func.func @contiguous
// CHECK-SAME:    (%[[A:.+]]: memref<4x8xf32>, %[[B:.+]]: memref<4x8xf32>)
// CHECK-NEXT:    linalg.copy ins(%[[A]] : memref<4x8xf32>) outs(%[[B]] : memref<4x8xf32>)
// CHECK-NEXT:    return
// With keep-contiguous (the CPU pipeline) a copy between contiguous
// buffers stays, to lower to a memcpy.
// KEEP-LABEL: func.func @contiguous
// KEEP-NEXT:    memref.copy
// KEEP-NOT:     linalg.copy
func.func @contiguous(%a: memref<4x8xf32>, %b: memref<4x8xf32>) {
  memref.copy %a, %b : memref<4x8xf32> to memref<4x8xf32>
  return
}

// -----

// Non-contiguous (strided) copies, which memref.copy would lower to a call
// of the C runner utilities, become loops of loads and stores instead.
// CHECK-LABEL: func.func @strided
// CHECK:         %[[S:.+]] = memref.subview
// CHECK:         linalg.copy ins(%[[S]] : memref<4x4xf32, strided<[8, 1], offset: 2>>) outs(%{{.+}} : memref<4x4xf32>)
// CHECK-NOT:     memref.copy
// LOOPS-LABEL: func.func @strided
// LOOPS:         scf.for
// LOOPS:           scf.for
// LOOPS:             %[[V:.+]] = memref.load %{{.+}} : memref<4x4xf32, strided<[8, 1], offset: 2>>
// LOOPS:             memref.store %[[V]], %{{.+}} : memref<4x4xf32>
// LOOPS-NOT:     call
// LOOPS-NOT:     memref.copy
// KEEP-LABEL: func.func @strided
// KEEP:         linalg.copy
// KEEP-NOT:     memref.copy
func.func @strided(%a: memref<4x8xf32>, %b: memref<4x4xf32>) {
  %s = memref.subview %a[0, 2] [4, 4] [1, 1] : memref<4x8xf32> to memref<4x4xf32, strided<[8, 1], offset: 2>>
  memref.copy %s, %b : memref<4x4xf32, strided<[8, 1], offset: 2>> to memref<4x4xf32>
  return
}

// -----

// Copies nested in loops are rewritten too; integer element types are kept.
// CHECK-LABEL: func.func @nested
// CHECK:         scf.for
// CHECK:           linalg.copy ins(%{{.+}} : memref<1x4xi64, strided<[4, 1], offset: ?>>) outs(%{{.+}} : memref<1x4xi64, strided<[4, 1], offset: ?>>)
// CHECK-NOT:     memref.copy
// Rows of a row-major buffer are contiguous: kept with keep-contiguous.
// KEEP-LABEL: func.func @nested
// KEEP:         memref.copy %{{.+}}, %{{.+}} : memref<1x4xi64, strided<[4, 1], offset: ?>> to memref<1x4xi64, strided<[4, 1], offset: ?>>
func.func @nested(%a: memref<3x4xi64>, %b: memref<3x4xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  scf.for %i = %c0 to %c3 step %c1 {
    %sa = memref.subview %a[%i, 0] [1, 4] [1, 1] : memref<3x4xi64> to memref<1x4xi64, strided<[4, 1], offset: ?>>
    %sb = memref.subview %b[%i, 0] [1, 4] [1, 1] : memref<3x4xi64> to memref<1x4xi64, strided<[4, 1], offset: ?>>
    memref.copy %sa, %sb : memref<1x4xi64, strided<[4, 1], offset: ?>> to memref<1x4xi64, strided<[4, 1], offset: ?>>
  }
  return
}
