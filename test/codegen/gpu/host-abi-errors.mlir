// RUN: dlc-opt %s --dlc-gpu-host-abi -verify-diagnostics

// Device memory holds only constants: a mutable global is refused.
memref.global "private" @state : memref<4xf32> = dense<0.0>
func.func @main(%out: memref<4xf32>) {
  // expected-error @+1 {{the CUDA target supports only constant globals}}
  %0 = memref.get_global @state : memref<4xf32>
  memref.copy %0, %out : memref<4xf32> to memref<4xf32>
  return
}
