// RUN: dlc-opt %s -split-input-file --dlc-gpu-occupancy -verify-diagnostics | FileCheck %s
// RUN: dlc-opt %s -split-input-file --dlc-gpu-occupancy=blocks-per-sm=3 | FileCheck %s --check-prefix=THREE
// RUN: not dlc-opt %s --dlc-gpu-occupancy=blocks-per-sm=0 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: error: blocks-per-sm must be at least 1

// Kernels ask ptxas for two blocks per SM; other functions are left alone.
// CHECK-LABEL: gpu.module @kernels
// CHECK:         gpu.func @k() kernel attributes {nvvm.minctasm = 2 : i32}
// CHECK:         gpu.func @helper()
// CHECK-NOT:       nvvm.minctasm
// THREE:         gpu.func @k() kernel attributes {nvvm.minctasm = 3 : i32}
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel {
      gpu.return
    }
    gpu.func @helper() {
      gpu.return
    }
  }
}
