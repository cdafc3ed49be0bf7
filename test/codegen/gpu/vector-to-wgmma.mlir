// RUN: dlc-opt %s -split-input-file -verify-diagnostics --dlc-gpu-vector-to-wgmma | FileCheck %s

// A block of one warpgroup (128 threads, warp w on rows 16 w..) multiplies
// a staged 64 x 32 tile of A by an 8 x 32 tile of B, K steps of 8 (tf32,
// m64n8k8). The tiles take wgmma's K-major layout (8 x 16-byte core
// matrices: memref<K/4 x rows x 4>), the copy into A is rewritten to it;
// each step is one dlc.warpgroup_mma on descriptors of the group's 64 rows
// (the leading offset, rows * 16 bytes between K blocks, in bits 16..29;
// the stride offset, 128 bytes, in bits 32..45: 64 << 16 | 8 << 32 for A,
// 8 << 16 | 8 << 32 for B) and the accumulator is
// each thread's 4 elements of the D fragment, read and written two at a
// time at its lane's rows and columns.
#cfg = #dlc.gpu_config<kind = contraction, workgroup = [64, 8, 0], thread = [16, 8, 8], reduction = [0, 0, 32], pipeline_depth = 1, precision = tf32, mma = [64, 8, 8]>
#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#mapb = affine_map<(d0, d1, d2) -> (d1, d2)>
#mapc = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @one_group
// CHECK: %[[A:.*]] = memref.alloc() : memref<8x64x4xf32, #gpu.address_space<workgroup>>
// CHECK: %[[B:.*]] = memref.alloc() : memref<8x8x4xf32, #gpu.address_space<workgroup>>
// CHECK: vector.transfer_write %{{.*}}, %[[A]][%{{.*}}, %{{.*}}, %{{.*}}] {in_bounds = [true, true]} : vector<4x4xf32>, memref<8x64x4xf32, #gpu.address_space<workgroup>>
// The loop over the step's 4 instructions is unrolled (so that they chain).
// CHECK: %[[R0:.*]] = vector.transfer_read %{{.*}} {in_bounds = [true]} : memref<64x8xf32>, vector<2xf32>
// CHECK: %[[R1:.*]] = vector.transfer_read %{{.*}} {in_bounds = [true]} : memref<64x8xf32>, vector<2xf32>
// CHECK: %[[ACC:.*]] = vector.insert_strided_slice %[[R1]], %{{.*}} {offsets = [2], strides = [1]} : vector<2xf32> into vector<4xf32>
// CHECK-NOT: scf.for
// CHECK: memref.extract_aligned_pointer_as_index %[[A]]
// CHECK: arith.constant 34363932672 : i64
// CHECK: memref.extract_aligned_pointer_as_index %[[B]]
// CHECK: arith.constant 34360262656 : i64
// CHECK: %[[D0:.*]] = dlc.warpgroup_mma %{{.*}}, %{{.*}}, %[[ACC]] {n = 8 : i64, precision = #dlc<gpu_precision tf32>} : vector<4xf32>
// CHECK: %[[D1:.*]] = dlc.warpgroup_mma %{{.*}}, %{{.*}}, %[[D0]]
// CHECK: %[[D2:.*]] = dlc.warpgroup_mma %{{.*}}, %{{.*}}, %[[D1]]
// CHECK: %[[D3:.*]] = dlc.warpgroup_mma %{{.*}}, %{{.*}}, %[[D2]]
// CHECK: vector.extract_strided_slice %[[D3]] {offsets = [0], sizes = [2], strides = [1]}
// CHECK-COUNT-2: vector.transfer_write %{{.*}} {in_bounds = [true]} : vector<2xf32>, memref<64x8xf32>
// CHECK-NOT: vector.contract
// CHECK-NOT: unrealized_conversion_cast
func.func @one_group(%a: memref<64x32xf32>, %c: memref<64x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %pad = ub.poison : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %tid = gpu.thread_id x
    %row = affine.apply affine_map<()[s0] -> ((s0 floordiv 32) * 16)>()[%tid]
    %acc0 = vector.transfer_read %c[%row, %c0], %pad {in_bounds = [true, true]} : memref<64x8xf32>, vector<16x8xf32>
    %sa = memref.alloc() : memref<64x32xf32, #gpu.address_space<workgroup>>
    %sb = memref.alloc() : memref<8x32xf32, #gpu.address_space<workgroup>>
    %r4 = affine.apply affine_map<()[s0] -> ((s0 floordiv 8) * 4)>()[%tid]
    %k4 = affine.apply affine_map<()[s0] -> ((s0 mod 8) * 4)>()[%tid]
    %v = vector.transfer_read %a[%r4, %k4], %pad {in_bounds = [true, true]} : memref<64x32xf32>, vector<4x4xf32>
    vector.transfer_write %v, %sa[%r4, %k4] {in_bounds = [true, true]} : vector<4x4xf32>, memref<64x32xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %res = scf.for %k = %c0 to %c32 step %c8 iter_args(%acc = %acc0) -> (vector<16x8xf32>) {
      %ra = vector.transfer_read %sa[%row, %k], %pad {in_bounds = [true, true]} : memref<64x32xf32, #gpu.address_space<workgroup>>, vector<16x8xf32>
      %rb = vector.transfer_read %sb[%c0, %k], %pad {in_bounds = [true, true]} : memref<8x32xf32, #gpu.address_space<workgroup>>, vector<8x8xf32>
      %d = vector.contract {indexing_maps = [#map, #mapb, #mapc], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %ra, %rb, %acc {dlc.gpu_config = #cfg} : vector<16x8xf32>, vector<8x8xf32> into vector<16x8xf32>
      scf.yield %d : vector<16x8xf32>
    }
    vector.transfer_write %res, %c[%row, %c0] {in_bounds = [true, true]} : vector<16x8xf32>, memref<64x8xf32>
    gpu.terminator
  }
  return
}

// -----

// An operand read from global memory, not from a shared tile.
#cfg = #dlc.gpu_config<kind = contraction, workgroup = [64, 8, 0], thread = [16, 8, 8], reduction = [0, 0, 32], pipeline_depth = 1, precision = tf32, mma = [64, 8, 8]>
#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#mapb = affine_map<(d0, d1, d2) -> (d1, d2)>
#mapc = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @global_operand(%a: memref<64x32xf32>, %c: memref<64x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %pad = ub.poison : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %acc = vector.transfer_read %c[%c0, %c0], %pad {in_bounds = [true, true]} : memref<64x8xf32>, vector<16x8xf32>
    %sb = memref.alloc() : memref<8x32xf32, #gpu.address_space<workgroup>>
    %ra = vector.transfer_read %a[%c0, %c0], %pad {in_bounds = [true, true]} : memref<64x32xf32>, vector<16x8xf32>
    %rb = vector.transfer_read %sb[%c0, %c0], %pad {in_bounds = [true, true]} : memref<8x32xf32, #gpu.address_space<workgroup>>, vector<8x8xf32>
    // expected-error @+1 {{a warpgroup contraction must multiply rows of two shared tiles (K innermost) into a 16 x N accumulator per warp}}
    %d = vector.contract {indexing_maps = [#map, #mapb, #mapc], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %ra, %rb, %acc {dlc.gpu_config = #cfg} : vector<16x8xf32>, vector<8x8xf32> into vector<16x8xf32>
    vector.transfer_write %d, %c[%c0, %c0] {in_bounds = [true, true]} : vector<16x8xf32>, memref<64x8xf32>
    gpu.terminator
  }
  return
}

// -----

// A copy whose 3 elements along K may straddle two 16-byte core-matrix rows.
#cfg = #dlc.gpu_config<kind = contraction, workgroup = [64, 8, 0], thread = [16, 8, 8], reduction = [0, 0, 32], pipeline_depth = 1, precision = tf32, mma = [64, 8, 8]>
#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#mapb = affine_map<(d0, d1, d2) -> (d1, d2)>
#mapc = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @straddling_copy(%a: memref<64x32xf32>, %c: memref<64x8xf32>, %j: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %pad = ub.poison : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %acc = vector.transfer_read %c[%c0, %c0], %pad {in_bounds = [true, true]} : memref<64x8xf32>, vector<16x8xf32>
    %sa = memref.alloc() : memref<64x32xf32, #gpu.address_space<workgroup>>
    %sb = memref.alloc() : memref<8x32xf32, #gpu.address_space<workgroup>>
    %v = vector.transfer_read %a[%c0, %j], %pad {in_bounds = [true, true]} : memref<64x32xf32>, vector<4x3xf32>
    // expected-error @+1 {{a copy into a warpgroup operand tile crosses its 16-byte core-matrix rows}}
    vector.transfer_write %v, %sa[%c0, %j] {in_bounds = [true, true]} : vector<4x3xf32>, memref<64x32xf32, #gpu.address_space<workgroup>>
    %ra = vector.transfer_read %sa[%c0, %c0], %pad {in_bounds = [true, true]} : memref<64x32xf32, #gpu.address_space<workgroup>>, vector<16x8xf32>
    %rb = vector.transfer_read %sb[%c0, %c0], %pad {in_bounds = [true, true]} : memref<8x32xf32, #gpu.address_space<workgroup>>, vector<8x8xf32>
    %d = vector.contract {indexing_maps = [#map, #mapb, #mapc], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %ra, %rb, %acc {dlc.gpu_config = #cfg} : vector<16x8xf32>, vector<8x8xf32> into vector<16x8xf32>
    vector.transfer_write %d, %c[%c0, %c0] {in_bounds = [true, true]} : vector<16x8xf32>, memref<64x8xf32>
    gpu.terminator
  }
  return
}

// -----

// A shared tile that something else reads too.
#cfg = #dlc.gpu_config<kind = contraction, workgroup = [64, 8, 0], thread = [16, 8, 8], reduction = [0, 0, 32], pipeline_depth = 1, precision = tf32, mma = [64, 8, 8]>
#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#mapb = affine_map<(d0, d1, d2) -> (d1, d2)>
#mapc = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @other_reader(%c: memref<64x8xf32>, %out: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %pad = ub.poison : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %acc = vector.transfer_read %c[%c0, %c0], %pad {in_bounds = [true, true]} : memref<64x8xf32>, vector<16x8xf32>
    %sa = memref.alloc() : memref<64x32xf32, #gpu.address_space<workgroup>>
    %sb = memref.alloc() : memref<8x32xf32, #gpu.address_space<workgroup>>
    // expected-error @+1 {{cannot lay out a warpgroup operand tile for wgmma: it is used by}}
    %x = memref.load %sa[%c0, %c0] : memref<64x32xf32, #gpu.address_space<workgroup>>
    memref.store %x, %out[] : memref<f32>
    %ra = vector.transfer_read %sa[%c0, %c0], %pad {in_bounds = [true, true]} : memref<64x32xf32, #gpu.address_space<workgroup>>, vector<16x8xf32>
    %rb = vector.transfer_read %sb[%c0, %c0], %pad {in_bounds = [true, true]} : memref<8x32xf32, #gpu.address_space<workgroup>>, vector<8x8xf32>
    %d = vector.contract {indexing_maps = [#map, #mapb, #mapc], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %ra, %rb, %acc {dlc.gpu_config = #cfg} : vector<16x8xf32>, vector<8x8xf32> into vector<16x8xf32>
    vector.transfer_write %d, %c[%c0, %c0] {in_bounds = [true, true]} : vector<16x8xf32>, memref<64x8xf32>
    gpu.terminator
  }
  return
}
