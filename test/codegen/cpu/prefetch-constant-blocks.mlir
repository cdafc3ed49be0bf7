// RUN: dlc-opt %s -split-input-file --dlc-cpu-prefetch-constant-blocks="min-bytes=0 min-block-bytes=0" --canonicalize --cse | FileCheck %s
// RUN: dlc-opt %s -split-input-file --dlc-cpu-prefetch-constant-blocks | FileCheck %s --check-prefix=DEFAULT

// A tile (f, r) reads block f / 32 of a packed constant (blocks of
// 8 x 3 x 32 = 768 elements), 96 elements per step c; the 7 tiles r of a
// block each prefetch a seventh of the next block. A read's share (96 / 7
// elements) is under a line of 16, so each tile prefetches its whole share
// once, when it starts: the 8 lines (110 elements, plus one for a share that
// starts mid-line) from element (f / 32 + 1) * 768 + r * 768 / 7 of the
// constant flattened, clamped to its last element (3071); its steps
// prefetch nothing.
// With the defaults, a constant of 12 KiB is too small to be prefetched.
// CHECK-LABEL: func.func @blocks
// CHECK-DAG:     %[[LAST:.+]] = arith.constant 3071 : index
// CHECK-DAG:     %[[C16:.+]] = arith.constant 16 : index
// CHECK-DAG:     %[[B:.+]] = arith.constant 768 : index
// CHECK-DAG:     %[[C7:.+]] = arith.constant 7 : index
// CHECK-DAG:     %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG:     %[[C8:.+]] = arith.constant 8 : index
// CHECK-DAG:     %[[C32:.+]] = arith.constant 32 : index
// CHECK:         %[[G:.+]] = memref.get_global @w : memref<4x8x3x32xf32>
// CHECK:         %[[FLAT:.+]] = memref.collapse_shape %[[G]] {{\[\[}}0, 1, 2, 3]] : memref<4x8x3x32xf32> into memref<3072xf32>
// CHECK:         scf.forall (%[[F:.+]], %[[R:.+]]) = (0, 0) to (128, 7) step (32, 1)
// CHECK:           %[[BLK:.+]] = arith.divui %[[F]], %[[C32]]
// CHECK:           %[[NB:.+]] = arith.addi %[[BLK]], %[[C1]]
// CHECK:           %[[NEXT:.+]] = arith.muli %[[NB]], %[[B]]
// CHECK:           %[[T:.+]] = arith.muli %[[R]], %[[B]]
// CHECK:           %[[SHARE:.+]] = arith.divui %[[T]], %[[C7]]
// CHECK:           %[[AT:.+]] = arith.addi %[[NEXT]], %[[SHARE]]
// CHECK:           scf.for %[[L:.+]] = %[[C0]] to %[[C8]] step %[[C1]] {
// CHECK:             %[[LINE:.+]] = arith.muli %[[L]], %[[C16]]
// CHECK:             %[[AL:.+]] = arith.addi %[[AT]], %[[LINE]]
// CHECK:             %[[I:.+]] = arith.minui %[[AL]], %[[LAST]]
// CHECK:             memref.prefetch %[[FLAT]][%[[I]]], read, locality<2>, data : memref<3072xf32>
// CHECK:           }
// CHECK:           scf.for
// CHECK-NOT:         memref.prefetch
// CHECK:             vector.transfer_read %[[G]][%[[BLK]], %{{.+}}, %[[C0]], %[[C0]]]
// CHECK:           memref.store
// DEFAULT-LABEL: func.func @blocks
// DEFAULT-NOT:   memref.prefetch
memref.global "private" constant @w : memref<4x8x3x32xf32> = dense<1.0>

func.func @blocks(%out: memref<128x7xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %pad = arith.constant 0.0 : f32
  %g = memref.get_global @w : memref<4x8x3x32xf32>
  scf.forall (%f, %r) = (0, 0) to (128, 7) step (32, 1) {
    %init = arith.constant dense<0.0> : vector<3x32xf32>
    %acc = scf.for %c = %c0 to %c8 step %c1 iter_args(%a = %init) -> (vector<3x32xf32>) {
      %blk = arith.divui %f, %c32 : index
      %v = vector.transfer_read %g[%blk, %c, %c0, %c0], %pad {in_bounds = [true, true]} : memref<4x8x3x32xf32>, vector<3x32xf32>
      %s = arith.addf %a, %v : vector<3x32xf32>
      scf.yield %s : vector<3x32xf32>
    }
    %e = vector.extract %acc[0, 0] : f32 from vector<3x32xf32>
    memref.store %e, %out[%f, %r] : memref<128x7xf32>
  }
  return
}

// -----

// The same reads over blocks of 64 x 3 x 32 = 6144 elements: a tile's share
// of the next block (878 elements) would be 56 lines at its start, over the
// 16 a tile prefetches at once, so its steps keep their prefetches.
// CHECK-LABEL: func.func @large_share
// CHECK:         scf.forall
// CHECK-NOT:       memref.prefetch
// CHECK:           scf.for
// CHECK:             memref.prefetch
// CHECK-NEXT:        vector.transfer_read
memref.global "private" constant @w : memref<4x64x3x32xf32> = dense<1.0>

func.func @large_share(%out: memref<128x7xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c32 = arith.constant 32 : index
  %pad = arith.constant 0.0 : f32
  %g = memref.get_global @w : memref<4x64x3x32xf32>
  scf.forall (%f, %r) = (0, 0) to (128, 7) step (32, 1) {
    %init = arith.constant dense<0.0> : vector<3x32xf32>
    %acc = scf.for %c = %c0 to %c64 step %c1 iter_args(%a = %init) -> (vector<3x32xf32>) {
      %blk = arith.divui %f, %c32 : index
      %v = vector.transfer_read %g[%blk, %c, %c0, %c0], %pad {in_bounds = [true, true]} : memref<4x64x3x32xf32>, vector<3x32xf32>
      %s = arith.addf %a, %v : vector<3x32xf32>
      scf.yield %s : vector<3x32xf32>
    }
    %e = vector.extract %acc[0, 0] : f32 from vector<3x32xf32>
    memref.store %e, %out[%f, %r] : memref<128x7xf32>
  }
  return
}

// -----

// One tile per block (unit steps, the block is the loop variable): each
// read of 32 elements prefetches its whole share of the next block, two
// lines of 16 elements.
// CHECK-LABEL: func.func @one_tile_per_block
// CHECK-DAG:     %[[C16:.+]] = arith.constant 16 : index
// CHECK:         scf.forall (%[[F:.+]]) in (4)
// CHECK:           scf.for
// CHECK:             %[[I0:.+]] = arith.minui %[[AT:.+]], %{{.+}}
// CHECK:             memref.prefetch %{{.+}}[%[[I0]]]
// CHECK:             %[[AT1:.+]] = arith.addi %[[AT]], %[[C16]]
// CHECK:             %[[I1:.+]] = arith.minui %[[AT1]], %{{.+}}
// CHECK:             memref.prefetch %{{.+}}[%[[I1]]]
// CHECK-NOT:         memref.prefetch
// CHECK:             vector.transfer_read
memref.global "private" constant @w : memref<4x8x32xf32> = dense<1.0>

func.func @one_tile_per_block(%out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %pad = arith.constant 0.0 : f32
  %g = memref.get_global @w : memref<4x8x32xf32>
  scf.forall (%f) in (4) {
    %init = arith.constant dense<0.0> : vector<32xf32>
    %acc = scf.for %c = %c0 to %c8 step %c1 iter_args(%a = %init) -> (vector<32xf32>) {
      %v = vector.transfer_read %g[%f, %c, %c0], %pad {in_bounds = [true]} : memref<4x8x32xf32>, vector<32xf32>
      %s = arith.addf %a, %v : vector<32xf32>
      scf.yield %s : vector<32xf32>
    }
    %e = vector.extract %acc[0] : f32 from vector<32xf32>
    memref.store %e, %out[%f] : memref<4xf32>
  }
  return
}

// -----

// Left alone: a mutable global; a read whose place inside the block
// depends on the parallel loop (no block structure to follow); a read
// outside any serial loop of the tile.
// CHECK-LABEL: func.func @not_blocks
// CHECK-NOT:     memref.prefetch
memref.global "private" @m : memref<4x8x32xf32> = dense<1.0>
memref.global "private" constant @w : memref<4x8x32xf32> = dense<1.0>

func.func @not_blocks(%out: memref<4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %pad = arith.constant 0.0 : f32
  %m = memref.get_global @m : memref<4x8x32xf32>
  %w = memref.get_global @w : memref<4x8x32xf32>
  scf.forall (%f, %r) in (4, 8) {
    %init = arith.constant dense<0.0> : vector<32xf32>
    %acc = scf.for %c = %c0 to %c8 step %c1 iter_args(%a = %init) -> (vector<32xf32>) {
      %v = vector.transfer_read %m[%f, %c, %c0], %pad {in_bounds = [true]} : memref<4x8x32xf32>, vector<32xf32>
      %u = vector.transfer_read %w[%f, %r, %c0], %pad {in_bounds = [true]} : memref<4x8x32xf32>, vector<32xf32>
      %s = arith.addf %a, %v : vector<32xf32>
      %t = arith.addf %s, %u : vector<32xf32>
      scf.yield %t : vector<32xf32>
    }
    %x = vector.transfer_read %w[%f, %c0, %c0], %pad {in_bounds = [true]} : memref<4x8x32xf32>, vector<32xf32>
    %y = arith.addf %acc, %x : vector<32xf32>
    %e = vector.extract %y[0] : f32 from vector<32xf32>
    memref.store %e, %out[%f, %r] : memref<4x8xf32>
  }
  return
}
