// RUN: dlc-opt %s -split-input-file --dlc-gpu-launch-to-runtime -verify-diagnostics | FileCheck %s

// A launch becomes a call of the runtime: the parameters are stored in
// stack slots allocated once in the entry block (so launches in host loops
// reuse them), the kernel is named by its index in dlc.cuda_kernels, and
// the PTX of each target is kept in dlc.cuda_ptx; the binary is erased.
// Each kernel's dynamic shared memory (here k's 4096 bytes) is recorded in
// dlc.cuda_kernel_shared, by launch index.
// CHECK:       module attributes {dlc.cuda_kernel_nodes = ["", ""], dlc.cuda_kernel_shared = array<i64: 4096, 0>, dlc.cuda_kernels = ["k", "j"], dlc.cuda_ptx = {sm_80 = ".entry k(
// CHECK-NOT:     gpu.binary
// CHECK-LABEL: llvm.func @main
// CHECK-SAME:    (%[[P:.+]]: !llvm.ptr, %[[CTX:.+]]: !llvm.ptr {dlc.cuda_context})
// CHECK:         %[[PARAMS:.+]] = llvm.alloca %{{.+}} x !llvm.array<2 x ptr>
// CHECK:         %[[SP:.+]] = llvm.alloca %{{.+}} x !llvm.ptr
// CHECK:         %[[SF:.+]] = llvm.alloca %{{.+}} x f32
// CHECK:         llvm.br
// CHECK:         llvm.store %[[P]], %[[SP]] : !llvm.ptr, !llvm.ptr
// CHECK:         %[[A0:.+]] = llvm.getelementptr %[[PARAMS]][0, 0]
// CHECK:         llvm.store %[[SP]], %[[A0]]
// CHECK:         llvm.store %{{.+}}, %[[SF]] : f32, !llvm.ptr
// CHECK:         %[[A1:.+]] = llvm.getelementptr %[[PARAMS]][0, 1]
// CHECK:         llvm.store %[[SF]], %[[A1]]
// CHECK:         llvm.call @dlcrt_cuda_launch(%[[CTX]], %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %[[PARAMS]]) : (!llvm.ptr, i32, i64, i64, i64, i64, i64, i64, !llvm.ptr) -> ()
// CHECK:         llvm.call @dlcrt_cuda_launch(%[[CTX]]
// CHECK:       llvm.func @dlcrt_cuda_launch(!llvm.ptr, i32, i64, i64, i64, i64, i64, i64, !llvm.ptr)
module attributes {gpu.container_module} {
  gpu.binary @dlc_kernels [#gpu.object<#nvvm.target<chip = "sm_80">, assembly = ".entry k(\0A.param .u64 .ptr .align 1 k_param_0,\0A.param .f32 k_param_1\0A)\0A{\0Aret;\0A}\0A.entry j(\0A.param .u64 j_param_0\0A)\0A{\0Aret;\0A}\0A">]
  llvm.func @main(%p: !llvm.ptr, %ctx: !llvm.ptr {dlc.cuda_context}) {
    %one = llvm.mlir.constant(1 : index) : i64
    %g = llvm.mlir.constant(4 : index) : i64
    %b = llvm.mlir.constant(256 : index) : i64
    %f = llvm.mlir.constant(2.0 : f32) : f32
    %smem = llvm.mlir.constant(4096 : i32) : i32
    llvm.br ^bb1
  ^bb1:
    gpu.launch_func @dlc_kernels::@k blocks in (%g, %one, %one) threads in (%b, %one, %one) : i64 dynamic_shared_memory_size %smem args(%p : !llvm.ptr, %f : f32)
    gpu.launch_func @dlc_kernels::@j blocks in (%one, %one, %one) threads in (%one, %one, %one) : i64 args(%g : i64)
    llvm.return
  }
}

// -----

// The ONNX nodes each kernel's launches compute (their locations' names) go
// to dlc.cuda_kernel_nodes, by launch index: k's two launches, j's none.
// CHECK: module attributes {dlc.cuda_kernel_nodes = ["Conv_0 Relu_1 Add_2", ""], {{.*}}dlc.cuda_kernels = ["k", "j"]
module attributes {gpu.container_module} {
  gpu.binary @dlc_kernels [#gpu.object<#nvvm.target<chip = "sm_80">, assembly = ".entry k(\0A.param .u64 k_param_0\0A)\0A{\0Aret;\0A}\0A.entry j(\0A.param .u64 j_param_0\0A)\0A{\0Aret;\0A}\0A">]
  llvm.func @main(%ctx: !llvm.ptr {dlc.cuda_context}) {
    %one = llvm.mlir.constant(1 : index) : i64
    gpu.launch_func @dlc_kernels::@k blocks in (%one, %one, %one) threads in (%one, %one, %one) : i64 args(%one : i64) loc(fused["Conv_0", "Relu_1"])
    gpu.launch_func @dlc_kernels::@j blocks in (%one, %one, %one) threads in (%one, %one, %one) : i64 args(%one : i64)
    gpu.launch_func @dlc_kernels::@k blocks in (%one, %one, %one) threads in (%one, %one, %one) : i64 args(%one : i64) loc("Add_2")
    llvm.return
  }
}

// -----

// The host must pass what the PTX entry declares.
module attributes {gpu.container_module} {
  gpu.binary @dlc_kernels [#gpu.object<#nvvm.target<chip = "sm_80">, assembly = ".entry k(\0A.param .u64 .ptr .align 1 k_param_0\0A)\0A{\0Aret;\0A}\0A">]
  llvm.func @main(%p: !llvm.ptr, %ctx: !llvm.ptr {dlc.cuda_context}) {
    %one = llvm.mlir.constant(1 : index) : i64
    %f = llvm.mlir.constant(2.0 : f32) : f32
    // expected-error @+1 {{kernel 'k': the host passes 2 parameters that do not match its sm_80 PTX entry (1 parameters)}}
    gpu.launch_func @dlc_kernels::@k blocks in (%one, %one, %one) threads in (%one, %one, %one) : i64 args(%p : !llvm.ptr, %f : f32)
    llvm.return
  }
}

// -----

// PTX that still declares a math function (libdevice was not linked) would
// fail to load on the GPU: refused at compile time, with the fix.
// expected-error @+1 {{the kernels call '__nv_sqrtf', a CUDA math library function, but no libdevice was linked: set CUDA_HOME to a CUDA toolkit (its nvvm/libdevice/libdevice.10.bc)}}
module attributes {gpu.container_module} {
  gpu.binary @dlc_kernels [#gpu.object<#nvvm.target<chip = "sm_80">, assembly = ".extern .func  (.param .b32 func_retval0) __nv_sqrtf\0A(\0A.param .b32 __nv_sqrtf_param_0\0A)\0A;\0A.entry k(\0A)\0A{\0Aret;\0A}\0A">]
  llvm.func @main(%ctx: !llvm.ptr {dlc.cuda_context}) {
    %one = llvm.mlir.constant(1 : index) : i64
    gpu.launch_func @dlc_kernels::@k blocks in (%one, %one, %one) threads in (%one, %one, %one) : i64
    llvm.return
  }
}

// -----

// Launches need the runtime's context: an entry without one is refused.
module attributes {gpu.container_module} {
  gpu.binary @dlc_kernels [#gpu.object<#nvvm.target<chip = "sm_80">, assembly = ".entry k(\0A)\0A{\0Aret;\0A}\0A">]
  llvm.func @main() {
    %one = llvm.mlir.constant(1 : index) : i64
    // expected-error @+1 {{kernel launch outside a function with a dlc.cuda_context argument}}
    gpu.launch_func @dlc_kernels::@k blocks in (%one, %one, %one) threads in (%one, %one, %one) : i64
    llvm.return
  }
}
