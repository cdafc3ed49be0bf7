// RUN: dlc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(dlc-erase-copies-in-place))' | FileCheck %s

// A full and a partial tile computed in place in the branches of an scf.if,
// each into a view of %out at (%i, 0): the copy of the if's result into the
// same view copies memory onto itself and is erased.
// CHECK-LABEL: func.func @versioned_tile
// CHECK:         scf.if
// CHECK-NOT:     memref.copy
// CHECK:         return
func.func @versioned_tile(%out: memref<?x32xf32>, %i: index, %n: index, %full: i1) {
  %r = scf.if %full -> (memref<?x32xf32, strided<[32, 1], offset: ?>>) {
    %v = memref.subview %out[%i, 0] [8, 32] [1, 1] : memref<?x32xf32> to memref<8x32xf32, strided<[32, 1], offset: ?>>
    %c = memref.cast %v : memref<8x32xf32, strided<[32, 1], offset: ?>> to memref<?x32xf32, strided<[32, 1], offset: ?>>
    scf.yield %c : memref<?x32xf32, strided<[32, 1], offset: ?>>
  } else {
    %v = memref.subview %out[%i, 0] [%n, 32] [1, 1] : memref<?x32xf32> to memref<?x32xf32, strided<[32, 1], offset: ?>>
    scf.yield %v : memref<?x32xf32, strided<[32, 1], offset: ?>>
  }
  %dst = memref.subview %out[%i, 0] [%n, 32] [1, 1] : memref<?x32xf32> to memref<?x32xf32, strided<[32, 1], offset: ?>>
  memref.copy %r, %dst : memref<?x32xf32, strided<[32, 1], offset: ?>> to memref<?x32xf32, strided<[32, 1], offset: ?>>
  return
}

// -----

// A branch whose view starts elsewhere (row %j), or another buffer: the
// copies move data and stay.
// CHECK-LABEL: func.func @elsewhere
// CHECK:         memref.copy
// CHECK:         memref.copy
func.func @elsewhere(%out: memref<?x32xf32>, %tmp: memref<?x32xf32>, %i: index, %j: index, %n: index, %full: i1) {
  %r = scf.if %full -> (memref<?x32xf32, strided<[32, 1], offset: ?>>) {
    %v = memref.subview %out[%i, 0] [%n, 32] [1, 1] : memref<?x32xf32> to memref<?x32xf32, strided<[32, 1], offset: ?>>
    scf.yield %v : memref<?x32xf32, strided<[32, 1], offset: ?>>
  } else {
    %v = memref.subview %out[%j, 0] [%n, 32] [1, 1] : memref<?x32xf32> to memref<?x32xf32, strided<[32, 1], offset: ?>>
    scf.yield %v : memref<?x32xf32, strided<[32, 1], offset: ?>>
  }
  %dst = memref.subview %out[%i, 0] [%n, 32] [1, 1] : memref<?x32xf32> to memref<?x32xf32, strided<[32, 1], offset: ?>>
  memref.copy %r, %dst : memref<?x32xf32, strided<[32, 1], offset: ?>> to memref<?x32xf32, strided<[32, 1], offset: ?>>
  %src = memref.subview %tmp[%i, 0] [%n, 32] [1, 1] : memref<?x32xf32> to memref<?x32xf32, strided<[32, 1], offset: ?>>
  memref.copy %src, %dst : memref<?x32xf32, strided<[32, 1], offset: ?>> to memref<?x32xf32, strided<[32, 1], offset: ?>>
  return
}

// -----

// Rank-reducing views from one start may cover different memory (a row and
// a column of %out, both seen as 4 elements): the copy stays.
// CHECK-LABEL: func.func @rank_reducing
// CHECK:         memref.copy
func.func @rank_reducing(%out: memref<4x4xf32>) {
  %row = memref.subview %out[0, 0] [1, 4] [1, 1] : memref<4x4xf32> to memref<4xf32, strided<[1]>>
  %col = memref.subview %out[0, 0] [4, 1] [1, 1] : memref<4x4xf32> to memref<4xf32, strided<[4]>>
  %c = memref.cast %col : memref<4xf32, strided<[4]>> to memref<4xf32, strided<[?]>>
  %r = memref.cast %row : memref<4xf32, strided<[1]>> to memref<4xf32, strided<[?]>>
  memref.copy %c, %r : memref<4xf32, strided<[?]>> to memref<4xf32, strided<[?]>>
  return
}
