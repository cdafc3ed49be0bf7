// RUN: dlc-opt %s -split-input-file --dlc-gpu-tile-and-fuse --canonicalize --cse | FileCheck %s

// The root is tiled into a block forall of [4, 64] tiles and each block's
// tile into threads of [1, 4]; its single-use elementwise producer (a
// broadcast add) is computed inside each thread's tile.
// CHECK-LABEL: func.func @fused_chain
// CHECK:         scf.forall (%[[I:.+]], %{{.+}}) = (0, 0) to (16, 64) step (4, 64)
// CHECK:           scf.forall (%{{.+}}, %{{.+}}) = (0, 0) to (4, 64) step (1, 4)
// CHECK:             linalg.generic
// CHECK:               arith.addf
// CHECK:             linalg.generic
// CHECK:               math.exp
// CHECK:           } {mapping = [#gpu.thread<linear_dim_1>, #gpu.thread<linear_dim_0>]}
// CHECK:         } {mapping = [#gpu.block<linear_dim_1>, #gpu.block<linear_dim_0>]}
// CHECK-NOT:     dlc.gpu_config
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @fused_chain(%a: tensor<16x64xf32>, %b: tensor<16xf32>) -> tensor<16x64xf32> {
  %e = tensor.empty() : tensor<16x64xf32>
  %0 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<16x64xf32>, tensor<16xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<16x64xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"], dlc.gpu_config = #dlc.gpu_config<kind = elementwise, workgroup = [4, 64], thread = [1, 4], reduction = [0, 0], pipeline_depth = 1, precision = f32>} ins(%0 : tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = math.exp %x : f32
    linalg.yield %m : f32
  } -> tensor<16x64xf32>
  return %1 : tensor<16x64xf32>
}

// -----

// A row reduction: one thread per row, its fill fused into the thread's
// tile as the accumulator.
// CHECK-LABEL: func.func @row_sum
// CHECK:         scf.forall (%{{.+}}) = (0) to (6) step (6)
// CHECK:           scf.forall (%[[R:.+]]) in (6)
// CHECK:             %[[ACC:.+]] = linalg.fill
// CHECK:             linalg.generic {{.*}} ins(%{{.+}} : tensor<1x100xf32>) outs(%[[ACC]] : tensor<1xf32>)
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @row_sum(%a: tensor<6x100xf32>) -> tensor<6xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<6xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<6xf32>) -> tensor<6xf32>
  %0 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"], dlc.gpu_config = #dlc.gpu_config<kind = window, workgroup = [6, 0], thread = [1, 0], reduction = [0, 0], pipeline_depth = 1, precision = f32>} ins(%a : tensor<6x100xf32>) outs(%f : tensor<6xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  } -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----

// A producer that is also a result of the function is not recomputed in
// its consumer's kernel: each is a kernel of its own.
// CHECK-LABEL: func.func @shared_producer
// CHECK:         %[[P:.+]] = scf.forall
// CHECK:           math.exp
// CHECK:         %[[C:.+]] = scf.forall
// CHECK-NOT:       math.exp
// CHECK:           tensor.extract_slice %[[P]]
// CHECK:           math.sqrt
// CHECK:         return %[[P]], %[[C]]
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @shared_producer(%a: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %e = tensor.empty() : tensor<8x8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"], dlc.gpu_config = #dlc.gpu_config<kind = elementwise, workgroup = [8, 8], thread = [1, 8], reduction = [0, 0], pipeline_depth = 1, precision = f32>} ins(%a : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = math.exp %x : f32
    linalg.yield %m : f32
  } -> tensor<8x8xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"], dlc.gpu_config = #dlc.gpu_config<kind = elementwise, workgroup = [8, 8], thread = [1, 8], reduction = [0, 0], pipeline_depth = 1, precision = f32>} ins(%0 : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = math.sqrt %x : f32
    linalg.yield %m : f32
  } -> tensor<8x8xf32>
  return %0, %1 : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

// A contraction kernel: the ReLU consuming the matmul updates its result in
// place and is the block's root, the matmul and its bias init fuse into the
// block's 16 x 16 tile; the K loop steps by 16 and copies both operand
// tiles into shared memory (A transposed, k-major, so that each thread
// reads its 2 rows as a vector), each thread computes 2 x 4 outputs; the
// bias, the K steps and the epilogue use the same threads' tiles.
// CHECK-LABEL: func.func @matmul_bias_relu
// CHECK:         scf.forall (%{{.+}}, %{{.+}}) = (0, 0) to (32, 32) step (16, 16)
// CHECK:           %[[INIT:.+]] = scf.forall (%{{.+}}, %{{.+}}) = (0, 0) to (16, 16) step (2, 4)
// CHECK:             linalg.generic {{.*}} ins(%{{.+}} : tensor<4xf32>) outs(%{{.+}} : tensor<2x4xf32>)
// CHECK:           %[[ACC:.+]] = scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%{{.+}} = %[[INIT]])
// CHECK:             %[[AS:.+]] = bufferization.alloc_tensor() {memory_space = #gpu.address_space<workgroup>} : tensor<16x16xf32>
// CHECK:             %[[AT:.+]] = scf.forall {{.*}} shared_outs(%{{.+}} = %[[AS]])
// CHECK:               linalg.generic {indexing_maps = [#{{.+}}, #[[TRANSPOSED:.+]]], {{.*}} ins(%{{.+}} : tensor<2x4xf32>) outs(%{{.+}} : tensor<4x2xf32>)
// CHECK:             %[[BS:.+]] = bufferization.alloc_tensor() {memory_space = #gpu.address_space<workgroup>} : tensor<16x16xf32>
// CHECK:             %[[BT:.+]] = scf.forall {{.*}} shared_outs(%{{.+}} = %[[BS]])
// CHECK:             scf.forall (%{{.+}}, %{{.+}}) = (0, 0) to (16, 16) step (2, 4)
// CHECK:               tensor.extract_slice %[[AT]]
// CHECK:               tensor.extract_slice %[[BT]]
// CHECK:               linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]{{.*}} outs(%{{.+}} : tensor<2x4xf32>)
// CHECK:                 arith.mulf
// CHECK:           scf.forall (%{{.+}}, %{{.+}}) = (0, 0) to (16, 16) step (2, 4) shared_outs(%{{.+}} = %[[ACC]])
// CHECK:             linalg.generic {indexing_maps = [#{{.+}}], iterator_types = ["parallel", "parallel"]} outs(%{{.+}} : tensor<2x4xf32>)
// CHECK:               arith.maximumf
// CHECK:         } {mapping = [#gpu.block<linear_dim_1>, #gpu.block<linear_dim_0>]}
func.func @matmul_bias_relu(%a: tensor<32x64xf32>, %b: tensor<64x32xf32>, %bias: tensor<32xf32>) -> tensor<32x32xf32> {
  %e = tensor.empty() : tensor<32x32xf32>
  %init = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%bias : tensor<32xf32>) outs(%e : tensor<32x32xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<32x32xf32>
  %0 = linalg.matmul {dlc.gpu_config = #dlc.gpu_config<kind = contraction, workgroup = [16, 16, 0], thread = [2, 4, 0], reduction = [0, 0, 16], pipeline_depth = 1, precision = f32>} ins(%a, %b : tensor<32x64xf32>, tensor<64x32xf32>) outs(%init : tensor<32x32xf32>) -> tensor<32x32xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%0 : tensor<32x32xf32>) outs(%e : tensor<32x32xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.0 : f32
    %r = arith.maximumf %x, %c : f32
    linalg.yield %r : f32
  } -> tensor<32x32xf32>
  return %1 : tensor<32x32xf32>
}

// -----

// Pipelined (depth 2): the K loop carries the config for
// dlc-gpu-pipeline-k-loops; the operand tiles are staged as for depth 1
// (A transposed, k-major: 16 x 32).
// CHECK-LABEL: func.func @matmul_pipelined
// CHECK:           scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} iter_args
// CHECK:             %[[AS:.+]] = bufferization.alloc_tensor() {memory_space = #gpu.address_space<workgroup>} : tensor<16x32xf32>
// CHECK:             scf.forall {{.*}} shared_outs(%{{.+}} = %[[AS]])
// CHECK:             %[[BS:.+]] = bufferization.alloc_tensor() {memory_space = #gpu.address_space<workgroup>} : tensor<16x16xf32>
// CHECK:             scf.forall {{.*}} shared_outs(%{{.+}} = %[[BS]])
// CHECK:           } {dlc.gpu_config = #dlc.gpu_config<kind = contraction, {{.*}} pipeline_depth = 2, precision = f32>}
func.func @matmul_pipelined(%a: tensor<32x64xf32>, %b: tensor<64x32xf32>) -> tensor<32x32xf32> {
  %e = tensor.empty() : tensor<32x32xf32>
  %z = arith.constant 0.0 : f32
  %init = linalg.fill ins(%z : f32) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %0 = linalg.matmul {dlc.gpu_config = #dlc.gpu_config<kind = contraction, workgroup = [32, 16, 0], thread = [4, 4, 0], reduction = [0, 0, 16], pipeline_depth = 2, precision = f32>} ins(%a, %b : tensor<32x64xf32>, tensor<64x32xf32>) outs(%init : tensor<32x32xf32>) -> tensor<32x32xf32>
  return %0 : tensor<32x32xf32>
}

// -----

// A reduction kernel: 4 rows per block, one warp per row (an scf.forall
// mapped to #gpu.warp); the warp's tile keeps the config for
// dlc-gpu-lower-warp-reductions, the fill is fused into it.
// CHECK-LABEL: func.func @warp_rows
// CHECK:         scf.forall (%{{.+}}) = (0) to (8) step (4)
// CHECK:           scf.forall (%{{.+}}) in (4)
// CHECK:             linalg.fill
// CHECK:             linalg.generic {{.*}} ins(%{{.+}} : tensor<1x256xf32>) outs(%{{.+}} : tensor<1xf32>) attrs =  {dlc.gpu_config = #dlc.gpu_config<kind = reduction
// CHECK:           } {mapping = [#gpu.warp<linear_dim_0>]}
// CHECK:         } {mapping = [#gpu.block<linear_dim_0>]}
func.func @warp_rows(%a: tensor<8x256xf32>) -> tensor<8xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"], dlc.gpu_config = #dlc.gpu_config<kind = reduction, workgroup = [4, 0], thread = [1, 0], reduction = [0, 32], pipeline_depth = 1, precision = f32>} ins(%a : tensor<8x256xf32>) outs(%f : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// A tf32 contraction on tensor cores (mma in its config): blocks of 32 x 64,
// K steps of 16 staged in shared memory, each step's 32 x 32 tiles mapped
// to warps (two warps, 64 threads) that go through the step 8 reduction
// elements at a time; the fill and the ReLU are spread over the 64 threads.
// CHECK-LABEL: func.func @tensor_cores
// CHECK:         scf.forall ({{.*}}) = (0, 0) to (64, 128) step (32, 64)
// CHECK:           linalg.fill
// CHECK:           } {mapping = [#gpu.thread<linear_dim_1>, #gpu.thread<linear_dim_0>]}
// CHECK:           scf.for %{{.+}} = %c0 to %c64 step %c16
// CHECK:             scf.forall ({{.*}}) = (0, 0) to (32, 64) step (32, 32)
// CHECK:               scf.for %{{.+}} = %c0 to %c16 step %c8
// CHECK:                 linalg.generic {{.*}} ins({{.*}} : tensor<8x32xf32>, tensor<8x32xf32>) outs({{.*}} : tensor<32x32xf32>)
// CHECK:             } {mapping = [#gpu.warp<linear_dim_1>, #gpu.warp<linear_dim_0>]}
// CHECK:           } {dlc.gpu_config = #dlc.gpu_config<{{.*}}mma = [16, 8, 8]>}
// CHECK:           arith.maximumf
// CHECK:           } {mapping = [#gpu.thread<linear_dim_1>, #gpu.thread<linear_dim_0>]}
// CHECK:         } {mapping = [#gpu.block<linear_dim_1>, #gpu.block<linear_dim_0>]}
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @tensor_cores(%a: tensor<64x64xf32>, %b: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x128xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64x128xf32>) -> tensor<64x128xf32>
  %m = linalg.matmul {dlc.gpu_config = #dlc.gpu_config<kind = contraction, workgroup = [32, 64, 0], thread = [32, 32, 8], reduction = [0, 0, 16], pipeline_depth = 2, precision = tf32, mma = [16, 8, 8]>} ins(%a, %b : tensor<64x64xf32>, tensor<64x128xf32>) outs(%f : tensor<64x128xf32>) -> tensor<64x128xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<64x128xf32>) outs(%e : tensor<64x128xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.maximumf %x, %z : f32
    linalg.yield %y : f32
  } -> tensor<64x128xf32>
  return %r : tensor<64x128xf32>
}
