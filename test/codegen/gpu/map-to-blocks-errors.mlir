// RUN: dlc-opt %s -split-input-file --dlc-gpu-map-to-blocks -verify-diagnostics

// A value loaded from device memory that the host needs (here the bound of
// a parallel loop, which sizes the grid: a data-dependent size) is refused
// at the op that computes it, naming the op that needs it.
func.func @host_needs_value(%n: memref<index>, %a: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cst = arith.constant 1.0 : f32
  // expected-error @+1 {{a value computed on the device is needed on the host by 'scf.parallel' (a data-dependent shape, or control flow that depends on tensor values), which the CUDA target does not support yet}}
  %ub = memref.load %n[] : memref<index>
  scf.parallel (%i) = (%c0) to (%ub) step (%c1) {
    memref.store %cst, %a[%i] : memref<8xf32>
    scf.reduce
  }
  return
}

// -----

func.func @reduction(%a: memref<8xf32>, %out: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  // expected-error @+1 {{parallel loops with reductions are not supported on the CUDA target}}
  %r = scf.parallel (%i) = (%c0) to (%c8) step (%c1) init (%zero) -> f32 {
    %v = memref.load %a[%i] : memref<8xf32>
    scf.reduce(%v : f32) {
    ^bb0(%x: f32, %y: f32):
      %s = arith.addf %x, %y : f32
      scf.reduce.return %s : f32
    }
  }
  memref.store %r, %out[] : memref<f32>
  return
}

// -----

// A strided buffer that is not a view computed here (a strided argument)
// cannot be passed to a kernel as a bare pointer.
func.func @strided_argument(%a: memref<4xf32, strided<[2]>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %cst = arith.constant 1.0 : f32
  // expected-error @+1 {{kernel operand of type 'memref<4xf32, strided<[2]>>' cannot be passed as a bare pointer}}
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    memref.store %cst, %a[%i] : memref<4xf32, strided<[2]>>
    scf.reduce
  }
  return
}
