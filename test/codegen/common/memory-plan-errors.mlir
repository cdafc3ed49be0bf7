// RUN: dlc-opt %s -split-input-file -verify-diagnostics --dlc-memory-plan

// Only static, identity-layout buffers can be placed in the workspace.
func.func @dynamic(%n: index) {
  // expected-error @+1 {{cannot plan a buffer of type 'memref<?xf32>'}}
  %a = memref.alloc(%n) : memref<?xf32>
  return
}

// -----

func.func @strided() {
  // expected-error @+1 {{cannot plan a buffer of type 'memref<4x4xf32, strided<[8, 1]>>'}}
  %a = memref.alloc() : memref<4x4xf32, strided<[8, 1]>>
  return
}

// -----

// A buffer allocated in a loop's body gets one slot for every iteration, so
// it must not be carried to the next iteration (which still reads it while
// the next value is written); dlc-carry-loop-values-in-place prevents it.
func.func @carried(%init: memref<4xf32>, %n: i64) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %r:2 = scf.while (%i = %c0, %x = %init) : (i64, memref<4xf32>) -> (i64, memref<4xf32>) {
    %go = arith.cmpi slt, %i, %n : i64
    scf.condition(%go) %i, %x : i64, memref<4xf32>
  } do {
  ^bb0(%i: i64, %x: memref<4xf32>):
    // expected-error @+1 {{a buffer allocated in a loop is carried to its next iteration}}
    %y = memref.alloc() : memref<4xf32>
    memref.copy %x, %y : memref<4xf32> to memref<4xf32>
    %next = arith.addi %i, %c1 : i64
    scf.yield %next, %y : i64, memref<4xf32>
  }
  return
}
