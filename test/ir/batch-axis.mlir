// Round trip of dlc.batch_axis, the import's hint of where a dynamic batch
// lies in a node's output, and its same-type check.
// RUN: dlc-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @hint
// CHECK: dlc.batch_axis %{{.+}} axis 0 : tensor<1x3xf32>
// CHECK: dlc.batch_axis %{{.+}} axis -1 : tensor<3xi64>
func.func @hint(%x: tensor<1x3xf32>, %s: tensor<3xi64>) -> (tensor<1x3xf32>, tensor<3xi64>) {
  %0 = dlc.batch_axis %x axis 0 : tensor<1x3xf32>
  %1 = dlc.batch_axis %s axis -1 : tensor<3xi64>
  return %0, %1 : tensor<1x3xf32>, tensor<3xi64>
}

// -----

func.func @mismatch(%x: tensor<1x3xf32>) -> tensor<3x1xf32> {
  // expected-error @+1 {{requires the same type for all operands and results}}
  %0 = "dlc.batch_axis"(%x) {axis = 0 : i64} : (tensor<1x3xf32>) -> tensor<3x1xf32>
  return %0 : tensor<3x1xf32>
}
