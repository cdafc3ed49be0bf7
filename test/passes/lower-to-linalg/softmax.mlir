// RUN: dlc-opt %s -split-input-file --dlc-lower-to-linalg --mlir-print-local-scope | FileCheck %s

// Softmax-13 (one axis, here 1 of 2x3x4): max over d1 into a 2x4 tensor
// (-inf initialized), exp(x - max), sum over d1 (0 initialized), divide.
// CHECK-LABEL: func.func @softmax_axis
// CHECK-SAME:    (%[[X:.+]]: tensor<2x3x4xf32>)
// CHECK:         %[[NEGINF:.+]] = arith.constant 0xFF800000 : f32
// CHECK:         %[[MAXINIT:.+]] = linalg.fill ins(%[[NEGINF]] : f32) outs(%{{.+}} : tensor<2x4xf32>)
// CHECK:         %[[MAX:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>]
// CHECK-SAME:      iterator_types = ["parallel", "reduction", "parallel"]
// CHECK-SAME:      ins(%[[X]] : tensor<2x3x4xf32>) outs(%[[MAXINIT]] : tensor<2x4xf32>)
// CHECK:           arith.maximumf
// CHECK:         %[[EXP:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel"]
// CHECK-SAME:      ins(%[[X]], %[[MAX]] : tensor<2x3x4xf32>, tensor<2x4xf32>)
// CHECK:         ^bb0(%[[XV:.+]]: f32, %[[MV:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT:      %[[D:.+]] = arith.subf %[[XV]], %[[MV]] : f32
// CHECK-NEXT:      %[[E:.+]] = math.exp %[[D]] : f32
// CHECK-NEXT:      linalg.yield %[[E]] : f32
// CHECK:         %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[SUMINIT:.+]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.+}} : tensor<2x4xf32>)
// CHECK:         %[[SUM:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "reduction", "parallel"]
// CHECK-SAME:      ins(%[[EXP]] : tensor<2x3x4xf32>) outs(%[[SUMINIT]] : tensor<2x4xf32>)
// CHECK:           arith.addf
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK-SAME:      ins(%[[EXP]], %[[SUM]] : tensor<2x3x4xf32>, tensor<2x4xf32>)
// CHECK:         ^bb0(%[[EV:.+]]: f32, %[[SV:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT:      %[[Q:.+]] = arith.divf %[[EV]], %[[SV]] : f32
// CHECK-NEXT:      linalg.yield %[[Q]] : f32
// CHECK:         return %[[R]]
func.func @softmax_axis(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %0 = dlc.softmax %x {axis = 1 : i64} : tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

// Softmax-1/11 (trailing): normalizes over all dims from the axis on, so the
// reductions keep only d0.
// CHECK-LABEL: func.func @softmax_trailing
// CHECK:         linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<2xf32>)
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0)>]
// CHECK-SAME:      iterator_types = ["parallel", "reduction", "reduction"]
// CHECK:           arith.maximumf
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]
// CHECK:           math.exp
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "reduction", "reduction"]
// CHECK:           arith.addf
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]
// CHECK:           arith.divf
func.func @softmax_trailing(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %0 = dlc.softmax %x {axis = 1 : i64, trailing} : tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

// The last axis of a 2-D input (the common classifier case).
// CHECK-LABEL: func.func @softmax_last
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>]
// CHECK-SAME:      iterator_types = ["parallel", "reduction"]
func.func @softmax_last(%x: tensor<1x10xf32>) -> tensor<1x10xf32> {
  %0 = dlc.softmax %x {axis = 1 : i64} : tensor<1x10xf32>
  return %0 : tensor<1x10xf32>
}

// -----

// Trailing with axis 0: everything is reduced into a rank-0 tensor.
// CHECK-LABEL: func.func @softmax_trailing_all
// CHECK:         linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<f32>)
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>]
// CHECK-SAME:      iterator_types = ["reduction", "reduction"]
func.func @softmax_trailing_all(%x: tensor<2x5xf32>) -> tensor<2x5xf32> {
  %0 = dlc.softmax %x {axis = 0 : i64, trailing} : tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}
