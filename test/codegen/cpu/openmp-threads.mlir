// RUN: dlc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(dlc-cpu-openmp-threads{min-parallel-work=1}))' | FileCheck %s
// RUN: dlc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(dlc-cpu-openmp-threads))' | FileCheck %s --check-prefix=SMALL
// RUN: dlc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(dlc-cpu-openmp-threads{vector-width=8}))' | FileCheck %s --check-prefix=AVX2

// The thread count becomes an i32 argument after the workspace and the
// num_threads of every parallel region; a tile's stack scratch moves out of
// the per-iteration alloca_scope to the start of the parallel region (once
// per thread) and the scope is inlined.
// CHECK-LABEL: func.func @tiles
// CHECK-SAME:    %{{.+}}: memref<64xi8> {dlc.workspace}, %[[N:.+]]: i32 {dlc.num_threads})
// With the default threshold (20000 16-lane operations) these 16-iteration
// loops are too small to be worth a fork: they become sequential loops
// outside the OpenMP runtime, the tile's scratch at the function's start.
// SMALL-LABEL: func.func @tiles
// SMALL-NEXT:    %[[SCRATCH:.+]] = memref.alloca() {alignment = 64 : i64} : memref<16xf32>
// SMALL-NOT:     omp.parallel
// SMALL-NOT:     memref.alloca_scope
// SMALL:         scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// SMALL:           memref.store %{{.+}}, %[[SCRATCH]]
// SMALL:           memref.store %{{.+}}, %{{.+}}[%[[I]]]
// SMALL:         scf.for
// SMALL-NOT:     omp.parallel
// SMALL:         return
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

// -----

// The work of a region counts each op of the worksharing body times the
// loops around it: a contraction its multiply-adds in vector-width units
// (16 lanes by default: 8x32x1 = 16), a 16-lane transcendental function
// 16, a 16-lane division 4. 8
// tiles x 64 steps x 16 = 8192 (an LSTM step's matmul at batch 8) stays on
// one thread under the default threshold of 20000; 8 tiles x 64 steps x
// (16 + 16 + 4) = 18432 also does; 16 tiles x 64 steps x (16 + 4) = 20480
// is worth both threads.
// SMALL-LABEL: func.func @costs
// SMALL-SAME:    %{{.+}}: memref<64xi8> {dlc.workspace}, %[[N:.+]]: i32 {dlc.num_threads})
// SMALL-NOT:     omp.parallel
// SMALL:         scf.for
// SMALL:           vector.contract
// SMALL-NOT:     omp.parallel
// SMALL:         scf.for
// SMALL:           math.exp
// SMALL:         omp.parallel num_threads(%[[N]] : i32)
// SMALL:           vector.contract
// SMALL:           arith.divf
// With 8 lanes (AVX2) the same work is twice the operations: the first
// region, 8 x 64 x 32 = 16384, still stays on one thread; the second,
// 8 x 64 x (32 + 32 + 8) = 36864, forks.
// AVX2-LABEL: func.func @costs
// AVX2-NOT:     omp.parallel
// AVX2:         scf.for
// AVX2:           vector.contract
// AVX2:         omp.parallel
// AVX2:           vector.contract
// AVX2:           math.exp
// AVX2:         omp.parallel
// AVX2:           arith.divf
func.func @costs(%out: memref<64xf32>, %ws: memref<64xi8> {dlc.workspace}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %a = arith.constant dense<1.0> : vector<8x1xf32>
  %b = arith.constant dense<1.0> : vector<1x32xf32>
  %acc = arith.constant dense<0.0> : vector<8x32xf32>
  %v = arith.constant dense<2.0> : vector<1x16xf32>
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c8) step (%c1) {
        scf.for %k = %c0 to %c64 step %c1 {
          %r = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %acc : vector<8x1xf32>, vector<1x32xf32> into vector<8x32xf32>
        }
        omp.yield
      }
    }
    omp.terminator
  }
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c8) step (%c1) {
        scf.for %k = %c0 to %c64 step %c1 {
          %r = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %acc : vector<8x1xf32>, vector<1x32xf32> into vector<8x32xf32>
          %e = math.exp %v : vector<1x16xf32>
          %d = arith.divf %v, %v : vector<1x16xf32>
        }
        omp.yield
      }
    }
    omp.terminator
  }
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c16) step (%c1) {
        scf.for %k = %c0 to %c64 step %c1 {
          %r = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %acc : vector<8x1xf32>, vector<1x32xf32> into vector<8x32xf32>
          %d = arith.divf %v, %v : vector<1x16xf32>
        }
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// A region that moves much memory runs on all threads even with little
// arithmetic: 16 tiles x 64 steps x a 64-lane read and a 64-lane write =
// 131072 elements, 8192 units of 16, at or above the default
// min-parallel-memory of 4096; a quarter of that (2048) does not fork.
// Scalar loads and stores count one element each: a scalar copy of 16 x 8
// x 64 elements (1024 units of traffic, 16384 operations) does not fork
// either.
// SMALL-LABEL: func.func @memory
// SMALL-SAME:    %{{.+}}: memref<64xi8> {dlc.workspace}, %[[N:.+]]: i32 {dlc.num_threads})
// SMALL:         omp.parallel num_threads(%[[N]] : i32)
// SMALL:           vector.transfer_read
// SMALL:         omp.terminator
// SMALL-NOT:     omp.parallel
// SMALL:         scf.for
// SMALL:           vector.transfer_read
// SMALL-NOT:     omp.parallel
// SMALL:         scf.for
// SMALL:           memref.load
// SMALL-NOT:     omp.parallel
// SMALL:         return
func.func @memory(%in: memref<16x64x64xf32>, %out: memref<16x64x64xf32>, %ws: memref<64xi8> {dlc.workspace}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %pad = arith.constant 0.0 : f32
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c16) step (%c1) {
        scf.for %k = %c0 to %c64 step %c1 {
          %v = vector.transfer_read %in[%i, %k, %c0], %pad {in_bounds = [true]} : memref<16x64x64xf32>, vector<64xf32>
          vector.transfer_write %v, %out[%i, %k, %c0] {in_bounds = [true]} : vector<64xf32>, memref<16x64x64xf32>
        }
        omp.yield
      }
    }
    omp.terminator
  }
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c16) step (%c1) {
        scf.for %k = %c0 to %c16 step %c1 {
          %v = vector.transfer_read %in[%i, %k, %c0], %pad {in_bounds = [true]} : memref<16x64x64xf32>, vector<64xf32>
          vector.transfer_write %v, %out[%i, %k, %c0] {in_bounds = [true]} : vector<64xf32>, memref<16x64x64xf32>
        }
        omp.yield
      }
    }
    omp.terminator
  }
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c16) step (%c1) {
        scf.for %k = %c0 to %c8 step %c1 {
          scf.for %j = %c0 to %c64 step %c1 {
            %v = memref.load %in[%i, %k, %j] : memref<16x64x64xf32>
            memref.store %v, %out[%i, %k, %j] : memref<16x64x64xf32>
          }
        }
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// A small region that is more than one worksharing loop nest keeps its
// region, on one thread.
// SMALL-LABEL: func.func @not_a_loop_nest
// SMALL:         %[[ONE:.+]] = arith.constant 1 : i32
// SMALL:         omp.parallel num_threads(%[[ONE]] : i32)
// SMALL:           omp.barrier
// SMALL:           omp.wsloop
func.func @not_a_loop_nest(%out: memref<64xf32>, %ws: memref<64xi8> {dlc.workspace}) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %one = arith.constant 1.0 : f32
  omp.parallel {
    omp.barrier
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

// A loop over a symbolic dimension whose size (clamped to 40000) is known
// at run time only: 40000 iterations of a 16-lane FMA are worth a fork at
// the default threshold, 1 is not. The region is decided before it runs,
// from the trip count at run time and the thread count: both threads when
// the work reaches the threshold, else the same loops in order.
// SMALL-LABEL: func.func @symbolic_trips
// SMALL-SAME:    %[[N:[a-z0-9]+]]: index, %{{.+}}: memref<64xi8> {dlc.workspace}, %[[T:.+]]: i32 {dlc.num_threads})
// SMALL:         %[[ONE:.+]] = arith.constant 1 : i32
// SMALL:         %[[UB:.+]] = affine.min #{{.+}}()[%[[N]]]
// SMALL:         %[[TRIPS:.+]] = arith.maxsi %[[UB]], %{{.+}} : index
// Each iteration counts 3 operations (the FMA, the extract, the store)
// and 1 element of traffic.
// SMALL:         %[[C3:.+]] = arith.constant 3 : index
// SMALL-NEXT:    %[[OPS:.+]] = arith.muli %[[TRIPS]], %[[C3]] : index
// SMALL:         %[[C20000:.+]] = arith.constant 20000 : index
// SMALL-NEXT:    %[[LARGE:.+]] = arith.cmpi sge, %[[OPS]], %[[C20000]]
// SMALL:         %[[EITHER:.+]] = arith.ori %[[LARGE]], %{{.+}} : i1
// SMALL:         %[[MANY:.+]] = arith.cmpi sgt, %[[T]], %[[ONE]] : i32
// SMALL:         %[[FORK:.+]] = arith.andi %[[EITHER]], %[[MANY]] : i1
// SMALL:         scf.if %[[FORK]] {
// SMALL-NEXT:      omp.parallel num_threads(%[[T]] : i32)
// SMALL:             vector.fma
// SMALL:         } else {
// SMALL-NEXT:      scf.for %{{.+}} = %{{.+}} to %[[UB]] step
// SMALL-NEXT:        vector.fma
func.func @symbolic_trips(%out: memref<40000xf32>, %n: index, %ws: memref<64xi8> {dlc.workspace}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ub = affine.min affine_map<()[s0] -> (s0, 40000)>()[%n]
  %v = arith.constant dense<1.0> : vector<16xf32>
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%ub) step (%c1) {
        %r = vector.fma %v, %v, %v : vector<16xf32>
        %e = vector.extract %r[0] : f32 from vector<16xf32>
        memref.store %e, %out[%i] : memref<40000xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// A symbolic size whose whole range (30000 to 40000 iterations) is worth a
// fork forks without a run-time test; one whose whole range (at most 1000)
// is not runs in order without one. Inner loops over a run-time size count
// too: 64 tiles times [1, 512] 16-lane FMAs are decided at run time.
// SMALL-LABEL: func.func @symbolic_ranges
// SMALL-NOT:     scf.if
// SMALL:         omp.parallel num_threads
// SMALL-NOT:     scf.if
// SMALL:         scf.for
// SMALL-NOT:     omp.parallel
// SMALL:         scf.if
// SMALL-NEXT:      omp.parallel num_threads
// SMALL:         } else {
// SMALL-NEXT:      scf.for
// SMALL-NEXT:        scf.for
func.func @symbolic_ranges(%out: memref<40000xf32>, %n: index, %ws: memref<64xi8> {dlc.workspace}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %lo = affine.max affine_map<()[s0] -> (s0, 30000)>()[%n]
  %big = affine.min affine_map<()[s0] -> (s0, 40000)>()[%lo]
  %pos = affine.max affine_map<()[s0] -> (s0, 1)>()[%n]
  %small = affine.min affine_map<()[s0] -> (s0, 1000)>()[%pos]
  %inner = affine.min affine_map<()[s0] -> (s0, 512)>()[%pos]
  %v = arith.constant dense<1.0> : vector<16xf32>
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%big) step (%c1) {
        %r = vector.fma %v, %v, %v : vector<16xf32>
        %e = vector.extract %r[0] : f32 from vector<16xf32>
        memref.store %e, %out[%i] : memref<40000xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%small) step (%c1) {
        %r = vector.fma %v, %v, %v : vector<16xf32>
        %e = vector.extract %r[0] : f32 from vector<16xf32>
        memref.store %e, %out[%i] : memref<40000xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c64) step (%c1) {
        scf.for %k = %c0 to %inner step %c1 {
          %r = vector.fma %v, %v, %v : vector<16xf32>
          %e = vector.extract %r[0] : f32 from vector<16xf32>
          memref.store %e, %out[%k] : memref<40000xf32>
        }
        omp.yield
      }
    }
    omp.terminator
  }
  return
}
