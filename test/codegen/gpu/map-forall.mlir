// RUN: dlc-opt %s -split-input-file --dlc-gpu-map-forall -verify-diagnostics --canonicalize --cse | FileCheck %s

// A block forall of 4 x 2 tiles becomes a launch of 8 blocks (the block id
// delinearized, linear_dim_0 fastest); its thread foralls of 6 and 40
// iterations a block of 64 threads (whole warps), each forall guarded by
// the thread id, with a barrier between them (the second reads what the
// first wrote) and none after the last.
// CHECK-LABEL: func.func @two_phases
// CHECK-SAME:    (%[[A:.+]]: memref<16x64xf32>, %[[B:.+]]: memref<16x64xf32>)
// CHECK-DAG:     %[[C8:.+]] = arith.constant 8 : index
// CHECK-DAG:     %[[C64:.+]] = arith.constant 64 : index
// CHECK:         gpu.launch blocks(%[[BX:.+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %[[C8]], %{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}) threads(%{{.+}}, %{{.+}}, %{{.+}}) in (%{{.+}} = %[[C64]],
// CHECK:           affine.delinearize_index %[[BX]] into (4, 2)
// CHECK:           %[[T:.+]] = gpu.thread_id x
// CHECK:           arith.cmpi ult, %[[T]], %{{.+}}
// CHECK:           scf.if
// CHECK:             memref.store
// CHECK:           gpu.barrier
// CHECK:           scf.if
// CHECK:             memref.load
// CHECK-NOT:       gpu.barrier
// CHECK:           gpu.terminator
func.func @two_phases(%a: memref<16x64xf32>, %b: memref<16x64xf32>) {
  %cst = arith.constant 1.0 : f32
  scf.forall (%i, %j) = (0, 0) to (16, 64) step (4, 32) {
    scf.forall (%t) in (6) {
      %r = arith.addi %i, %t : index
      memref.store %cst, %a[%r, %j] : memref<16x64xf32>
    } {mapping = [#gpu.thread<linear_dim_0>]}
    scf.forall (%u, %v) in (4, 10) {
      %r = arith.addi %i, %u : index
      %c = arith.addi %j, %v : index
      %x = memref.load %a[%r, %c] : memref<16x64xf32>
      memref.store %x, %b[%r, %c] : memref<16x64xf32>
    } {mapping = [#gpu.thread<linear_dim_1>, #gpu.thread<linear_dim_0>]}
  } {mapping = [#gpu.block<linear_dim_1>, #gpu.block<linear_dim_0>]}
  return
}

// -----

func.func @dynamic(%a: memref<16xf32>, %n: index) {
  %cst = arith.constant 1.0 : f32
  // expected-error @+1 {{expected a bufferized block forall with static bounds}}
  scf.forall (%i) = (0) to (%n) step (4) {
    memref.store %cst, %a[%i] : memref<16xf32>
  } {mapping = [#gpu.block<linear_dim_0>]}
  return
}
