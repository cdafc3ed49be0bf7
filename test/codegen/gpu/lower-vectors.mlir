// RUN: dlc-opt %s --dlc-gpu-lower-vectors --canonicalize --cse | FileCheck %s

// A thread's 2x8 tile of a view becomes 16-byte loads and stores of the
// underlying buffers (4 lanes, one row each), aligned: the buffers are 16-byte
// aligned, the rows 64 floats long and the columns a multiple of 4.
// CHECK-LABEL: func.func @aligned
// CHECK-COUNT-4: vector.load %{{.+}} {alignment = 16 : i64} : memref<16x64xf32>, vector<4xf32>
// CHECK-COUNT-4: vector.store %{{.+}} {alignment = 16 : i64} : memref<16x64xf32>, vector<4xf32>

// Rows of 63 floats: the row start is not known to be a multiple of 16
// bytes, so the load keeps the element alignment.
// CHECK-LABEL: func.func @unaligned
// CHECK:         vector.load %{{.+}} : memref<16x63xf32>, vector<4xf32>
// CHECK-NOT:     alignment
func.func @aligned(%a: memref<16x64xf32>, %b: memref<16x64xf32>, %i: index) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %pad = arith.constant 0.0 : f32
  %j = arith.muli %i, %c4 : index
  %sa = memref.subview %a[%i, %j] [2, 8] [1, 1] : memref<16x64xf32> to memref<2x8xf32, strided<[64, 1], offset: ?>>
  %v = vector.transfer_read %sa[%c0, %c0], %pad {in_bounds = [true, true]} : memref<2x8xf32, strided<[64, 1], offset: ?>>, vector<2x8xf32>
  %w = arith.addf %v, %v : vector<2x8xf32>
  %sb = memref.subview %b[%i, %j] [2, 8] [1, 1] : memref<16x64xf32> to memref<2x8xf32, strided<[64, 1], offset: ?>>
  vector.transfer_write %w, %sb[%c0, %c0] {in_bounds = [true, true]} : vector<2x8xf32>, memref<2x8xf32, strided<[64, 1], offset: ?>>
  return
}
func.func @unaligned(%a: memref<16x63xf32>, %i: index) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %pad = arith.constant 0.0 : f32
  %j = arith.muli %i, %c4 : index
  %v = vector.transfer_read %a[%i, %j], %pad {in_bounds = [true]} : memref<16x63xf32>, vector<4xf32>
  return %v : vector<4xf32>
}
