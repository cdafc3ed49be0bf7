// RUN: dlc-opt %s -split-input-file --dlc-gpu-round-operands | FileCheck %s

// tf32: each operand's bits + 2^12 with the low 13 cleared (round to
// nearest, ties away from zero, as cvt.rna.tf32.f32), a NaN kept; the
// accumulator is not rounded.
// CHECK-LABEL: func.func @tf32
// CHECK: %[[BITS:.*]] = arith.bitcast %[[A:.*]] : vector<4x2xf32> to vector<4x2xi32>
// CHECK: %[[BIAS:.*]] = arith.constant dense<4096> : vector<4x2xi32>
// CHECK: %[[MASK:.*]] = arith.constant dense<-8192> : vector<4x2xi32>
// CHECK: %[[SUM:.*]] = arith.addi %[[BITS]], %[[BIAS]]
// CHECK: %[[CLEAR:.*]] = arith.andi %[[SUM]], %[[MASK]]
// CHECK: %[[R:.*]] = arith.bitcast %[[CLEAR]] : vector<4x2xi32> to vector<4x2xf32>
// CHECK: %[[NAN:.*]] = arith.cmpf uno, %[[A]], %[[A]]
// CHECK: %[[LHS:.*]] = arith.select %[[NAN]], %[[A]], %[[R]]
// CHECK: %[[RHS:.*]] = arith.select
// CHECK: vector.contract {{.*}} %[[LHS]], %[[RHS]], %[[ACC:[a-z0-9_]+]]
func.func @tf32(%a: vector<4x2xf32>, %b: vector<2x4xf32>, %c: vector<4x4xf32>) -> vector<4x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %c) -> vector<4x4xf32> {
    %d = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %acc : vector<4x2xf32>, vector<2x4xf32> into vector<4x4xf32>
    scf.yield %d : vector<4x4xf32>
  } {dlc.gpu_config = #dlc.gpu_config<kind = contraction, workgroup = [64, 64, 0], thread = [4, 4, 0], reduction = [0, 0, 16], pipeline_depth = 1, precision = tf32>}
  return %r : vector<4x4xf32>
}

// -----

// f16: through arith.truncf (f16's range: overflow gives infinities).
// CHECK-LABEL: func.func @f16
// CHECK: %[[H:.*]] = arith.truncf %{{.*}} : vector<4x2xf32> to vector<4x2xf16>
// CHECK: %[[LHS:.*]] = arith.extf %[[H]] : vector<4x2xf16> to vector<4x2xf32>
// CHECK: %[[H2:.*]] = arith.truncf %{{.*}} : vector<2x4xf32> to vector<2x4xf16>
// CHECK: %[[RHS:.*]] = arith.extf %[[H2]]
// CHECK: vector.contract {{.*}} %[[LHS]], %[[RHS]],
func.func @f16(%a: vector<4x2xf32>, %b: vector<2x4xf32>, %c: vector<4x4xf32>) -> vector<4x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %c) -> vector<4x4xf32> {
    %d = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %acc : vector<4x2xf32>, vector<2x4xf32> into vector<4x4xf32>
    scf.yield %d : vector<4x4xf32>
  } {dlc.gpu_config = #dlc.gpu_config<kind = contraction, workgroup = [64, 64, 0], thread = [4, 4, 0], reduction = [0, 0, 16], pipeline_depth = 1, precision = f16>}
  return %r : vector<4x4xf32>
}

// -----

// bf16: ties to even (the bias is 0x7FFF plus the lowest kept bit), 16 bits
// cleared. A K step left as a linalg op has the inputs rounded in its body.
// CHECK-LABEL: func.func @bf16_generic
// CHECK: linalg.generic
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %[[O:.*]]: f32):
// CHECK: %[[XB:.*]] = arith.bitcast %[[X]] : f32 to i32
// CHECK: arith.shrui %[[XB]], %c16_i32
// CHECK: arith.andi {{.*}}, %c-65536_i32
// CHECK: %[[XR:.*]] = arith.select
// CHECK: %[[YR:.*]] = arith.select
// CHECK: %[[M:.*]] = arith.mulf %[[XR]], %[[YR]]
// CHECK: arith.addf %[[O]], %[[M]]
func.func @bf16_generic(%a: memref<4x2xf32>, %b: memref<2x4xf32>, %c: memref<4x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %k = %c0 to %c4 step %c1 {
    linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<4x2xf32>, memref<2x4xf32>) outs(%c : memref<4x4xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %m = arith.mulf %x, %y : f32
      %s = arith.addf %o, %m : f32
      linalg.yield %s : f32
    }
  } {dlc.gpu_config = #dlc.gpu_config<kind = contraction, workgroup = [64, 64, 0], thread = [4, 4, 0], reduction = [0, 0, 16], pipeline_depth = 1, precision = bf16>}
  return
}

// -----

// f32 kernels, and contractions outside a contraction kernel's K loop, are
// left alone.
// CHECK-LABEL: func.func @f32
// CHECK-NOT: arith.bitcast
// CHECK-NOT: arith.truncf
// CHECK: vector.contract
// CHECK-LABEL: func.func @outside
// CHECK-NOT: arith.bitcast
// CHECK: vector.contract
func.func @f32(%a: vector<4x2xf32>, %b: vector<2x4xf32>, %c: vector<4x4xf32>) -> vector<4x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %c) -> vector<4x4xf32> {
    %d = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %acc : vector<4x2xf32>, vector<2x4xf32> into vector<4x4xf32>
    scf.yield %d : vector<4x4xf32>
  } {dlc.gpu_config = #dlc.gpu_config<kind = contraction, workgroup = [64, 64, 0], thread = [4, 4, 0], reduction = [0, 0, 16], pipeline_depth = 1, precision = f32>}
  return %r : vector<4x4xf32>
}
func.func @outside(%a: vector<4x2xf32>, %b: vector<2x4xf32>, %c: vector<4x4xf32>) -> vector<4x4xf32> {
  %d = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<4x2xf32>, vector<2x4xf32> into vector<4x4xf32>
  return %d : vector<4x4xf32>
}
