// RUN: dlc-opt %s -split-input-file --dlc-lower-to-linalg --mlir-print-local-scope | FileCheck %s

// One generic: the four per-channel vectors are indexed by the channel loop
// (d1); y = (x - mean) * rsqrt(var + eps) * scale + bias.
// CHECK-LABEL: func.func @batch_norm
// CHECK-SAME:    (%[[X:.+]]: tensor<1x8x4x4xf32>, %[[S:.+]]: tensor<8xf32>, %[[B:.+]]: tensor<8xf32>, %[[M:.+]]: tensor<8xf32>, %[[V:.+]]: tensor<8xf32>)
// CHECK:         %[[INIT:.+]] = tensor.empty() : tensor<1x8x4x4xf32>
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>]
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "parallel"]
// CHECK-SAME:      ins(%[[X]], %[[S]], %[[B]], %[[M]], %[[V]] : tensor<1x8x4x4xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>)
// CHECK-SAME:      outs(%[[INIT]] : tensor<1x8x4x4xf32>)
// CHECK:         ^bb0(%[[XV:[^:]+]]: f32, %[[SV:[^:]+]]: f32, %[[BV:[^:]+]]: f32, %[[MV:[^:]+]]: f32, %[[VV:[^:]+]]: f32, %{{.+}}: f32):
// CHECK:           %[[EPS:.+]] = arith.constant 9.99999974E-6 : f32
// CHECK:           %[[VE:.+]] = arith.addf %[[VV]], %[[EPS]] : f32
// CHECK:           %[[INV:.+]] = math.rsqrt %[[VE]] : f32
// CHECK:           %[[C:.+]] = arith.subf %[[XV]], %[[MV]] : f32
// CHECK:           %[[N:.+]] = arith.mulf %[[C]], %[[INV]] : f32
// CHECK:           %[[SC:.+]] = arith.mulf %[[N]], %[[SV]] : f32
// CHECK:           %[[Y:.+]] = arith.addf %[[SC]], %[[BV]] : f32
// CHECK:           linalg.yield %[[Y]] : f32
// CHECK:         return %[[R]]
func.func @batch_norm(%x: tensor<1x8x4x4xf32>, %s: tensor<8xf32>, %b: tensor<8xf32>,
                      %m: tensor<8xf32>, %v: tensor<8xf32>) -> tensor<1x8x4x4xf32> {
  %0 = dlc.batch_norm %x, %s, %b, %m, %v {epsilon = 1.0e-05 : f32} : tensor<1x8x4x4xf32>, tensor<8xf32>
  return %0 : tensor<1x8x4x4xf32>
}

// -----

// Rank 3 (N, C, L): the channel is still d1, and epsilon is the op's.
// CHECK-LABEL: func.func @batch_norm_1d
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1)>, affine_map<(d0, d1, d2) -> (d1)>, affine_map<(d0, d1, d2) -> (d1)>, affine_map<(d0, d1, d2) -> (d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]
// CHECK:           arith.constant 1.000000e-03 : f32
func.func @batch_norm_1d(%x: tensor<2x3x5xf32>, %s: tensor<3xf32>, %b: tensor<3xf32>,
                         %m: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<2x3x5xf32> {
  %0 = dlc.batch_norm %x, %s, %b, %m, %v {epsilon = 1.0e-03 : f32} : tensor<2x3x5xf32>, tensor<3xf32>
  return %0 : tensor<2x3x5xf32>
}
