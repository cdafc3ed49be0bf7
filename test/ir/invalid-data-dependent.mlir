// RUN: dlc-opt %s -split-input-file -verify-diagnostics

func.func @nonzero_static_result(%x: tensor<2x3xf32>) -> tensor<2x6xi64> {
  // expected-error @+1 {{result dimension 1 must be dynamic, got 'tensor<2x6xi64>'}}
  %0 = dlc.nonzero %x : tensor<2x3xf32> -> tensor<2x6xi64>
  return %0 : tensor<2x6xi64>
}

// -----

func.func @nonzero_rank(%x: tensor<2x3xf32>) -> tensor<3x?xi64> {
  // expected-error @+1 {{result dimension 0 must be 2, got 'tensor<3x?xi64>'}}
  %0 = dlc.nonzero %x : tensor<2x3xf32> -> tensor<3x?xi64>
  return %0 : tensor<3x?xi64>
}

// -----

func.func @compress_condition(%x: tensor<2x3xf32>, %c: tensor<3xf32>) -> tensor<2x?xf32> {
  // expected-error @+1 {{condition must be a 1-D tensor of i1}}
  %0 = dlc.compress %x, %c {axis = 1 : i64} : tensor<2x3xf32>, tensor<3xf32> -> tensor<2x?xf32>
  return %0 : tensor<2x?xf32>
}

// -----

func.func @compress_wrong_axis(%x: tensor<2x3xf32>, %c: tensor<3xi1>) -> tensor<2x?xf32> {
  // expected-error @+1 {{result dimension 0 must be dynamic}}
  %0 = dlc.compress %x, %c {axis = 0 : i64} : tensor<2x3xf32>, tensor<3xi1> -> tensor<2x?xf32>
  return %0 : tensor<2x?xf32>
}

// -----

func.func @unique_inverse(%x: tensor<6xf32>) -> tensor<?xi64> {
  // expected-error @+1 {{index result dimension 0 must be 6, got 'tensor<?xi64>'}}
  %0:4 = dlc.unique %x {axis = 0 : i64, sorted = true} : (tensor<6xf32>) -> (tensor<?xf32>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>)
  return %0#1 : tensor<?xi64>
}

// -----

func.func @nms_bound(%b: tensor<1x6x4xf32>, %s: tensor<1x1x6xf32>, %m: tensor<1xi64>, %t: tensor<1xf32>) -> tensor<?x3xi64> {
  // expected-error @+1 {{max_boxes_bound must be in [0, number of boxes]}}
  %0 = dlc.non_max_suppression %b, %s, %m, %t, %t {center_point_box = false, max_boxes_bound = 7 : i64}
      : (tensor<1x6x4xf32>, tensor<1x1x6xf32>, tensor<1xi64>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x3xi64>
  return %0 : tensor<?x3xi64>
}

// -----

func.func @nms_boxes(%b: tensor<1x6x3xf32>, %s: tensor<1x1x6xf32>, %m: tensor<1xi64>, %t: tensor<1xf32>) -> tensor<?x3xi64> {
  // expected-error @+1 {{boxes must be [batches, boxes, 4] and scores [batches, classes, boxes]}}
  %0 = dlc.non_max_suppression %b, %s, %m, %t, %t {center_point_box = false, max_boxes_bound = 1 : i64}
      : (tensor<1x6x3xf32>, tensor<1x1x6xf32>, tensor<1xi64>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x3xi64>
  return %0 : tensor<?x3xi64>
}

// -----

func.func @nonzero_dynamic_rank(%x: tensor<?x3xf32>) -> tensor<3x?xi64> {
  // expected-error @+1 {{result dimension 0 must be 2, got 'tensor<3x?xi64>'}}
  %0 = dlc.nonzero %x : tensor<?x3xf32> -> tensor<3x?xi64>
  return %0 : tensor<3x?xi64>
}
