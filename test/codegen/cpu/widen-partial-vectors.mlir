// RUN: dlc-opt %s -split-input-file --dlc-cpu-widen-partial-vectors | FileCheck %s
// RUN: dlc-opt %s -split-input-file --dlc-cpu-widen-partial-vectors="masked-stores=0" | FileCheck %s --check-prefix=NOSTORE
// RUN: dlc-opt %s -split-input-file --dlc-cpu-widen-partial-vectors="masked-loads=0 masked-stores=0" | FileCheck %s --check-prefix=OFF

// A row of 7 read and written in memory: a masked load of 8 with the first
// 7 lanes enabled, the 7 lanes taken from it; the write widened by a
// shuffle and stored through the same mask. The loaded row is used whole
// (an add), not lane by lane.
// CHECK-LABEL: func.func @row_of_7
// CHECK-DAG:     %[[MASK:.*]] = arith.constant dense<[true, true, true, true, true, true, true, false]> : vector<8xi1>
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<8xf32>
// CHECK:         %[[WIDE:.*]] = vector.maskedload %{{.*}}[%{{.*}}, %{{.*}}], %[[MASK]], %[[ZERO]] : memref<4x7xf32>, vector<8xi1>, vector<8xf32> into vector<8xf32>
// CHECK:         %[[ROW:.*]] = vector.extract_strided_slice %[[WIDE]] {offsets = [0], sizes = [7], strides = [1]} : vector<8xf32> to vector<7xf32>
// CHECK:         %[[SUM:.*]] = arith.addf %[[ROW]], %[[ROW]] : vector<7xf32>
// CHECK:         %[[OUT:.*]] = vector.shuffle %[[SUM]], %[[SUM]] [0, 1, 2, 3, 4, 5, 6, 0] : vector<7xf32>, vector<7xf32>
// CHECK:         vector.maskedstore %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}, %[[OUT]] : memref<4x7xf32, strided<[7, 1], offset: ?>>, vector<8xi1>, vector<8xf32>
// NOSTORE-LABEL: func.func @row_of_7
// NOSTORE:       vector.maskedload
// NOSTORE:       vector.transfer_write %{{.*}} {in_bounds = [true]} : vector<7xf32>
// OFF-LABEL:   func.func @row_of_7
// OFF-NOT:       vector.masked
// OFF:           vector.transfer_read
// OFF:           vector.transfer_write
func.func @row_of_7(%in: memref<4x7xf32>, %out: memref<4x7xf32, strided<[7, 1], offset: ?>>, %i: index) {
  %pad = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %v = vector.transfer_read %in[%i, %c0], %pad {in_bounds = [true]} : memref<4x7xf32>, vector<7xf32>
  %s = arith.addf %v, %v : vector<7xf32>
  vector.transfer_write %s, %out[%i, %c0] {in_bounds = [true]} : vector<7xf32>, memref<4x7xf32, strided<[7, 1], offset: ?>>
  return
}

// -----

// vector.load and vector.store of 14 elements: 16 lanes, 14 enabled.
// CHECK-LABEL: func.func @load_store_14
// CHECK:         vector.maskedload %{{.*}} : memref<2x14xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
// CHECK:         vector.maskedstore %{{.*}} : memref<2x14xf32>, vector<16xi1>, vector<16xf32>
func.func @load_store_14(%in: memref<2x14xf32>, %out: memref<2x14xf32>, %i: index) {
  %c0 = arith.constant 0 : index
  %v = vector.load %in[%i, %c0] : memref<2x14xf32>, vector<14xf32>
  %s = arith.mulf %v, %v : vector<14xf32>
  vector.store %s, %out[%i, %c0] : memref<2x14xf32>, vector<14xf32>
  return
}

// -----

// Left alone: a power of two; a row only split into lanes (each lane
// becomes a scalar load folded into its broadcast); a row read in a loop
// that carries accumulators (a contraction's reduction step); a transfer
// that may run out of bounds; elements of 8 bits; a tile's stack scratch
// (LLVM promotes it to registers).
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     vector.masked
// CHECK:         return
func.func @left_alone(%in: memref<4x8xf32>, %r: memref<4x7xf32>, %b: memref<4x7xi8>, %i: index) -> (vector<8xf32>, f32, f32, vector<7xf32>, vector<7xi8>, vector<7xf32>, vector<7xf32>) {
  %pad = arith.constant 0.0 : f32
  %padi = arith.constant 0 : i8
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %pow2 = vector.transfer_read %in[%i, %c0], %pad {in_bounds = [true]} : memref<4x8xf32>, vector<8xf32>
  %row = vector.transfer_read %r[%i, %c0], %pad {in_bounds = [true]} : memref<4x7xf32>, vector<7xf32>
  %l0 = vector.extract %row[0] : f32 from vector<7xf32>
  %l1 = vector.extract %row[1] : f32 from vector<7xf32>
  %zero = arith.constant dense<0.0> : vector<7xf32>
  %acc = scf.for %k = %c0 to %c4 step %c1 iter_args(%a = %zero) -> (vector<7xf32>) {
    %x = vector.transfer_read %r[%k, %c0], %pad {in_bounds = [true]} : memref<4x7xf32>, vector<7xf32>
    %n = arith.addf %a, %x : vector<7xf32>
    scf.yield %n : vector<7xf32>
  }
  %oob = vector.transfer_read %r[%i, %c1], %pad {in_bounds = [false]} : memref<4x7xf32>, vector<7xf32>
  %bytes = vector.transfer_read %b[%i, %c0], %padi {in_bounds = [true]} : memref<4x7xi8>, vector<7xi8>
  %scratch = memref.alloca() : memref<1x7xf32>
  vector.transfer_write %zero, %scratch[%c0, %c0] {in_bounds = [true]} : vector<7xf32>, memref<1x7xf32>
  %back = vector.transfer_read %scratch[%c0, %c0], %pad {in_bounds = [true]} : memref<1x7xf32>, vector<7xf32>
  return %pow2, %l0, %l1, %acc, %bytes, %oob, %back : vector<8xf32>, f32, f32, vector<7xf32>, vector<7xi8>, vector<7xf32>, vector<7xf32>
}

// -----

// A row written and read back in the same block (a tile's initial value
// stored, then loaded as its accumulator) stays plain on both sides, so
// that LLVM forwards the stored value to the load; the final write of the
// result is masked.
// CHECK-LABEL: func.func @written_then_read
// CHECK:         vector.transfer_write %{{.*}} : vector<7xf32>, memref<4x7xf32>
// CHECK:         vector.transfer_read %{{.*}} : memref<4x7xf32>, vector<7xf32>
// CHECK:         vector.maskedstore
func.func @written_then_read(%out: memref<4x7xf32>, %init: vector<7xf32>, %i: index) {
  %pad = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  vector.transfer_write %init, %out[%i, %c0] {in_bounds = [true]} : vector<7xf32>, memref<4x7xf32>
  %acc = vector.transfer_read %out[%i, %c0], %pad {in_bounds = [true]} : memref<4x7xf32>, vector<7xf32>
  %s = arith.addf %acc, %acc : vector<7xf32>
  %c1 = arith.constant 1 : index
  %sv = memref.subview %out[%c1, 0] [1, 7] [1, 1] : memref<4x7xf32> to memref<1x7xf32, strided<[7, 1], offset: ?>>
  vector.transfer_write %s, %sv[%c0, %c0] {in_bounds = [true]} : vector<7xf32>, memref<1x7xf32, strided<[7, 1], offset: ?>>
  return
}
