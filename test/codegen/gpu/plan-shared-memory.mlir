// RUN: dlc-opt %s -split-input-file --dlc-gpu-plan-shared-memory -verify-diagnostics | FileCheck %s

// The shared buffers of a kernel are views of its dynamic shared memory at
// 16-byte aligned offsets (100 bytes round up to 112), and the launch asks
// for their sum.
// CHECK-LABEL: func.func @two_tiles
// CHECK:         %[[SIZE:.+]] = arith.constant 1136 : i32
// CHECK:         gpu.launch {{.*}} dynamic_shared_memory_size %[[SIZE]]
// CHECK:           %[[SMEM:.+]] = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// CHECK:           %[[C0:.+]] = arith.constant 0 : index
// CHECK:           memref.view %[[SMEM]][%[[C0]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<25xf32, #gpu.address_space<workgroup>>
// CHECK:           %[[C112:.+]] = arith.constant 112 : index
// CHECK:           memref.view %[[SMEM]][%[[C112]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<16x16xf32, #gpu.address_space<workgroup>>
// CHECK-NOT:       memref.alloc
func.func @two_tiles(%out: memref<16xf32>) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %a = memref.alloc() : memref<25xf32, #gpu.address_space<workgroup>>
    %b = memref.alloc() : memref<16x16xf32, #gpu.address_space<workgroup>>
    %x = memref.load %a[%c0] : memref<25xf32, #gpu.address_space<workgroup>>
    %y = memref.load %b[%c0, %c0] : memref<16x16xf32, #gpu.address_space<workgroup>>
    %s = arith.addf %x, %y : f32
    memref.store %s, %out[%c0] : memref<16xf32>
    gpu.terminator
  }
  return
}

// -----

func.func @too_big() {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{the kernel needs 262144 bytes of shared memory, more than the 232448 a block can have}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %a = memref.alloc() : memref<65536xf32, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  return
}

// -----

// A thread's private buffer becomes a stack slot at the kernel's entry.
// CHECK-LABEL: func.func @private_buffer
// CHECK:         gpu.launch
// CHECK-NEXT:      %[[P:.+]] = memref.alloca() : memref<1xf32, #gpu.address_space<private>>
// CHECK-NOT:       memref.alloc()
// CHECK:           memref.store %{{.+}}, %[[P]]
func.func @private_buffer(%out: memref<16xf32>) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %cst = arith.constant 1.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    scf.for %i = %c0 to %c1 step %c1 {
      %p = memref.alloc() : memref<1xf32, #gpu.address_space<private>>
      memref.store %cst, %p[%c0] : memref<1xf32, #gpu.address_space<private>>
      %v = memref.load %p[%c0] : memref<1xf32, #gpu.address_space<private>>
      memref.store %v, %out[%c0] : memref<16xf32>
    }
    gpu.terminator
  }
  return
}
