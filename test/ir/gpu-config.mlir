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
