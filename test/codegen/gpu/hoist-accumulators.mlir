// RUN: dlc-opt %s -split-input-file --dlc-gpu-hoist-accumulators --canonicalize | FileCheck %s

// A mapped contraction kernel: each thread writes its bias into its 2x4
// tile of the output, accumulates into it in every K step and applies the
// ReLU to it. The tile is read once before the loop (the bias, forwarded
// from its write), carried through the K steps in registers and written
// once, after the ReLU; the writes it overwrites are gone. The output is a
// view of the workspace (upstream's hoisting leaves views alone), the
// operand tiles other buffers.
// CHECK-LABEL: func.func @accumulate
// CHECK:         gpu.launch
// CHECK:           %[[BIAS:.+]] = vector.broadcast
// CHECK-NOT:       vector.transfer_write
// CHECK:           %[[ACC:.+]] = scf.for {{.*}} iter_args(%[[A:.+]] = %[[BIAS]]) -> (vector<2x4xf32>)
// CHECK-NOT:         vector.transfer_read %[[C:view.*]]
// CHECK:             vector.contract {{.*}} %[[A]]
// CHECK-NOT:         vector.transfer_write %{{.+}}, %view
// CHECK:             scf.yield
// CHECK:           %[[R:.+]] = arith.maximumf %[[ACC]]
// CHECK:           vector.transfer_write %[[R]], %view
// CHECK-NOT:       vector.transfer_write
// CHECK-NOT:       gpu.barrier
// CHECK:           gpu.terminator
func.func @accumulate(%a: memref<64x16xf32, #gpu.address_space<workgroup>>, %b: memref<64x16xf32, #gpu.address_space<workgroup>>, %ws: memref<2048xi8>, %bias: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1024 = arith.constant 1024 : index
  %c = memref.view %ws[%c1024][] : memref<2048xi8> to memref<16x16xf32>
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %pad = arith.constant 0.0 : f32
  %zero = arith.constant dense<0.0> : vector<2x4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %t = gpu.thread_id x
    %row = affine.apply affine_map<()[s0] -> ((s0 floordiv 4) * 2)>()[%t]
    %col = affine.apply affine_map<()[s0] -> ((s0 mod 4) * 4)>()[%t]
    %bv = vector.transfer_read %bias[%col], %pad {in_bounds = [true]} : memref<16xf32>, vector<4xf32>
    %bb = vector.broadcast %bv : vector<4xf32> to vector<2x4xf32>
    vector.transfer_write %bb, %c[%row, %col] {in_bounds = [true, true]} : vector<2x4xf32>, memref<16x16xf32>
    gpu.barrier
    scf.for %k = %c0 to %c64 step %c16 {
      %va = vector.transfer_read %a[%k, %row], %pad {in_bounds = [true, true]} : memref<64x16xf32, #gpu.address_space<workgroup>>, vector<16x2xf32>
      %vb = vector.transfer_read %b[%k, %col], %pad {in_bounds = [true, true]} : memref<64x16xf32, #gpu.address_space<workgroup>>, vector<16x4xf32>
      %acc = vector.transfer_read %c[%row, %col], %pad {in_bounds = [true, true]} : memref<16x16xf32>, vector<2x4xf32>
      %r = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %va, %vb, %acc : vector<16x2xf32>, vector<16x4xf32> into vector<2x4xf32>
      vector.transfer_write %r, %c[%row, %col] {in_bounds = [true, true]} : vector<2x4xf32>, memref<16x16xf32>
      gpu.barrier
    }
    %v = vector.transfer_read %c[%row, %col], %pad {in_bounds = [true, true]} : memref<16x16xf32>, vector<2x4xf32>
    %m = arith.maximumf %v, %zero : vector<2x4xf32>
    vector.transfer_write %m, %c[%row, %col] {in_bounds = [true, true]} : vector<2x4xf32>, memref<16x16xf32>
    gpu.barrier
    gpu.terminator
  }
  return
}

// -----

// A warp's 16 x 16 accumulator tile on tensor cores, in two 16 x 8 pieces at
// columns that differ by 8: each piece is hoisted (the other one is
// provably elsewhere), and a barrier follows the hoisted writes, before the
// epilogue's threads read the tile in another layout.
// CHECK-LABEL: func.func @tensor_core_pieces
// CHECK:         gpu.launch
// CHECK:           %[[P0:.+]] = vector.transfer_read %{{.+}}[%{{.+}}, %[[C0:.+]]], {{.*}} vector<16x8xf32>
// CHECK:           %[[P1:.+]] = vector.transfer_read %{{.+}}[%{{.+}}, %[[C8:.+]]], {{.*}} vector<16x8xf32>
// CHECK:           %[[R:.+]]:2 = scf.for {{.*}} iter_args(%{{.+}} = %[[P0]], %{{.+}} = %[[P1]]) -> (vector<16x8xf32>, vector<16x8xf32>)
// CHECK-NOT:         vector.transfer_read %view
// CHECK:           }
// CHECK:           vector.transfer_write %[[R]]#1
// CHECK:           vector.transfer_write %[[R]]#0
// CHECK-NEXT:      gpu.barrier
// CHECK:           arith.maximumf
#mma = #dlc.gpu_config<kind = contraction, workgroup = [16, 16, 0], thread = [16, 16, 8], reduction = [0, 0, 16], pipeline_depth = 1, precision = tf32, mma = [16, 8, 8]>
func.func @tensor_core_pieces(%a: memref<64x16xf32, #gpu.address_space<workgroup>>, %b: memref<64x16xf32, #gpu.address_space<workgroup>>, %ws: memref<2048xi8>) {
  %c0 = arith.constant 0 : index
  %c1024 = arith.constant 1024 : index
  %c = memref.view %ws[%c1024][] : memref<2048xi8> to memref<16x16xf32>
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %pad = arith.constant 0.0 : f32
  %zero = arith.constant dense<0.0> : vector<2x4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %t = gpu.thread_id x
    %w0 = affine.apply affine_map<()[s0] -> ((s0 floordiv 32) * 16)>()[%t]
    %w8 = affine.apply affine_map<()[s0] -> ((s0 floordiv 32) * 16 + 8)>()[%t]
    scf.for %k = %c0 to %c64 step %c16 {
      %va = vector.transfer_read %a[%k, %c0], %pad {in_bounds = [true, true]} : memref<64x16xf32, #gpu.address_space<workgroup>>, vector<8x16xf32>
      %vb0 = vector.transfer_read %b[%k, %c0], %pad {in_bounds = [true, true]} : memref<64x16xf32, #gpu.address_space<workgroup>>, vector<8x8xf32>
      %vb1 = vector.transfer_read %b[%k, %c16], %pad {in_bounds = [true, true]} : memref<64x16xf32, #gpu.address_space<workgroup>>, vector<8x8xf32>
      %acc0 = vector.transfer_read %c[%c0, %w0], %pad {in_bounds = [true, true]} : memref<16x16xf32>, vector<16x8xf32>
      %acc1 = vector.transfer_read %c[%c0, %w8], %pad {in_bounds = [true, true]} : memref<16x16xf32>, vector<16x8xf32>
      %r0 = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %va, %vb0, %acc0 : vector<8x16xf32>, vector<8x8xf32> into vector<16x8xf32>
      %r1 = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %va, %vb1, %acc1 : vector<8x16xf32>, vector<8x8xf32> into vector<16x8xf32>
      vector.transfer_write %r0, %c[%c0, %w0] {in_bounds = [true, true]} : vector<16x8xf32>, memref<16x16xf32>
      vector.transfer_write %r1, %c[%c0, %w8] {in_bounds = [true, true]} : vector<16x8xf32>, memref<16x16xf32>
      gpu.barrier
    } {dlc.gpu_config = #mma}
    %row = affine.apply affine_map<()[s0] -> ((s0 floordiv 4) * 2)>()[%t]
    %col = affine.apply affine_map<()[s0] -> ((s0 mod 4) * 4)>()[%t]
    %v = vector.transfer_read %c[%row, %col], %pad {in_bounds = [true, true]} : memref<16x16xf32>, vector<2x4xf32>
    %m = arith.maximumf %v, %zero : vector<2x4xf32>
    vector.transfer_write %m, %c[%row, %col] {in_bounds = [true, true]} : vector<2x4xf32>, memref<16x16xf32>
    gpu.terminator
  }
  return
}
