// RUN: dlc-opt %s -split-input-file --dlc-gpu-lower-transfers -verify-diagnostics | FileCheck %s

// Transfers become calls of the runtime with the buffers' addresses and
// bytes, through the entry's launch context.
func.func @main(%d: memref<4x8xf32>, %h: memref<4x8xf32>, %ctx: !llvm.ptr {dlc.cuda_context}) {
  dlc.transfer %d to cpu, %h : memref<4x8xf32>
  dlc.transfer %h to gpu, %d : memref<4x8xf32>
  return
}
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[D:.*]]: memref<4x8xf32>, %[[H:.*]]: memref<4x8xf32>, %[[CTX:.*]]: !llvm.ptr
// CHECK: %[[HP:.*]] = memref.extract_aligned_pointer_as_index %[[H]]
// CHECK: %[[DP:.*]] = memref.extract_aligned_pointer_as_index %[[D]]
// CHECK: %[[N:.*]] = arith.constant 128 : index
// CHECK: call @dlcrt_cuda_read(%[[CTX]], %[[HP]], %[[DP]], %[[N]])
// CHECK: %[[DP2:.*]] = memref.extract_aligned_pointer_as_index %[[D]]
// CHECK: %[[HP2:.*]] = memref.extract_aligned_pointer_as_index %[[H]]
// CHECK: call @dlcrt_cuda_write(%[[CTX]], %[[DP2]], %[[HP2]], %{{.*}})
// CHECK: func.func private @dlcrt_cuda_read(!llvm.ptr, index, index, index)
// CHECK: func.func private @dlcrt_cuda_write(!llvm.ptr, index, index, index)

// -----

func.func @no_context(%d: memref<i1>, %h: memref<i1>) {
  // expected-error @+1 {{a transfer outside an entry with a launch context}}
  dlc.transfer %d to cpu, %h : memref<i1>
  return
}
