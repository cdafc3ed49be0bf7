// RUN: dlc-opt %s -split-input-file --dlc-gpu-pipeline-k-loops -canonicalize -cse | FileCheck %s

// Four K steps of 16: the A tile by cp.async (a 16-byte aligned load stored
// whole), the B tile by a transposing copy: its load is issued with the
// step's copies, its store waits until after the compute (the value held
// in a register meanwhile). The first step is staged before the loop; the
// loop goes over pairs of steps, each staging the next step into the other
// copy of the buffers around its compute, then waiting for its copies and
// synchronizing once; the last pair stages its own last step again rather
// than branch.
// CHECK-LABEL: func.func @even
// CHECK-DAG:     %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:     %[[C16:.+]] = arith.constant 16 : index
// CHECK-DAG:     %[[C32:.+]] = arith.constant 32 : index
// CHECK-DAG:     %[[C48:.+]] = arith.constant 48 : index
// CHECK-DAG:     %[[C64:.+]] = arith.constant 64 : index
// CHECK:         gpu.launch
// CHECK:           %[[A0:.+]] = memref.alloc() {alignment = 64 : i64} : memref<16x16xf32, #gpu.address_space<workgroup>>
// CHECK:           %[[A1:.+]] = memref.alloc() {alignment = 64 : i64} : memref<16x16xf32, #gpu.address_space<workgroup>>
// CHECK:           %[[B0:.+]] = memref.alloc() {alignment = 64 : i64} : memref<16x4xf32, #gpu.address_space<workgroup>>
// CHECK:           %[[B1:.+]] = memref.alloc() {alignment = 64 : i64} : memref<16x4xf32, #gpu.address_space<workgroup>>
// CHECK:           nvgpu.device_async_copy %{{.*}}, %[[A0]][%{{.*}}], 4 {bypassL1}
// CHECK-NEXT:      vector.load
// CHECK-NEXT:      nvvm.cp.async.commit.group
// CHECK-NEXT:      vector.extract
// CHECK-NEXT:      memref.store %{{.*}}, %[[B0]]
// CHECK-NEXT:      nvvm.cp.async.wait.group 0
// CHECK-NEXT:      gpu.barrier
// CHECK-NEXT:      scf.for %[[K0:.+]] = %[[C0]] to %[[C64]] step %[[C32]] iter_args(%[[ACC:.+]] = %{{.*}}) -> (vector<4xf32>) {
// CHECK-NEXT:        %[[K1:.+]] = arith.addi %[[K0]], %[[C16]]
// CHECK-NEXT:        %[[KA1:.+]] = arith.addi %[[K1]], %{{.*}}
// CHECK-NEXT:        nvgpu.device_async_copy %{{.*}}[%{{.*}}, %[[KA1]]], %[[A1]]
// CHECK-NEXT:        arith.addi
// CHECK-NEXT:        %[[V1:.+]] = vector.load
// CHECK-NEXT:        nvvm.cp.async.commit.group
// CHECK-NEXT:        %[[X0:.+]] = vector.load %[[A0]]
// CHECK-NEXT:        %[[Y0:.+]] = vector.load %[[B0]]
// CHECK-NEXT:        %[[F0:.+]] = vector.fma %[[X0]], %[[Y0]], %[[ACC]]
// CHECK-NEXT:        %[[E1:.+]] = vector.extract %[[V1]][0]
// CHECK-NEXT:        memref.store %[[E1]], %[[B1]]
// CHECK-NEXT:        nvvm.cp.async.wait.group 0
// CHECK-NEXT:        gpu.barrier
// CHECK-NEXT:        %[[K2:.+]] = arith.addi %[[K0]], %[[C32]]
// CHECK-NEXT:        %[[K2C:.+]] = arith.minsi %[[K2]], %[[C48]]
// CHECK-NEXT:        %[[KA2:.+]] = arith.addi %[[K2C]], %{{.*}}
// CHECK-NEXT:        nvgpu.device_async_copy %{{.*}}[%{{.*}}, %[[KA2]]], %[[A0]]
// CHECK-NEXT:        arith.addi
// CHECK-NEXT:        %[[V2:.+]] = vector.load
// CHECK-NEXT:        nvvm.cp.async.commit.group
// CHECK-NEXT:        %[[X1:.+]] = vector.load %[[A1]]
// CHECK-NEXT:        %[[Y1:.+]] = vector.load %[[B1]]
// CHECK-NEXT:        %[[F1:.+]] = vector.fma %[[X1]], %[[Y1]], %[[F0]]
// CHECK-NEXT:        %[[E2:.+]] = vector.extract %[[V2]][0]
// CHECK-NEXT:        memref.store %[[E2]], %[[B0]]
// CHECK-NEXT:        nvvm.cp.async.wait.group 0
// CHECK-NEXT:        gpu.barrier
// CHECK-NEXT:        scf.yield %[[F1]]
// CHECK-NEXT:      }
// CHECK-NOT:       dlc.gpu_config
#cfg = #dlc.gpu_config<kind = contraction, workgroup = [16, 4, 0], thread = [4, 1, 4], reduction = [0, 0, 16], pipeline_depth = 2, precision = f32>
func.func @even(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %out: memref<64x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant dense<0.0> : vector<4xf32>
  %poison = ub.poison : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %row = arith.divui %tx, %c4 : index
    %col = arith.remui %tx, %c4 : index
    %col4 = arith.muli %col, %c4 : index
    %r = scf.for %k = %c0 to %c64 step %c16 iter_args(%acc = %zero) -> (vector<4xf32>) {
      %sa = memref.alloc() {alignment = 64 : i64} : memref<16x16xf32, #gpu.address_space<workgroup>>
      %ka = arith.addi %k, %col4 : index
      %va = vector.load %a[%row, %ka] {alignment = 16 : i64} : memref<64x64xf32>, vector<4xf32>
      vector.store %va, %sa[%row, %col4] {alignment = 16 : i64} : memref<16x16xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      gpu.barrier
      %sb = memref.alloc() {alignment = 64 : i64} : memref<16x4xf32, #gpu.address_space<workgroup>>
      %kb = arith.addi %k, %row : index
      %vb = vector.load %b[%col, %kb] {alignment = 16 : i64} : memref<64x64xf32>, vector<4xf32>
      %eb = vector.extract %vb[0] : f32 from vector<4xf32>
      memref.store %eb, %sb[%row, %col] : memref<16x4xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %x = vector.load %sa[%row, %col4] : memref<16x16xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      %y = vector.load %sb[%row, %c0] : memref<16x4xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      %f = vector.fma %x, %y, %acc : vector<4xf32>
      gpu.barrier
      scf.yield %f : vector<4xf32>
    } {dlc.gpu_config = #cfg}
    vector.store %r, %out[%row, %col4] : memref<64x64xf32>, vector<4xf32>
    gpu.terminator
  }
  return
}

// -----

// Three steps: one pair (a loop of one iteration, folded here) whose
// second half always stages the third step, computed after it.
// CHECK-LABEL: func.func @odd
// CHECK-DAG:     %[[C16:.+]] = arith.constant 16 : index
// CHECK-DAG:     %[[C32:.+]] = arith.constant 32 : index
// CHECK:           %[[A0:.+]] = memref.alloc()
// CHECK-NEXT:      %[[A1:.+]] = memref.alloc()
// CHECK-NEXT:      nvgpu.device_async_copy %{{.*}}, %[[A0]]
// CHECK-NEXT:      nvvm.cp.async.commit.group
// CHECK-NEXT:      nvvm.cp.async.wait.group 0
// CHECK-NEXT:      gpu.barrier
// CHECK-NEXT:      nvgpu.device_async_copy %{{.*}}[%{{.*}}, %[[C16]]], %[[A1]]
// CHECK-NEXT:      nvvm.cp.async.commit.group
// CHECK-NEXT:      vector.load %[[A0]]
// CHECK-NEXT:      vector.fma
// CHECK-NEXT:      nvvm.cp.async.wait.group 0
// CHECK-NEXT:      gpu.barrier
// CHECK-NEXT:      nvgpu.device_async_copy %{{.*}}[%{{.*}}, %[[C32]]], %[[A0]]
// CHECK-NEXT:      nvvm.cp.async.commit.group
// CHECK-NEXT:      vector.load %[[A1]]
// CHECK-NEXT:      %[[F1:.+]] = vector.fma
// CHECK-NEXT:      nvvm.cp.async.wait.group 0
// CHECK-NEXT:      gpu.barrier
// CHECK-NEXT:      %[[X:.+]] = vector.load %[[A0]]
// CHECK-NEXT:      %[[F2:.+]] = vector.fma %[[X]], %[[X]], %[[F1]]
// CHECK-NEXT:      vector.store %[[F2]]
#cfg = #dlc.gpu_config<kind = contraction, workgroup = [16, 4, 0], thread = [4, 1, 4], reduction = [0, 0, 16], pipeline_depth = 2, precision = f32>
func.func @odd(%a: memref<64x48xf32>, %out: memref<64x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c48 = arith.constant 48 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant dense<0.0> : vector<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
    %r = scf.for %k = %c0 to %c48 step %c16 iter_args(%acc = %zero) -> (vector<4xf32>) {
      %sa = memref.alloc() {alignment = 64 : i64} : memref<16x16xf32, #gpu.address_space<workgroup>>
      %va = vector.load %a[%tx, %k] {alignment = 16 : i64} : memref<64x48xf32>, vector<4xf32>
      vector.store %va, %sa[%tx, %c0] {alignment = 16 : i64} : memref<16x16xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      gpu.barrier
      %x = vector.load %sa[%tx, %c0] : memref<16x16xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      %f = vector.fma %x, %x, %acc : vector<4xf32>
      gpu.barrier
      scf.yield %f : vector<4xf32>
    } {dlc.gpu_config = #cfg}
    vector.store %r, %out[%tx, %c0] : memref<64x64xf32>, vector<4xf32>
    gpu.terminator
  }
  return
}

// -----

// Depth 1, or a staging that writes global memory: left as they are (the
// config is dropped).
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     nvgpu.device_async_copy
// CHECK-NOT:     dlc.gpu_config
// CHECK:         scf.for
// CHECK:           vector.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : memref<16x16xf32, #gpu.address_space<workgroup>>
// CHECK:         scf.for
// CHECK:           vector.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : memref<16x16xf32, #gpu.address_space<workgroup>>
// CHECK-NOT:     nvgpu.device_async_copy
#one = #dlc.gpu_config<kind = contraction, workgroup = [16, 4, 0], thread = [4, 1, 4], reduction = [0, 0, 16], pipeline_depth = 1, precision = f32>
#two = #dlc.gpu_config<kind = contraction, workgroup = [16, 4, 0], thread = [4, 1, 4], reduction = [0, 0, 16], pipeline_depth = 2, precision = f32>
func.func @left_alone(%a: memref<64x48xf32>, %out: memref<64x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c48 = arith.constant 48 : index
  %zero = arith.constant dense<0.0> : vector<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
    %r = scf.for %k = %c0 to %c48 step %c16 iter_args(%acc = %zero) -> (vector<4xf32>) {
      %sa = memref.alloc() {alignment = 64 : i64} : memref<16x16xf32, #gpu.address_space<workgroup>>
      %va = vector.load %a[%tx, %k] {alignment = 16 : i64} : memref<64x48xf32>, vector<4xf32>
      vector.store %va, %sa[%tx, %c0] {alignment = 16 : i64} : memref<16x16xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      gpu.barrier
      %x = vector.load %sa[%tx, %c0] : memref<16x16xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      %f = vector.fma %x, %x, %acc : vector<4xf32>
      gpu.barrier
      scf.yield %f : vector<4xf32>
    } {dlc.gpu_config = #one}
    %s = scf.for %k = %c0 to %c48 step %c16 iter_args(%acc = %r) -> (vector<4xf32>) {
      %sa = memref.alloc() {alignment = 64 : i64} : memref<16x16xf32, #gpu.address_space<workgroup>>
      %va = vector.load %a[%tx, %k] {alignment = 16 : i64} : memref<64x48xf32>, vector<4xf32>
      vector.store %va, %sa[%tx, %c0] {alignment = 16 : i64} : memref<16x16xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      vector.store %va, %out[%tx, %k] : memref<64x64xf32>, vector<4xf32>
      gpu.barrier
      %x = vector.load %sa[%tx, %c0] : memref<16x16xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      %f = vector.fma %x, %x, %acc : vector<4xf32>
      gpu.barrier
      scf.yield %f : vector<4xf32>
    } {dlc.gpu_config = #two}
    vector.store %s, %out[%tx, %c0] : memref<64x64xf32>, vector<4xf32>
    gpu.terminator
  }
  return
}
