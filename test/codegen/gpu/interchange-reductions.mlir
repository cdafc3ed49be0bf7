// RUN: dlc-opt %s --dlc-gpu-interchange-reductions | FileCheck %s

// A reduction over the outer dimension: the parallel loop moves first, so
// loop lowering gives one parallel loop (one kernel) with the reduction
// sequential inside each thread. The indexing maps follow the new order.
// CHECK-DAG:   #[[IN:.+]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-DAG:   #[[OUT:.+]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @reduce_outer
// CHECK:         linalg.generic {indexing_maps = [#[[IN]], #[[OUT]]], iterator_types = ["parallel", "reduction"]}
func.func @reduce_outer(%a: memref<64x128xf32>, %c: memref<128xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%a : memref<64x128xf32>) outs(%c : memref<128xf32>) {
  ^bb0(%i: f32, %o: f32):
    %t = arith.addf %i, %o : f32
    linalg.yield %t : f32
  }
  return
}

// Already parallel first: unchanged.
// CHECK-LABEL: func.func @already_ordered
// CHECK:         iterator_types = ["parallel", "parallel", "reduction"]
func.func @already_ordered(%a: memref<4x8x16xf32>, %c: memref<4x8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a : memref<4x8x16xf32>) outs(%c : memref<4x8xf32>) {
  ^bb0(%i: f32, %o: f32):
    %t = arith.addf %i, %o : f32
    linalg.yield %t : f32
  }
  return
}
