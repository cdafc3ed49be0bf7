// RUN: dlc-opt %s -split-input-file --dlc-gpu-fold-row-broadcasts | FileCheck %s

// A layer norm's row statistics as imported (keepdims): the mean, expanded
// to [32, 1] and broadcast with a 0, is read as [32]; the rsqrt over
// [32, 1] becomes an op over [32].
// CHECK-LABEL: func.func @row_stats
// CHECK-NOT:     tensor.expand_shape
// CHECK:         %[[MEAN:.+]] = linalg.generic {{.*}} iterator_types = ["parallel"]} ins(%arg1 : tensor<32xf32>)
// CHECK:         %[[D:.+]] = linalg.generic {indexing_maps = [#{{.+}}, #[[ROW:.+]], #{{.+}}], iterator_types = ["parallel", "parallel"]} ins(%arg0, %[[MEAN]] : tensor<32x96xf32>, tensor<32xf32>)
// CHECK:         %[[R:.+]] = linalg.generic {{.*}} iterator_types = ["parallel"]} ins(%arg2 : tensor<32xf32>)
// CHECK:           math.rsqrt
// CHECK:         linalg.generic {indexing_maps = [#{{.+}}, #[[ROW]], #{{.+}}], iterator_types = ["parallel", "parallel"]} ins(%[[D]], %[[R]] : tensor<32x96xf32>, tensor<32xf32>)
#id = affine_map<(d0, d1) -> (d0, d1)>
#b0 = affine_map<(d0, d1) -> (d0, 0)>
#v = affine_map<(d0) -> (d0)>
func.func @row_stats(%x: tensor<32x96xf32>, %mean: tensor<32xf32>, %var: tensor<32xf32>) -> tensor<32x96xf32> {
  %e = tensor.empty() : tensor<32xf32>
  %m = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%mean : tensor<32xf32>) outs(%e : tensor<32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant 9.6e1 : f32
    %r = arith.divf %a, %c : f32
    linalg.yield %r : f32
  } -> tensor<32xf32>
  %mx = tensor.expand_shape %m [[0, 1]] output_shape [32, 1] : tensor<32xf32> into tensor<32x1xf32>
  %full = tensor.empty() : tensor<32x96xf32>
  %d = linalg.generic {indexing_maps = [#id, #b0, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %mx : tensor<32x96xf32>, tensor<32x1xf32>) outs(%full : tensor<32x96xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.subf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<32x96xf32>
  %vx = tensor.expand_shape %var [[0, 1]] output_shape [32, 1] : tensor<32xf32> into tensor<32x1xf32>
  %e1 = tensor.empty() : tensor<32x1xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%vx : tensor<32x1xf32>) outs(%e1 : tensor<32x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = math.rsqrt %a : f32
    linalg.yield %s : f32
  } -> tensor<32x1xf32>
  %y = linalg.generic {indexing_maps = [#id, #b0, #id], iterator_types = ["parallel", "parallel"]} ins(%d, %r : tensor<32x96xf32>, tensor<32x1xf32>) outs(%full : tensor<32x96xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.mulf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<32x96xf32>
  return %y : tensor<32x96xf32>
}

// -----

// A dim that the expand_shape splits (not a unit dim) is left alone.
// CHECK-LABEL: func.func @split
// CHECK:         tensor.expand_shape
func.func @split(%x: tensor<32xf32>) -> tensor<4x8xf32> {
  %xx = tensor.expand_shape %x [[0, 1]] output_shape [4, 8] : tensor<32xf32> into tensor<4x8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%xx : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.negf %a : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
