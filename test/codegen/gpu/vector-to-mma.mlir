// RUN: dlc-opt %s -split-input-file -verify-diagnostics --dlc-gpu-vector-to-mma | FileCheck %s

// A warp's 16 x 8 x 8 step of a tf32 kernel: its operands (staged k-major
// in shared memory) read per lane into fragments, rounded to tf32 (ties
// away: + 0x1000, low 13 bits cleared), one mma.sync; the accumulator read
// and written per lane in the fragments' layout.
// CHECK-LABEL: func.func @warp_step
// CHECK-DAG:     %[[BIAS:.+]] = arith.constant dense<4096> : vector<4x1xi32>
// CHECK-DAG:     %[[MASK:.+]] = arith.constant dense<-8192> : vector<4x1xi32>
// CHECK:         gpu.launch
// CHECK:           gpu.lane_id
// CHECK:           vector.load %{{.*}} : memref<16x8xf32>, vector<2xf32>
// CHECK:           memref.load %{{.*}} : memref<8x8xf32, #gpu.address_space<workgroup>>
// CHECK:           memref.load %{{.*}} : memref<8x16xf32, #gpu.address_space<workgroup>>
// CHECK:           %[[BITS:.+]] = arith.bitcast %{{.*}} : vector<4x1xf32> to vector<4x1xi32>
// CHECK:           %[[UP:.+]] = arith.addi %[[BITS]], %[[BIAS]]
// CHECK:           arith.andi %[[UP]], %[[MASK]]
// CHECK:           nvgpu.mma.sync(%{{.*}}, %{{.*}}, %{{.*}}) {mmaShape = [16, 8, 8], tf32Enabled} : (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK:           vector.store %{{.*}} : memref<16x8xf32>, vector<2xf32>
// CHECK-NOT:       vector.contract
// CHECK:           gpu.terminator
#cfg = #dlc.gpu_config<kind = contraction, workgroup = [16, 8, 0], thread = [16, 8, 8], reduction = [0, 0, 8], pipeline_depth = 1, precision = tf32, mma = [16, 8, 8]>
func.func @warp_step(%c: memref<16x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %pad = ub.poison : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %a = memref.alloc() : memref<8x16xf32, #gpu.address_space<workgroup>>
    %b = memref.alloc() : memref<8x8xf32, #gpu.address_space<workgroup>>
    %va = vector.transfer_read %a[%c0, %c0], %pad {in_bounds = [true, true]} : memref<8x16xf32, #gpu.address_space<workgroup>>, vector<8x16xf32>
    %vb = vector.transfer_read %b[%c0, %c0], %pad {in_bounds = [true, true]} : memref<8x8xf32, #gpu.address_space<workgroup>>, vector<8x8xf32>
    %vc = vector.transfer_read %c[%c0, %c0], %pad {in_bounds = [true, true]} : memref<16x8xf32>, vector<16x8xf32>
    %d = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %va, %vb, %vc {dlc.gpu_config = #cfg} : vector<8x16xf32>, vector<8x8xf32> into vector<16x8xf32>
    vector.transfer_write %d, %c[%c0, %c0] {in_bounds = [true, true]} : vector<16x8xf32>, memref<16x8xf32>
    gpu.terminator
  }
  return
}

// -----

// Without a tensor-core config the kernel is left to the CUDA-core lowering.
// CHECK-LABEL: func.func @cuda_cores
// CHECK:         vector.contract
// CHECK-NOT:     nvgpu.mma.sync
func.func @cuda_cores(%c: memref<16x8xf32>, %a: memref<8x16xf32>, %b: memref<8x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pad = ub.poison : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %va = vector.transfer_read %a[%c0, %c0], %pad {in_bounds = [true, true]} : memref<8x16xf32>, vector<8x16xf32>
    %vb = vector.transfer_read %b[%c0, %c0], %pad {in_bounds = [true, true]} : memref<8x8xf32>, vector<8x8xf32>
    %vc = vector.transfer_read %c[%c0, %c0], %pad {in_bounds = [true, true]} : memref<16x8xf32>, vector<16x8xf32>
    %d = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %va, %vb, %vc : vector<8x16xf32>, vector<8x8xf32> into vector<16x8xf32>
    vector.transfer_write %d, %c[%c0, %c0] {in_bounds = [true, true]} : vector<16x8xf32>, memref<16x8xf32>
    gpu.terminator
  }
  return
}

// -----

// A warp's result used by an op that has no fragment form: the kernel is
// refused rather than run with a warp's tile in each thread.
#cfg = #dlc.gpu_config<kind = contraction, workgroup = [16, 8, 0], thread = [16, 8, 8], reduction = [0, 0, 8], pipeline_depth = 1, precision = tf32, mma = [16, 8, 8]>
func.func @unconvertible(%c: memref<16x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %pad = ub.poison : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %a = memref.alloc() : memref<8x16xf32, #gpu.address_space<workgroup>>
    %b = memref.alloc() : memref<8x8xf32, #gpu.address_space<workgroup>>
    %va = vector.transfer_read %a[%c0, %c0], %pad {in_bounds = [true, true]} : memref<8x16xf32, #gpu.address_space<workgroup>>, vector<8x16xf32>
    %vb = vector.transfer_read %b[%c0, %c0], %pad {in_bounds = [true, true]} : memref<8x8xf32, #gpu.address_space<workgroup>>, vector<8x8xf32>
    %vc = vector.transfer_read %c[%c0, %c0], %pad {in_bounds = [true, true]} : memref<16x8xf32>, vector<16x8xf32>
    // expected-error @+1 {{a tensor-core contraction did not convert to mma.sync: vector<16x8xf32> x vector<8x8xf32>}}
    %d = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %va, %vb, %vc {dlc.gpu_config = #cfg} : vector<8x16xf32>, vector<8x8xf32> into vector<16x8xf32>
    %e = math.exp %d : vector<16x8xf32>
    vector.transfer_write %e, %c[%c0, %c0] {in_bounds = [true, true]} : vector<16x8xf32>, memref<16x8xf32>
    gpu.terminator
  }
  return
}

// -----

// An fp16 kernel's step: its operands staged in fp16 with k innermost (A
// row-major, B column-major), widened to f32 for the contraction: ldmatrix
// fragments (4 and 2 matrices, not transposed) and one m16n8k16 mma.sync
// with f32 accumulators; nothing is rounded.
// CHECK-LABEL: func.func @half_step
// CHECK:         gpu.launch
// CHECK:           %[[A:.+]] = nvgpu.ldmatrix %{{.+}} {numTiles = 4 : i32, transpose = false} : memref<16x16xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// CHECK:           %[[B:.+]] = nvgpu.ldmatrix %{{.+}} {numTiles = 2 : i32, transpose = false} : memref<8x16xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
// CHECK-NOT:       arith.addi
// CHECK:           nvgpu.mma.sync(%[[A]], %[[B]], %{{.+}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK-NOT:       vector.contract
#cfg = #dlc.gpu_config<kind = contraction, workgroup = [16, 8, 0], thread = [16, 8, 16], reduction = [0, 0, 16], pipeline_depth = 1, precision = f16, mma = [16, 8, 16]>
func.func @half_step(%c: memref<16x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %pad = ub.poison : f16
  %padf = ub.poison : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %a = memref.alloc() : memref<16x16xf16, #gpu.address_space<workgroup>>
    %b = memref.alloc() : memref<8x16xf16, #gpu.address_space<workgroup>>
    %va = vector.transfer_read %a[%c0, %c0], %pad {in_bounds = [true, true]} : memref<16x16xf16, #gpu.address_space<workgroup>>, vector<16x16xf16>
    %vb = vector.transfer_read %b[%c0, %c0], %pad {in_bounds = [true, true]} : memref<8x16xf16, #gpu.address_space<workgroup>>, vector<8x16xf16>
    %vc = vector.transfer_read %c[%c0, %c0], %padf {in_bounds = [true, true]} : memref<16x8xf32>, vector<16x8xf32>
    %ea = arith.extf %va : vector<16x16xf16> to vector<16x16xf32>
    %eb = arith.extf %vb : vector<8x16xf16> to vector<8x16xf32>
    %d = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %ea, %eb, %vc {dlc.gpu_config = #cfg} : vector<16x16xf32>, vector<8x16xf32> into vector<16x8xf32>
    vector.transfer_write %d, %c[%c0, %c0] {in_bounds = [true, true]} : vector<16x8xf32>, memref<16x8xf32>
    gpu.terminator
  }
  return
}
