// Round trip of dlc.constant: inline dense values and dense_resource blobs.
// RUN: dlc-opt %s | dlc-opt | FileCheck %s

// CHECK-LABEL: func.func @dense
func.func @dense() -> (tensor<2xf32>, tensor<i64>, tensor<3xi1>) {
  // CHECK: dlc.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
  %0 = dlc.constant dense<[1.0, 2.0]> : tensor<2xf32>
  // CHECK: dlc.constant dense<7> : tensor<i64>
  %1 = dlc.constant dense<7> : tensor<i64>
  // CHECK: dlc.constant dense<[true, false, true]> : tensor<3xi1>
  %2 = dlc.constant dense<[true, false, true]> : tensor<3xi1>
  return %0, %1, %2 : tensor<2xf32>, tensor<i64>, tensor<3xi1>
}

// CHECK-LABEL: func.func @resource
func.func @resource() -> tensor<2x2xf32> {
  // CHECK: dlc.constant dense_resource<w> : tensor<2x2xf32>
  %0 = dlc.constant dense_resource<w> : tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// The blob itself survives the round trip.
// CHECK: dialect_resources
// CHECK: w: "0x040000000000803F000000400000404000008040"

{-#
  dialect_resources: {
    builtin: {
      w: "0x040000000000803F000000400000404000008040"
    }
  }
#-}
