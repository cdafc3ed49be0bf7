// RUN: dlc-opt %s -split-input-file --dlc-gpu-lower-warp-reductions --canonicalize | FileCheck %s

// A warp's row of a sum of squares: each lane folds every 32nd element
// from 0 (the sum's neutral element), five xor shuffles combine the lanes,
// and lane 0 stores the total plus the fill value it replaces.
// CHECK-LABEL: func.func @row
// CHECK:         %[[LANE:.+]] = gpu.lane_id
// CHECK:         %[[PART:.+]] = scf.for %[[I:.+]] = %[[LANE]] to %{{.+}} step %{{.+}} iter_args(%[[A:.+]] = %{{.+}}) -> (f32)
// CHECK:           %[[X:.+]] = memref.load %arg0[%{{.+}}, %[[I]]]
// CHECK:           %[[SQ:.+]] = arith.mulf %[[X]], %[[X]]
// CHECK:           arith.addf %[[SQ]], %[[A]]
// CHECK-COUNT-5: gpu.shuffle xor
// CHECK:         %[[FIRST:.+]] = arith.cmpi eq, %[[LANE]]
// CHECK:         scf.if %[[FIRST]]
// CHECK:           %[[T:.+]] = arith.addf %{{.+}}, %{{.+}} : f32
// CHECK:           memref.store %[[T]], %arg1
// CHECK-NOT:     linalg.fill
// CHECK-NOT:     linalg.generic
func.func @row(%a: memref<1x100xf32>, %out: memref<1xf32>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %cst = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    linalg.fill ins(%cst : f32) outs(%out : memref<1xf32>)
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a : memref<1x100xf32>) outs(%out : memref<1xf32>) attrs = {dlc.gpu_config = #dlc.gpu_config<kind = reduction, workgroup = [1, 0], thread = [1, 0], reduction = [0, 32], pipeline_depth = 1, precision = f32>} {
    ^bb0(%x: f32, %o: f32):
      %m = arith.mulf %x, %x : f32
      %s = arith.addf %m, %o : f32
      linalg.yield %s : f32
    }
    gpu.terminator
  }
  return
}

// -----

// A maximum over two reduced loops (7 x 7) starts from -inf; f64 values are
// shuffled as two 32-bit halves.
// CHECK-LABEL: func.func @window_max
// CHECK:         %[[NEG:.+]] = arith.constant 0xFFF0000000000000 : f64
// CHECK:         scf.for {{.*}} iter_args(%{{.+}} = %[[NEG]]) -> (f64)
// CHECK:           affine.delinearize_index %{{.+}} into (7, 7)
// CHECK:           arith.maximumf
// CHECK:         gpu.shuffle xor %{{.+}} : i32
// CHECK:         gpu.shuffle xor %{{.+}} : i32
func.func @window_max(%a: memref<1x7x7xf64>, %out: memref<1xf64>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0)>], iterator_types = ["parallel", "reduction", "reduction"]} ins(%a : memref<1x7x7xf64>) outs(%out : memref<1xf64>) attrs = {dlc.gpu_config = #dlc.gpu_config<kind = reduction, workgroup = [1, 0, 0], thread = [1, 0, 0], reduction = [0, 0, 32], pipeline_depth = 1, precision = f32>} {
    ^bb0(%x: f64, %o: f64):
      %m = arith.maximumf %x, %o : f64
      linalg.yield %m : f64
    }
    gpu.terminator
  }
  return
}

// -----

// A row kernel: the row's sum goes to a private buffer, so every lane stores
// the total (no lane-0 branch); the division over the row is spread over
// the lanes, lane l taking elements l, l + 32, ...
// CHECK-LABEL: func.func @row_kernel
// CHECK:         %[[LANE:.+]] = gpu.lane_id
// CHECK:         scf.for
// CHECK-COUNT-5: gpu.shuffle xor
// CHECK-NOT:     scf.if
// CHECK:         memref.store %{{.+}}, %[[SUM:.+]][%{{.+}}] : memref<1xf32, #gpu.address_space<private>>
// CHECK:         %[[LANE2:.+]] = gpu.lane_id
// CHECK:         scf.for %[[J:.+]] = %[[LANE2]] to %{{.+}} step %{{.+}} {
// CHECK:           %[[X:.+]] = memref.load %arg0[%{{.+}}, %[[J]]]
// CHECK:           %[[S:.+]] = memref.load %[[SUM]]
// CHECK:           %[[Q:.+]] = arith.divf %[[X]], %[[S]]
// CHECK:           memref.store %[[Q]], %arg1[%{{.+}}, %[[J]]]
// CHECK-NOT:     linalg.generic
func.func @row_kernel(%a: memref<1x100xf32>, %out: memref<1x100xf32>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %cst = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %sum = memref.alloc() : memref<1xf32, #gpu.address_space<private>>
    linalg.fill ins(%cst : f32) outs(%sum : memref<1xf32, #gpu.address_space<private>>)
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a : memref<1x100xf32>) outs(%sum : memref<1xf32, #gpu.address_space<private>>) attrs = {dlc.gpu_config = #dlc.gpu_config<kind = reduction, workgroup = [1, 0], thread = [1, 0], reduction = [0, 32], pipeline_depth = 1, precision = f32>} {
    ^bb0(%x: f32, %o: f32):
      %s = arith.addf %x, %o : f32
      linalg.yield %s : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %sum : memref<1x100xf32>, memref<1xf32, #gpu.address_space<private>>) outs(%out : memref<1x100xf32>) attrs = {dlc.gpu_config = #dlc.gpu_config<kind = reduction, workgroup = [1, 0], thread = [1, 0], reduction = [0, 32], pipeline_depth = 1, precision = f32>} {
    ^bb0(%x: f32, %s: f32, %o: f32):
      %q = arith.divf %x, %s : f32
      linalg.yield %q : f32
    }
    gpu.terminator
  }
  return
}
