// RUN: dlc-opt %s --dlc-gpu-merge-kernel-modules | FileCheck %s

// Each outlined kernel moves into @dlc_kernels under its old module's name;
// launches follow; a device function both kernels call is kept once.
// CHECK-LABEL: func.func @main
// CHECK:         gpu.launch_func @dlc_kernels::@main_kernel blocks
// CHECK:         gpu.launch_func @dlc_kernels::@main_kernel_0 blocks
// CHECK-NOT:   gpu.module @main_kernel
// CHECK:       gpu.module @dlc_kernels {
// CHECK:         gpu.func @main_kernel(%{{.+}}: memref<8xf32>) kernel
// CHECK:         func.func private @helper
// CHECK:         gpu.func @main_kernel_0(%{{.+}}: memref<8xf32>) kernel
// CHECK-NOT:     func.func private @helper
// CHECK-NOT:   gpu.module
module attributes {gpu.container_module} {
  func.func @main(%a: memref<8xf32>) {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    gpu.launch_func @main_kernel::@main_kernel blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%a : memref<8xf32>)
    gpu.launch_func @main_kernel_0::@main_kernel blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%a : memref<8xf32>)
    return
  }
  gpu.module @main_kernel {
    gpu.func @main_kernel(%arg0: memref<8xf32>) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %arg0[%c0] : memref<8xf32>
      %w = func.call @helper(%v) : (f32) -> f32
      memref.store %w, %arg0[%c0] : memref<8xf32>
      gpu.return
    }
    func.func private @helper(%x: f32) -> f32 {
      return %x : f32
    }
  }
  gpu.module @main_kernel_0 {
    gpu.func @main_kernel(%arg0: memref<8xf32>) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %arg0[%c0] : memref<8xf32>
      %w = func.call @helper(%v) : (f32) -> f32
      memref.store %w, %arg0[%c0] : memref<8xf32>
      gpu.return
    }
    func.func private @helper(%x: f32) -> f32 {
      return %x : f32
    }
  }
}
