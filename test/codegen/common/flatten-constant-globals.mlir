// RUN: dlc-opt %s --dlc-flatten-constant-globals | FileCheck %s

// Nested-array constants (dense and dense_resource) become flat arrays of
// the same elements in the same order; the address users are untouched.
// CHECK-DAG: llvm.mlir.global private constant @small(dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00]> : tensor<6xf32>) {{.+}} : !llvm.array<6 x f32>
// CHECK-DAG: llvm.mlir.global private constant @weights(dense_resource<blob> : tensor<8xf32>) {{.+}} : !llvm.array<8 x f32>
// Already flat, scalar-initialized or non-constant-tensor globals stay.
// CHECK-DAG: llvm.mlir.global private constant @flat(dense<[1, 2]> : tensor<2xi32>) {{.+}} : !llvm.array<2 x i32>
// CHECK-DAG: llvm.mlir.global internal @scalar(7 : i64) {{.+}} : i64
// CHECK:     llvm.func @use
// CHECK:       llvm.mlir.addressof @small : !llvm.ptr
// CHECK:       llvm.getelementptr %{{.+}}[0, 1, 2] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<2 x array<3 x f32>>
module {
  llvm.mlir.global private constant @small(dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>) {addr_space = 0 : i32, alignment = 64 : i64} : !llvm.array<2 x array<3 x f32>>
  llvm.mlir.global private constant @weights(dense_resource<blob> : tensor<2x2x2xf32>) {addr_space = 0 : i32, alignment = 64 : i64} : !llvm.array<2 x array<2 x array<2 x f32>>>
  llvm.mlir.global private constant @flat(dense<[1, 2]> : tensor<2xi32>) {addr_space = 0 : i32} : !llvm.array<2 x i32>
  llvm.mlir.global internal @scalar(7 : i64) {addr_space = 0 : i32} : i64
  llvm.func @use() -> f32 {
    %0 = llvm.mlir.addressof @small : !llvm.ptr
    %1 = llvm.getelementptr %0[0, 1, 2] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<2 x array<3 x f32>>
    %2 = llvm.load %1 : !llvm.ptr -> f32
    llvm.return %2 : f32
  }
}

{-#
  dialect_resources: {
    builtin: {
      blob: "0x040000000000803F0000004000004040000080400000A0400000C0400000E04000000041"
    }
  }
#-}
