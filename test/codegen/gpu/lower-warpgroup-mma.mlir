// RUN: dlc-opt %s --pass-pipeline="builtin.module(gpu.module(dlc-gpu-lower-warpgroup-mma))" | FileCheck %s

// dlc.warpgroup_mma becomes the fenced, committed and waited-for wgmma:
// m64n16k8 on tf32 operands (A row-major, B column-major, f32 accumulators
// in a struct of n / 2 = 8 floats), m64n8k16 on f16 and bf16.
// CHECK-LABEL: func.func @tf32
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %{{.*}}, <m = 64, n = 16, k = 8>, D[<f32>, <one>], A[<tf32>, <one>, <row>], B[<tf32>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: vector.from_elements {{.*}} : vector<8xf32>
// A barrier in such a function is preceded by a fence of the generic
// proxy's shared-memory stores for the async proxy (which wgmma reads
// through).
// CHECK-LABEL: func.func @f16
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: gpu.barrier
// CHECK: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 8, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>]
// A chain (each result the next one's accumulator, only descriptor math
// between them) is fenced once, issued back to back and waited for once.
// CHECK-LABEL: func.func @chain
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-NEXT: %[[D0:.*]] = nvvm.wgmma.mma_async
// CHECK-NEXT: arith.addi
// CHECK-NEXT: %[[D1:.*]] = nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %[[D0]]
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NOT: nvvm.wgmma
// CHECK-LABEL: func.func @bf16
// CHECK: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 8, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
// CHECK-LABEL: func.func @no_wgmma
// CHECK-NOT: nvvm.fence.proxy
gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
  func.func @tf32(%a: i64, %b: i64, %acc: vector<8xf32>) -> vector<8xf32> {
    %d = dlc.warpgroup_mma %a, %b, %acc {n = 16 : i64, precision = #dlc<gpu_precision tf32>} : vector<8xf32>
    return %d : vector<8xf32>
  }
  func.func @f16(%a: i64, %b: i64, %acc: vector<4xf32>) -> vector<4xf32> {
    gpu.barrier
    %d = dlc.warpgroup_mma %a, %b, %acc {n = 8 : i64, precision = #dlc<gpu_precision f16>} : vector<4xf32>
    return %d : vector<4xf32>
  }
  func.func @chain(%a: i64, %b: i64, %acc: vector<4xf32>) -> vector<4xf32> {
    %d0 = dlc.warpgroup_mma %a, %b, %acc {n = 8 : i64, precision = #dlc<gpu_precision f16>} : vector<4xf32>
    %a1 = arith.addi %a, %b : i64
    %d1 = dlc.warpgroup_mma %a1, %b, %d0 {n = 8 : i64, precision = #dlc<gpu_precision f16>} : vector<4xf32>
    return %d1 : vector<4xf32>
  }
  func.func @bf16(%a: i64, %b: i64, %acc: vector<4xf32>) -> vector<4xf32> {
    %d = dlc.warpgroup_mma %a, %b, %acc {n = 8 : i64, precision = #dlc<gpu_precision bf16>} : vector<4xf32>
    return %d : vector<4xf32>
  }
  func.func @no_wgmma() {
    gpu.barrier
    return
  }
}
