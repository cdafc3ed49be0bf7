// RUN: dlc-opt %s -split-input-file --dlc-lower-to-linalg --mlir-print-local-scope | FileCheck %s

// Relu is max(x, 0) via cmpf ugt + select, so that NaN inputs stay NaN.
// CHECK-LABEL: func.func @relu
// CHECK-SAME:    (%[[X:.+]]: tensor<2x8xf32>)
// CHECK:         %[[INIT:.+]] = tensor.empty() : tensor<2x8xf32>
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK-SAME:      iterator_types = ["parallel", "parallel"]
// CHECK-SAME:      ins(%[[X]] : tensor<2x8xf32>) outs(%[[INIT]] : tensor<2x8xf32>)
// CHECK:         ^bb0(%[[IN:.+]]: f32, %{{.+}}: f32):
// CHECK:           %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK:           %[[POS:.+]] = arith.cmpf ugt, %[[IN]], %[[ZERO]] : f32
// CHECK:           %[[SEL:.+]] = arith.select %[[POS]], %[[IN]], %[[ZERO]] : f32
// CHECK:           linalg.yield %[[SEL]] : f32
// CHECK:         return %[[R]]
func.func @relu(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %0 = dlc.relu %x : tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

// Sigmoid is 0.5 + 0.5 * tanh(x / 2) (a rational approximation on the CPU,
// no exponential and no reciprocal of 1 + e^-x).
// CHECK-LABEL: func.func @sigmoid
// CHECK:         linalg.generic
// CHECK:         ^bb0(%[[IN:.+]]: f32, %{{.+}}: f32):
// CHECK:           %[[HALF:.+]] = arith.constant 5.000000e-01 : f32
// CHECK:           %[[X2:.+]] = arith.mulf %[[IN]], %[[HALF]] : f32
// CHECK:           %[[T:.+]] = math.tanh %[[X2]] : f32
// CHECK:           %[[Y:.+]] = math.fma %[[T]], %[[HALF]], %[[HALF]] : f32
// CHECK:           linalg.yield %[[Y]] : f32
func.func @sigmoid(%x: tensor<16xf32>) -> tensor<16xf32> {
  %0 = dlc.sigmoid %x : tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

// CHECK-LABEL: func.func @tanh
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel"]
// CHECK:         ^bb0(%[[IN:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT:      %[[T:.+]] = math.tanh %[[IN]] : f32
// CHECK-NEXT:      linalg.yield %[[T]] : f32
func.func @tanh(%x: tensor<1x3x5xf32>) -> tensor<1x3x5xf32> {
  %0 = dlc.tanh %x : tensor<1x3x5xf32>
  return %0 : tensor<1x3x5xf32>
}

// -----

// Element types other than f32 are kept.
// CHECK-LABEL: func.func @relu_f64
// CHECK:         arith.constant 0.000000e+00 : f64
// CHECK:         arith.cmpf ugt, %{{.+}}, %{{.+}} : f64
// CHECK:         arith.select %{{.+}}, %{{.+}}, %{{.+}} : f64
func.func @relu_f64(%x: tensor<4xf64>) -> tensor<4xf64> {
  %0 = dlc.relu %x : tensor<4xf64>
  return %0 : tensor<4xf64>
}
