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

// -----

// With keep-contiguous, a copy into the interior of a padded buffer (rows of
// at least 8 contiguous elements on both sides) becomes loops over the
// rows, each row a contiguous copy (a memcpy), not the scalar loops of
// linalg.copy; without it, one linalg.copy.
// CHECK-LABEL: func.func @padded_interior
// CHECK:         linalg.copy
// KEEP-LABEL: func.func @padded_interior
// KEEP-DAG:     %[[C0:.+]] = arith.constant 0 : index
// KEEP-DAG:     %[[C2:.+]] = arith.constant 2 : index
// KEEP-DAG:     %[[C16:.+]] = arith.constant 16 : index
// KEEP:         %[[V:.+]] = memref.subview %{{.+}}[0, 1, 1] [2, 16, 16] [1, 1, 1]
// KEEP:         scf.for %[[C:.+]] = %[[C0]] to %[[C2]]
// KEEP:           scf.for %[[H:.+]] = %[[C0]] to %[[C16]]
// KEEP:             %[[SRC:.+]] = memref.subview %{{.+}}[%[[C]], %[[H]], 0] [1, 1, 16] [1, 1, 1] : memref<2x16x16xf32> to memref<16xf32, strided<[1], offset: ?>>
// KEEP:             %[[DST:.+]] = memref.subview %[[V]][%[[C]], %[[H]], 0] [1, 1, 16] [1, 1, 1] : memref<2x16x16xf32, strided<[324, 18, 1], offset: 19>> to memref<16xf32, strided<[1], offset: ?>>
// KEEP:             memref.copy %[[SRC]], %[[DST]] : memref<16xf32, strided<[1], offset: ?>> to memref<16xf32, strided<[1], offset: ?>>
// KEEP-NOT:     linalg.copy
func.func @padded_interior(%a: memref<2x16x16xf32>, %b: memref<2x18x18xf32>) {
  %v = memref.subview %b[0, 1, 1] [2, 16, 16] [1, 1, 1] : memref<2x18x18xf32> to memref<2x16x16xf32, strided<[324, 18, 1], offset: 19>>
  memref.copy %a, %v : memref<2x16x16xf32> to memref<2x16x16xf32, strided<[324, 18, 1], offset: 19>>
  return
}
