// RUN: dlc-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// The GPU kernel configuration round-trips.
// CHECK: #dlc.gpu_config<kind = contraction, workgroup = [64, 128, 0], thread = [8, 8, 0], reduction = [0, 0, 16], pipeline_depth = 2, precision = f32>
func.func @config() attributes {c = #dlc.gpu_config<kind = contraction, workgroup = [64, 128, 0], thread = [8, 8, 0], reduction = [0, 0, 16], pipeline_depth = 2, precision = f32>} {
  return
}

// -----

// expected-error @+1 {{a thread tile of 3 does not divide the workgroup tile of 8}}
func.func @indivisible() attributes {c = #dlc.gpu_config<kind = elementwise, workgroup = [8], thread = [3], reduction = [0], pipeline_depth = 1, precision = f32>} {
  return
}

// -----

// expected-error @+1 {{workgroup, thread and reduction tiles must have one size per loop}}
func.func @ranks() attributes {c = #dlc.gpu_config<kind = elementwise, workgroup = [8, 8], thread = [1], reduction = [0, 0], pipeline_depth = 1, precision = f32>} {
  return
}

// -----

// expected-error @+1 {{pipeline_depth must be at least 1}}
func.func @depth() attributes {c = #dlc.gpu_config<kind = elementwise, workgroup = [8], thread = [1], reduction = [0], pipeline_depth = 0, precision = f32>} {
  return
}

// -----

// A warpgroup instruction (m = 64): warp tiles of 16 rows, a workgroup tile
// of whole groups.
// CHECK: mma = [64, 32, 8]
func.func @warpgroups() attributes {c = #dlc.gpu_config<kind = contraction, workgroup = [128, 32, 0], thread = [16, 32, 8], reduction = [0, 0, 32], pipeline_depth = 2, precision = tf32, mma = [64, 32, 8]>} {
  return
}

// -----

// expected-error @+1 {{a warpgroup instruction of m = 64 needs a workgroup tile that is a multiple of 64, got 96}}
func.func @warpgroup_rows() attributes {c = #dlc.gpu_config<kind = contraction, workgroup = [96, 32, 0], thread = [16, 32, 8], reduction = [0, 0, 32], pipeline_depth = 2, precision = tf32, mma = [64, 32, 8]>} {
  return
}

// -----

// dlc.warpgroup_mma: n a multiple of 8, tf32, f16 or bf16 operands, n / 2
// accumulator elements per thread.
// CHECK-LABEL: func.func @wgmma
// CHECK: dlc.warpgroup_mma %{{.*}}, %{{.*}}, %{{.*}} {n = 16 : i64, precision = #dlc<gpu_precision f16>} : vector<8xf32>
func.func @wgmma(%a: i64, %b: i64, %acc: vector<8xf32>) -> vector<8xf32> {
  %d = dlc.warpgroup_mma %a, %b, %acc {n = 16 : i64, precision = #dlc<gpu_precision f16>} : vector<8xf32>
  return %d : vector<8xf32>
}

// -----

func.func @wgmma_n(%a: i64, %b: i64, %acc: vector<6xf32>) -> vector<6xf32> {
  // expected-error @+1 {{n must be a multiple of 8, got 12}}
  %d = dlc.warpgroup_mma %a, %b, %acc {n = 12 : i64, precision = #dlc<gpu_precision tf32>} : vector<6xf32>
  return %d : vector<6xf32>
}

// -----

func.func @wgmma_f32(%a: i64, %b: i64, %acc: vector<4xf32>) -> vector<4xf32> {
  // expected-error @+1 {{takes tf32, f16 or bf16 operands, not f32}}
  %d = dlc.warpgroup_mma %a, %b, %acc {n = 8 : i64, precision = #dlc<gpu_precision f32>} : vector<4xf32>
  return %d : vector<4xf32>
}

// -----

func.func @wgmma_acc(%a: i64, %b: i64, %acc: vector<8xf32>) -> vector<8xf32> {
  // expected-error @+1 {{a thread holds n / 2 = 4 accumulator elements, got 8}}
  %d = dlc.warpgroup_mma %a, %b, %acc {n = 8 : i64, precision = #dlc<gpu_precision tf32>} : vector<8xf32>
  return %d : vector<8xf32>
}
