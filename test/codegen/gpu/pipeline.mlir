// RUN: dlc-opt %s --dlc-cuda-pipeline | FileCheck %s

// The whole CUDA pipeline: host code in the LLVM dialect that passes bare
// device pointers (inputs, outputs, workspace, constants arena) and calls
// the runtime once per kernel; the kernels' PTX for sm_80 and sm_90 and the
// kernel names are module attributes; the constants are one byte array.
// Here the add and the relu fuse into one elementwise kernel of 32 threads
// (one block), whose parameters are the input and output pointers.
// CHECK:       module attributes {dlc.cuda_kernel_nodes = [{{.*}}], dlc.cuda_kernel_shared = array<i64: 0>, dlc.cuda_kernels = ["main_kernel"], dlc.cuda_ptx = {sm_80 = "{{.*}}.target sm_80{{.*}}.entry main_kernel(\0A\09.param .u64 .ptr .align 1 main_kernel_param_0,\0A\09.param .u64 .ptr .align 1 main_kernel_param_1\0A){{.*}}", sm_90 = "{{.*}}.target sm_90{{.*}}"}}
// CHECK:         llvm.mlir.global private constant @dlc_constants
// CHECK-LABEL:   llvm.func @main
// CHECK-SAME:      (%[[IN:.+]]: !llvm.ptr, %[[OUT:.+]]: !llvm.ptr, %{{.+}}: !llvm.ptr {dlc.workspace}, %{{.+}}: !llvm.ptr {dlc.constants}, %[[CTX:.+]]: !llvm.ptr {dlc.cuda_context})
// CHECK-DAG:       %[[K:.+]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-DAG:       %[[T32:.+]] = llvm.mlir.constant(32 : index) : i64
// CHECK-DAG:       %[[ONE:.+]] = llvm.mlir.constant(1 : index) : i64
// CHECK:           %[[PARAMS:.+]] = llvm.alloca %{{.+}} x !llvm.array<2 x ptr>
// CHECK:           %[[S0:.+]] = llvm.alloca %{{.+}} x !llvm.ptr
// CHECK:           %[[S1:.+]] = llvm.alloca %{{.+}} x !llvm.ptr
// CHECK:           llvm.store %[[IN]], %[[S0]]
// CHECK:           llvm.store %[[S0]], %{{.+}}
// CHECK:           llvm.store %[[OUT]], %[[S1]]
// CHECK:           llvm.store %[[S1]], %{{.+}}
// CHECK:           llvm.call @dlcrt_cuda_launch(%[[CTX]], %[[K]], %[[ONE]], %[[ONE]], %[[ONE]], %[[T32]], %[[ONE]], %[[ONE]], %[[PARAMS]])
// CHECK-NEXT:      llvm.return
// CHECK-NOT:     gpu.
func.func @main(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %w = arith.constant dense<2.0> : tensor<4x8xf32>
  %0 = dlc.add %x, %w : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %1 = dlc.relu %0 : tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}
