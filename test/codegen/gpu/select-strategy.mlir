// RUN: dlc-opt %s --dlc-gpu-select-strategy | FileCheck %s
// RUN: dlc-opt %s --dlc-gpu-select-strategy=min-blocks=8 | FileCheck %s --check-prefix=GATHER
// precision= (dlc --gpu-precision) goes to contraction configs alone.
// RUN: dlc-opt %s --dlc-gpu-select-strategy=precision=tf32 | FileCheck %s --check-prefix=TF32
// TF32-LABEL: func.func @elementwise
// TF32: kind = elementwise, {{.*}} precision = f32>
// A tf32 contraction whose m, n and k are multiples of 16, 8 and 8 runs on
// tensor cores: each warp a 16 x 16 tile of m16n8k8 instructions here (the
// 256 x 256 output in 16 x 16 blocks fills 132 SMs), K steps of 16.
// TF32-LABEL: func.func @matmul
// TF32: linalg.matmul {dlc.gpu_config = #dlc.gpu_config<kind = contraction, workgroup = [16, 16, 0], thread = [16, 16, 8], reduction = [0, 0, 16], pipeline_depth = 2, precision = tf32, mma = [16, 8, 8]>}
// TF32-LABEL: func.func @plain_operands
// TF32: linalg.matmul {dlc.gpu_config = #dlc.gpu_config<kind = contraction, workgroup = [32, 128, 0], thread = [32, 32, 8], reduction = [0, 0, 16], pipeline_depth = 2, precision = tf32, mma = [16, 8, 8]>}
// 392 (8 x 49) outputs along n: warps of 32 x 8.
// TF32-LABEL: func.func @gathered_fits
// TF32: mma = [16, 8, 8]>
// Without tensor cores (or with an n of 49 pixels, below): the CUDA-core
// tiles, rounded.
// RUN: dlc-opt %s --dlc-gpu-select-strategy="precision=tf32 tensor-cores=0" | FileCheck %s --check-prefix=NOTC
// NOTC-LABEL: func.func @matmul
// NOTC: linalg.matmul {dlc.gpu_config = #dlc.gpu_config<kind = contraction, {{.*}}, precision = tf32>}
// TF32-LABEL: func.func @pixels_49
// TF32: linalg.matmul {dlc.gpu_config = #dlc.gpu_config<kind = contraction, {{.*}}, precision = tf32>}
// fp16: m16n8k16 instructions (k of 16, K steps of 32), an im2col operand
// included (it is computed into shared memory in fp16).
// RUN: dlc-opt %s --dlc-gpu-select-strategy=precision=f16 | FileCheck %s --check-prefix=F16
// F16-LABEL: func.func @matmul
// F16: linalg.matmul {dlc.gpu_config = #dlc.gpu_config<kind = contraction, workgroup = [16, 16, 0], thread = [16, 16, 16], reduction = [0, 0, 32], pipeline_depth = 2, precision = f16, mma = [16, 8, 16]>}
// F16-LABEL: func.func @gathered_operand
// F16: linalg.matmul {dlc.gpu_config = #dlc.gpu_config<kind = contraction, {{.*}}, precision = f16, mma = [16, 8, 16]>}
// bf16 stays on CUDA cores (upstream's nvgpu conversion takes no bf16).
// RUN: dlc-opt %s --dlc-gpu-select-strategy=precision=bf16 | FileCheck %s --check-prefix=BF16
// BF16-LABEL: func.func @matmul
// BF16: linalg.matmul {dlc.gpu_config = #dlc.gpu_config<kind = contraction, {{.*}}, precision = bf16>}
// With warpgroups (sm_90a), a contraction whose m is a multiple of 64 runs
// on wgmma: blocks of 64 rows (one warpgroup, each warp 16 rows) by the
// instruction's n (the 256 x 256 matmul in 64 x 8 tiles: 128 blocks, the
// most it gives), K steps of 32 where K allows; the 49-pixel n stays off
// tensor cores.
// RUN: dlc-opt %s --dlc-gpu-select-strategy="precision=tf32 warpgroups=1" | FileCheck %s --check-prefix=WG
// WG-LABEL: func.func @matmul
// WG: linalg.matmul {dlc.gpu_config = #dlc.gpu_config<kind = contraction, workgroup = [64, 8, 0], thread = [16, 8, 8], reduction = [0, 0, 32], pipeline_depth = 2, precision = tf32, mma = [64, 8, 8]>}
// WG-LABEL: func.func @plain_operands
// WG: mma = [64, 64, 8]>
// WG-LABEL: func.func @pixels_49
// WG: linalg.matmul {dlc.gpu_config = #dlc.gpu_config<kind = contraction, {{.*}}, precision = tf32>}
// RUN: not dlc-opt %s --dlc-gpu-select-strategy=precision=fp8 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: dlc-gpu-select-strategy: unknown precision 'fp8' (f32, tf32, f16 or bf16)

// An elementwise op over [64, 112, 112]: 4 contiguous elements per thread
// (16-byte accesses), 256 threads per block grown from the innermost loop
// outwards (28 threads along a row of 112, 8 rows).
// CHECK-LABEL: func.func @elementwise
// CHECK: dlc.gpu_config = #dlc.gpu_config<kind = elementwise, workgroup = [1, 8, 112], thread = [1, 1, 4], reduction = [0, 0, 0], pipeline_depth = 1, precision = f32>
func.func @elementwise(%a: tensor<64x112x112xf32>, %b: tensor<64x112x112xf32>) -> tensor<64x112x112xf32> {
  %e = tensor.empty() : tensor<64x112x112xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a, %b : tensor<64x112x112xf32>, tensor<64x112x112xf32>) outs(%e : tensor<64x112x112xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<64x112x112xf32>
  return %0 : tensor<64x112x112xf32>
}

// A transpose vectors along the output's contiguous loop.
// CHECK-LABEL: func.func @transposed
// CHECK: workgroup = [16, 8], thread = [1, 4]
func.func @transposed(%a: tensor<8x16xf32>) -> tensor<16x8xf32> {
  %e = tensor.empty() : tensor<16x8xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<8x16xf32>) outs(%e : tensor<16x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// i1 tensors are bytes in memory but bits in vectors: one element per
// thread.
// CHECK-LABEL: func.func @bools
// CHECK: workgroup = [4, 8], thread = [1, 1]
func.func @bools(%a: tensor<4x8xi1>) -> tensor<4x8xi1> {
  %e = tensor.empty() : tensor<4x8xi1>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x8xi1>) outs(%e : tensor<4x8xi1>) {
  ^bb0(%x: i1, %o: i1):
    linalg.yield %x : i1
  } -> tensor<4x8xi1>
  return %0 : tensor<4x8xi1>
}

// A row reduction of 100 elements: one warp per row (its 32 lanes stride
// over the row), the 6 rows in one block; the fill that initializes it gets
// no config (it fuses).
// CHECK-LABEL: func.func @row_sum
// CHECK-NOT:   linalg.fill {{.*}}dlc.gpu_config
// CHECK:       linalg.generic
// CHECK-SAME:  dlc.gpu_config = #dlc.gpu_config<kind = reduction, workgroup = [6, 0], thread = [1, 0], reduction = [0, 32]
func.func @row_sum(%a: tensor<6x100xf32>) -> tensor<6xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<6xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<6xf32>) -> tensor<6xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<6x100xf32>) outs(%f : tensor<6xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  } -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// A short reduction (10 elements, fewer than a warp's lanes): one thread
// per row, its reduction loop whole in the thread.
// CHECK-LABEL: func.func @short_rows
// CHECK:       dlc.gpu_config = #dlc.gpu_config<kind = window, workgroup = [6, 0], thread = [1, 0], reduction = [0, 0]
func.func @short_rows(%a: tensor<6x10xf32>) -> tensor<6xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<6xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<6xf32>) -> tensor<6xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<6x10xf32>) outs(%f : tensor<6xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  } -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// A reduction to a scalar has no parallel loop to distribute: no config
// (it runs as a single-thread kernel).
// CHECK-LABEL: func.func @full_sum
// CHECK-NOT:   dlc.gpu_config
func.func @full_sum(%a: tensor<100xf32>) -> tensor<f32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%a : tensor<100xf32>) outs(%f : tensor<f32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %0 : tensor<f32>
}

// A contraction: blocks and thread tiles over m and n, K steps of 16; four
// steps, so two are in flight (pipeline depth 2), each thread taking 2 rows
// of a step at a time.
// CHECK-LABEL: func.func @matmul
// CHECK:       linalg.matmul {dlc.gpu_config = #dlc.gpu_config<kind = contraction, workgroup = [{{[0-9]+}}, {{[0-9]+}}, 0], thread = [{{[0-9]+}}, {{[0-9]+}}, 2], reduction = [0, 0, 16], pipeline_depth = 2, precision = f32>}
func.func @matmul(%a: tensor<256x64xf32>, %b: tensor<64x256xf32>) -> tensor<256x256xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<256x64xf32>, tensor<64x256xf32>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}

// One K step: nothing to overlap (pipeline depth 1), 4 rows at a time.
// CHECK-LABEL: func.func @one_step
// CHECK:       linalg.matmul {dlc.gpu_config = #dlc.gpu_config<kind = contraction, {{.*}}, 4], reduction = [0, 0, 16], pipeline_depth = 1, precision = f32>}
func.func @one_step(%a: tensor<256x16xf32>, %b: tensor<16x256xf32>) -> tensor<256x256xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<256x16xf32>, tensor<16x256xf32>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}

// A contraction whose operand is gathered (an im2col: tensor.extract at
// computed indices) stages it through registers: at most 128 threads per
// block (255 registers each at two blocks per SM) where the same GEMM from
// plain operands takes 256 (128 x 128 outputs, 8 x 8 per thread; with
// min-blocks=8 the largest tiles give enough blocks). Where 128 threads
// would give neither tiles of 128 x 64 nor at most min-blocks blocks (1568
// columns, the pixels of 32 7x7 images: 224 blocks of 128 x 56), the wider
// tile stays but each K step is loaded before it is multiplied (pipeline
// depth 1); where the smaller tiles' blocks fit (392 columns: 7 blocks),
// they are taken.
// GATHER-LABEL: func.func @plain_operands
// GATHER:       linalg.matmul {dlc.gpu_config = #dlc.gpu_config<kind = contraction, workgroup = [128, 128, 0], thread = [8, 8, 2]
func.func @plain_operands(%a: tensor<1024x64xf32>, %b: tensor<64x1024xf32>) -> tensor<1024x1024xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024x1024xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<1024x64xf32>, tensor<64x1024xf32>) outs(%f : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %0 : tensor<1024x1024xf32>
}

// GATHER-LABEL: func.func @gathered_operand
// GATHER:       linalg.matmul {dlc.gpu_config = #dlc.gpu_config<kind = contraction, workgroup = [128, 64, 0], thread = [8, 8, 2]
func.func @gathered_operand(%a: tensor<1024x64xf32>, %x: tensor<4x64x256xf32>) -> tensor<1024x1024xf32> {
  %c256 = arith.constant 256 : index
  %eb = tensor.empty() : tensor<64x1024xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%eb : tensor<64x1024xf32>) {
  ^bb0(%out: f32):
    %k = linalg.index 0 : index
    %q = linalg.index 1 : index
    %n = arith.divui %q, %c256 : index
    %p = arith.remui %q, %c256 : index
    %v = tensor.extract %x[%n, %k, %p] : tensor<4x64x256xf32>
    linalg.yield %v : f32
  } -> tensor<64x1024xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024x1024xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<1024x64xf32>, tensor<64x1024xf32>) outs(%f : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %0 : tensor<1024x1024xf32>
}

// GATHER-LABEL: func.func @gathered_wide
// GATHER:       linalg.matmul {dlc.gpu_config = #dlc.gpu_config<kind = contraction, workgroup = [128, 112, 0], thread = [8, 8, 2], reduction = [0, 0, 16], pipeline_depth = 1
func.func @gathered_wide(%a: tensor<1024x64xf32>, %x: tensor<32x64x49xf32>) -> tensor<1024x1568xf32> {
  %c49 = arith.constant 49 : index
  %eb = tensor.empty() : tensor<64x1568xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%eb : tensor<64x1568xf32>) {
  ^bb0(%out: f32):
    %k = linalg.index 0 : index
    %q = linalg.index 1 : index
    %n = arith.divui %q, %c49 : index
    %p = arith.remui %q, %c49 : index
    %v = tensor.extract %x[%n, %k, %p] : tensor<32x64x49xf32>
    linalg.yield %v : f32
  } -> tensor<64x1568xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024x1568xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1024x1568xf32>) -> tensor<1024x1568xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<1024x64xf32>, tensor<64x1568xf32>) outs(%f : tensor<1024x1568xf32>) -> tensor<1024x1568xf32>
  return %0 : tensor<1024x1568xf32>
}

// GATHER-LABEL: func.func @gathered_fits
// GATHER:       linalg.matmul {dlc.gpu_config = #dlc.gpu_config<kind = contraction, workgroup = [128, 56, 0], thread = [8, 8, 2], reduction = [0, 0, 16], pipeline_depth = 2
func.func @gathered_fits(%a: tensor<128x64xf32>, %x: tensor<8x64x49xf32>) -> tensor<128x392xf32> {
  %c49 = arith.constant 49 : index
  %eb = tensor.empty() : tensor<64x392xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%eb : tensor<64x392xf32>) {
  ^bb0(%out: f32):
    %k = linalg.index 0 : index
    %q = linalg.index 1 : index
    %n = arith.divui %q, %c49 : index
    %p = arith.remui %q, %c49 : index
    %v = tensor.extract %x[%n, %k, %p] : tensor<8x64x49xf32>
    linalg.yield %v : f32
  } -> tensor<64x392xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x392xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<128x392xf32>) -> tensor<128x392xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<128x64xf32>, tensor<64x392xf32>) outs(%f : tensor<128x392xf32>) -> tensor<128x392xf32>
  return %0 : tensor<128x392xf32>
}

// 49 outputs along n (a 7 x 7 image): no whole 16 x 8 instructions.
// CHECK-LABEL: func.func @pixels_49
func.func @pixels_49(%a: tensor<64x32xf32>, %b: tensor<32x49xf32>) -> tensor<64x49xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x49xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64x49xf32>) -> tensor<64x49xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x49xf32>) outs(%f : tensor<64x49xf32>) -> tensor<64x49xf32>
  return %0 : tensor<64x49xf32>
}
