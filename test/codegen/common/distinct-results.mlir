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

// -----

// A returned reshape of an allocation (a matmul computed in column panels)
// becomes an allocation of the returned shape, the old one its inverse
// reshape, so buffer-results-to-out-params writes it in place.
// CHECK-LABEL: func.func @reshaped
// CHECK:       %[[R:.*]] = memref.alloc() {alignment = 64 : i64} : memref<16x64xf32>
// CHECK:       %[[E:.*]] = memref.expand_shape %[[R]] {{\[\[}}0], [1, 2]] output_shape [16, 2, 32]
// CHECK:       linalg.fill {{.*}} outs(%[[E]] : memref<16x2x32xf32>)
// CHECK:       return %[[R]] : memref<16x64xf32>
func.func @reshaped() -> memref<16x64xf32> {
  %cst = arith.constant 0.0 : f32
  %a = memref.alloc() {alignment = 64 : i64} : memref<16x2x32xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<16x2x32xf32>)
  %c = memref.collapse_shape %a [[0], [1, 2]] : memref<16x2x32xf32> into memref<16x64xf32>
  return %c : memref<16x64xf32>
}

// -----

// An allocation returned both as it is and reshaped keeps one buffer for
// both (the out-params pass copies the reshape).
// CHECK-LABEL: func.func @reshaped_and_whole
// CHECK:       %[[A:.*]] = memref.alloc() : memref<4x2xf32>
// CHECK-NOT:   memref.alloc
// CHECK:       return %[[A]], %{{.*}} : memref<4x2xf32>, memref<8xf32>
func.func @reshaped_and_whole() -> (memref<4x2xf32>, memref<8xf32>) {
  %a = memref.alloc() : memref<4x2xf32>
  %c = memref.collapse_shape %a [[0, 1]] : memref<4x2xf32> into memref<8xf32>
  return %a, %c : memref<4x2xf32>, memref<8xf32>
}

// PIPE: llvm.func @main(%arg0: !llvm.ptr {{.*}}, %arg1: !llvm.ptr {{.*}}, %arg2: !llvm.ptr {{.*}}, %arg3: !llvm.ptr {{.*}}
