// RUN: dlc-opt %s -split-input-file -dlc-cpu-profile-kernels | FileCheck %s

// Three kernels: a fill (a linalg op), a loop nest, and a run of
// straight-line vector ops; views and constants are not kernels. A stamp
// before the first kernel and after each, in a buffer of 4 words.
// CHECK:       func.func private @dlcrt_profile_clock() -> i64
// CHECK-LABEL: func.func @three
// CHECK-SAME:    dlc.profile_kernels = ["fill", "loop", "vec"]
// CHECK:         %[[BUF:.*]] = memref.alloc() {dlc.profile} : memref<4xi64>
// CHECK:         %[[T0:.*]] = call @dlcrt_profile_clock() : () -> i64
// CHECK:         memref.store %[[T0]], %[[BUF]][%{{.*}}] : memref<4xi64>
// CHECK-NEXT:    linalg.fill
// CHECK-NEXT:    %[[T1:.*]] = call @dlcrt_profile_clock()
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    memref.store %[[T1]], %[[BUF]][%[[C1]]]
// CHECK-NEXT:    scf.for
// CHECK:         call @dlcrt_profile_clock()
// CHECK-NEXT:    arith.constant 2 : index
// CHECK-NEXT:    memref.store
// CHECK-NEXT:    vector.transfer_read
// CHECK-NEXT:    vector.transfer_write
// CHECK-NEXT:    call @dlcrt_profile_clock()
// CHECK-NEXT:    arith.constant 3 : index
// CHECK-NEXT:    memref.store
// CHECK-NEXT:    return
func.func @three(%a: memref<16xf32>, %b: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%a : memref<16xf32>) loc("fill")
  scf.for %i = %c0 to %c16 step %c1 {
    %x = memref.load %a[%i] : memref<16xf32>
    memref.store %x, %b[%i] : memref<16xf32>
  } loc("loop")
  %v = vector.transfer_read %b[%c0], %zero : memref<16xf32>, vector<16xf32> loc("vec")
  vector.transfer_write %v, %a[%c0] : vector<16xf32>, memref<16xf32> loc("vec")
  return
}

// -----

// Private functions and functions without kernels are left alone.
// CHECK-LABEL: func.func private @helper
// CHECK-NOT:     dlcrt_profile_clock
// CHECK-LABEL: func.func @nothing
// CHECK-NOT:     dlc.profile
func.func private @helper(%a: memref<4xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%a : memref<4xf32>)
  return
}
func.func @nothing(%a: memref<4xf32>) -> memref<4xf32> {
  return %a : memref<4xf32>
}
