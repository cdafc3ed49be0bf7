// RUN: dlc-opt %s -split-input-file --dlc-gpu-map-to-blocks -verify-diagnostics

// A value computed on the device that the host needs comes back through
// device memory as a scalar; a vector cannot.
func.func @host_needs_vector(%a: memref<8xf32>, %b: memref<8xf32>, %ws: memref<64xi8> {dlc.workspace}, %ctx: !llvm.ptr {dlc.cuda_context}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  // expected-error @+1 {{a value of type 'vector<8xf32>' computed on the device is needed on the host; the CUDA target reads back only scalars}}
  %v = vector.load %a[%c0] : memref<8xf32>, vector<8xf32>
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    vector.store %v, %b[%c0] : memref<8xf32>, vector<8xf32>
    scf.reduce
  }
  return
}

// -----

// Reading a value back needs the entry's workspace (its slots) and launch
// context.
func.func @no_workspace(%n: memref<index>, %a: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cst = arith.constant 1.0 : f32
  // expected-error @+1 {{a value computed on the device is needed on the host, outside an entry with a workspace and a launch context}}
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
