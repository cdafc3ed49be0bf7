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
