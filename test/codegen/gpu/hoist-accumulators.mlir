// RUN: dlc-opt %s --dlc-gpu-hoist-accumulators --canonicalize | FileCheck %s

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
