// Round trip of the ops whose result sizes depend on data.
// RUN: dlc-opt %s | dlc-opt | FileCheck %s

// CHECK-LABEL: func.func @ops
func.func @ops(%x: tensor<2x3xf32>, %c: tensor<2xi1>, %boxes: tensor<1x6x4xf32>,
               %scores: tensor<1x2x6xf32>, %max: tensor<1xi64>, %t: tensor<1xf32>)
    -> (tensor<2x?xi64>, tensor<2x?xf32>, tensor<?x3xf32>, tensor<?xi64>, tensor<2xi64>, tensor<?xi64>, tensor<?x3xi64>) {
  // CHECK: dlc.nonzero %{{.+}} : tensor<2x3xf32> -> tensor<2x?xi64>
  %0 = dlc.nonzero %x : tensor<2x3xf32> -> tensor<2x?xi64>
  // A condition shorter than the axis is fine (the rest is dropped).
  // CHECK: dlc.compress %{{.+}}, %{{.+}} {axis = 1 : i64} : tensor<2x3xf32>, tensor<2xi1> -> tensor<2x?xf32>
  %1 = dlc.compress %x, %c {axis = 1 : i64} : tensor<2x3xf32>, tensor<2xi1> -> tensor<2x?xf32>
  // CHECK: dlc.unique %{{.+}} {axis = 0 : i64, sorted = true} : (tensor<2x3xf32>) -> (tensor<?x3xf32>, tensor<?xi64>, tensor<2xi64>, tensor<?xi64>)
  %2:4 = dlc.unique %x {axis = 0 : i64, sorted = true} : (tensor<2x3xf32>) -> (tensor<?x3xf32>, tensor<?xi64>, tensor<2xi64>, tensor<?xi64>)
  // CHECK: dlc.non_max_suppression %{{.+}} {center_point_box = false, max_boxes_bound = 3 : i64}
  %3 = dlc.non_max_suppression %boxes, %scores, %max, %t, %t {center_point_box = false, max_boxes_bound = 3 : i64}
      : (tensor<1x6x4xf32>, tensor<1x2x6xf32>, tensor<1xi64>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x3xi64>
  return %0, %1, %2#0, %2#1, %2#2, %2#3, %3 : tensor<2x?xi64>, tensor<2x?xf32>, tensor<?x3xf32>, tensor<?xi64>, tensor<2xi64>, tensor<?xi64>, tensor<?x3xi64>
}
