// RUN: dlc-opt %s -split-input-file --dlc-cpu-pipeline | FileCheck %s

// The whole CPU pipeline takes a dlc-dialect module to the LLVM dialect
// (and OpenMP regions) only: tensors become bare pointers (inputs, then the
// out-param results, then the workspace, then the thread count), intermediate buffers live in the workspace, and no op
// of another dialect is left.

// CHECK-LABEL: llvm.func @net
// CHECK-SAME:    (%{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr {dlc.workspace}, %[[THREADS:.+]]: i32 {dlc.num_threads})
// CHECK-SAME:    attributes {dlc.workspace_live_set = {{[1-9][0-9]*}} : i64, dlc.workspace_size = {{[1-9][0-9]*}} : i64}
// Each op's parallel tiles would form one OpenMP worksharing loop on the
// caller's thread count (the last argument); regions as small as this
// model's run as plain loops instead (test/codegen/cpu/openmp-threads.mlir).
// CHECK-NOT:     omp.parallel
// The convolution's inner loop is vector FMAs (4 filters per vector).
// CHECK:         llvm.intr.fmuladd({{.+}}) : (vector<4xf32>, vector<4xf32>, vector<4xf32>) -> vector<4xf32>
// CHECK:         llvm.intr.maximum
// CHECK:         llvm.return
// CHECK-NOT:     {{[ "](linalg|tensor|memref|bufferization|vector|scf|arith|math|affine|cf|func|ub|dlc)\.}}
// CHECK-NOT:     builtin.unrealized_conversion_cast
// CHECK:         }
func.func @net(%x: tensor<1x1x8x8xf32>, %w: tensor<4x1x3x3xf32>, %b: tensor<4xf32>,
               %fw: tensor<10x64xf32>, %fb: tensor<10xf32>) -> tensor<1x10xf32> {
  %0 = dlc.conv %x, %w, %b {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64}
       : (tensor<1x1x8x8xf32>, tensor<4x1x3x3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  %1 = dlc.relu %0 : tensor<1x4x8x8xf32>
  %2 = dlc.max_pool %1 {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>}
       : tensor<1x4x8x8xf32> -> tensor<1x4x4x4xf32>
  %3 = dlc.reshape %2 : tensor<1x4x4x4xf32> -> tensor<1x64xf32>
  %4 = dlc.gemm %3, %fw, %fb {transB = true} : (tensor<1x64xf32>, tensor<10x64xf32>, tensor<10xf32>) -> tensor<1x10xf32>
  %5 = dlc.softmax %4 {axis = 1 : i64} : tensor<1x10xf32>
  return %5 : tensor<1x10xf32>
}

// -----

// Tensor constants become flat LLVM array globals (not memref.global, not
// nested arrays); transcendental functions are polynomials, not libm calls.
// CHECK-NOT:     {{[ "](linalg|tensor|memref|bufferization|vector|scf|arith|math|affine|cf|func|ub|dlc)\.}}
// CHECK:         llvm.mlir.global private constant @{{.+}}(dense<[1.000000e+00, 2.000000e+00, 3.000000e+00{{.+}}]> : tensor<8xf32>) {{.+}} : !llvm.array<8 x f32>
// CHECK-NOT:     {{[ "](linalg|tensor|memref|bufferization|vector|scf|arith|math|affine|cf|func|ub|dlc)\.}}
// CHECK-LABEL: llvm.func @with_constants
// CHECK-SAME:    (%{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr {dlc.workspace}, %{{.+}}: i32 {dlc.num_threads})
// CHECK-NOT:     llvm.call
// CHECK:         llvm.return
// CHECK-NOT:     {{[ "](linalg|tensor|memref|bufferization|vector|scf|arith|math|affine|cf|func|ub|dlc)\.}}
func.func @with_constants(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %c = dlc.constant dense<[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]]> : tensor<1x8xf32>
  %0 = dlc.mul %x, %c : tensor<2x8xf32>, tensor<1x8xf32> -> tensor<2x8xf32>
  %1 = dlc.sigmoid %0 : tensor<2x8xf32>
  %2 = dlc.transpose %1 {perm = array<i64: 1, 0>} : tensor<2x8xf32> -> tensor<8x2xf32>
  %3 = dlc.reshape %2 : tensor<8x2xf32> -> tensor<2x8xf32>
  return %3 : tensor<2x8xf32>
}
