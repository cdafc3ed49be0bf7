// RUN: dlc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(dlc-distinct-results))' | FileCheck %s
// The CPU pipeline on a function returning one buffer three times runs
// clean under buffer-results-to-out-params (which read an erased allocation
// before this pass).
// RUN: dlc-opt %S/Inputs/repeated-results.mlir --dlc-cpu-pipeline | FileCheck %s --check-prefix=PIPE

// A buffer returned twice: the repeat is a fresh copy; the first stays.
// CHECK-LABEL: func.func @twice
// CHECK: %[[A:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK: %[[C:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK-NEXT: memref.copy %[[A]], %[[C]]
// CHECK-NEXT: return %[[A]], %[[C]], %arg0
func.func @twice(%arg0: memref<4xf32>) -> (memref<4xf32>, memref<4xf32>, memref<4xf32>) {
  %a = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
  return %a, %a, %arg0 : memref<4xf32>, memref<4xf32>, memref<4xf32>
}

// -----

// Distinct buffers are left alone.
// CHECK-LABEL: func.func @distinct
// CHECK-NOT: memref.copy
func.func @distinct() -> (memref<f32>, memref<f32>) {
  %a = memref.alloc() : memref<f32>
  %b = memref.alloc() : memref<f32>
  return %a, %b : memref<f32>, memref<f32>
}

// PIPE: llvm.func @main(%arg0: !llvm.ptr {{.*}}, %arg1: !llvm.ptr {{.*}}, %arg2: !llvm.ptr {{.*}}, %arg3: !llvm.ptr {{.*}}
