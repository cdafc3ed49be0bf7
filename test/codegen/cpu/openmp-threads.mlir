// RUN: dlc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(dlc-cpu-openmp-threads{min-parallel-work=1}))' | FileCheck %s
// RUN: dlc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(dlc-cpu-openmp-threads))' | FileCheck %s --check-prefix=SMALL

// The thread count becomes an i32 argument after the workspace and the
// num_threads of every parallel region; a tile's stack scratch moves out of
// the per-iteration alloca_scope to the start of the parallel region (once
// per thread) and the scope is inlined.
// CHECK-LABEL: func.func @tiles
// CHECK-SAME:    %{{.+}}: memref<64xi8> {dlc.workspace}, %[[N:.+]]: i32 {dlc.num_threads})
// With the default threshold (2048 16-lane operations) these 16-iteration
// loops are too small to be worth a fork: they run on one thread.
// SMALL-LABEL: func.func @tiles
// SMALL:         %[[ONE:.+]] = arith.constant 1 : i32
// SMALL:         omp.parallel num_threads(%[[ONE]] : i32)
// SMALL:         omp.parallel num_threads(%[[ONE]] : i32)
// CHECK:         omp.parallel num_threads(%[[N]] : i32)
// CHECK-NEXT:      %[[SCRATCH:.+]] = memref.alloca() {alignment = 64 : i64} : memref<16xf32>
// CHECK-NEXT:      omp.wsloop
// CHECK-NEXT:        omp.loop_nest
// CHECK-NOT:           memref.alloca_scope
// CHECK:               memref.store %{{.+}}, %[[SCRATCH]]
// CHECK:         omp.parallel num_threads(%[[N]] : i32)
func.func @tiles(%out: memref<64xf32>, %ws: memref<64xi8> {dlc.workspace}) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %one = arith.constant 1.0 : f32
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c64) step (%c4) {
        memref.alloca_scope {
          %s = memref.alloca() {alignment = 64 : i64} : memref<16xf32>
          memref.store %one, %s[%c0] : memref<16xf32>
          %v = memref.load %s[%c0] : memref<16xf32>
          memref.store %v, %out[%i] : memref<64xf32>
        }
        omp.yield
      }
    }
    omp.terminator
  }
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c64) step (%c4) {
        memref.store %one, %out[%i] : memref<64xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// Functions without a workspace (not a model entry) are left alone.
// CHECK-LABEL: func.func @helper
// CHECK-SAME:    (%{{.+}}: memref<4xf32>)
// CHECK:         omp.parallel {
func.func @helper(%out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c4) step (%c1) {
        memref.store %one, %out[%i] : memref<4xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}
