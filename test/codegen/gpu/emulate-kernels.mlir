// RUN: dlc-opt %s -split-input-file --dlc-gpu-emulate-kernels -verify-diagnostics --canonicalize | FileCheck %s

// A kernel becomes a host function of its parameters and the block index,
// thread index, block size and grid size; its launch, loops over blocks and
// threads calling it.
// CHECK-LABEL: func.func @main
// CHECK-SAME:    (%[[A:.+]]: memref<8xf32>)
// CHECK-DAG:     %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG:     %[[C4:.+]] = arith.constant 4 : index
// CHECK:         scf.for %[[B:.+]] = %[[C0]] to %[[C2]] step %[[C1]] {
// CHECK-NEXT:      scf.for %[[T:.+]] = %[[C0]] to %[[C4]] step %[[C1]] {
// CHECK-NEXT:        func.call @k(%[[A]], %[[B]], %[[T]], %[[C4]], %[[C2]]) : (memref<8xf32>, index, index, index, index) -> ()
// CHECK-NOT:     gpu.
// CHECK-LABEL: func.func private @k
// CHECK-SAME:    (%[[P:.+]]: memref<8xf32>, %[[BID:.+]]: index, %[[TID:.+]]: index, %[[BDIM:.+]]: index, %[[GDIM:.+]]: index)
// CHECK:         %[[M:.+]] = arith.muli %[[BID]], %[[BDIM]]
// CHECK:         %[[I:.+]] = arith.addi %[[M]], %[[TID]]
// CHECK:         memref.store %{{.+}}, %[[P]][%[[I]]]
// CHECK:         return
module attributes {gpu.container_module} {
  func.func @main(%a: memref<8xf32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @dlc_kernels::@k blocks in (%c2, %c1, %c1) threads in (%c4, %c1, %c1) args(%a : memref<8xf32>)
    return
  }
  gpu.module @dlc_kernels {
    gpu.func @k(%arg0: memref<8xf32>) kernel {
      %b = gpu.block_id x
      %t = gpu.thread_id x
      %d = gpu.block_dim x
      %m = arith.muli %b, %d : index
      %i = arith.addi %m, %t : index
      %cst = arith.constant 1.0 : f32
      memref.store %cst, %arg0[%i] : memref<8xf32>
      gpu.return
    }
  }
}

// -----

// Only what dlc's kernels use can be emulated.
module attributes {gpu.container_module} {
  gpu.module @dlc_kernels {
    gpu.func @k(%arg0: memref<8xf32>) kernel {
      // expected-error @+1 {{cannot emulate 'gpu.barrier' on the CPU}}
      gpu.barrier
      gpu.return
    }
  }
}

// -----

// dlc's grids are 1-D; others are refused.
module attributes {gpu.container_module} {
  func.func @main(%a: memref<8xf32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    // expected-error @+1 {{only 1-D grids can be emulated}}
    gpu.launch_func @dlc_kernels::@k blocks in (%c1, %c2, %c1) threads in (%c1, %c1, %c1) args(%a : memref<8xf32>)
    return
  }
  gpu.module @dlc_kernels {
    gpu.func @k(%arg0: memref<8xf32>) kernel {
      gpu.return
    }
  }
}
