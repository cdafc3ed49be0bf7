// Verifier errors of dlc.batch_norm and dlc.softmax.
// RUN: dlc-opt %s -split-input-file -verify-diagnostics

func.func @batch_norm_rank(%x: tensor<8xf32>, %p: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'dlc.batch_norm' op input must have rank >= 2}}
  %0 = dlc.batch_norm %x, %p, %p, %p, %p {epsilon = 1.0e-05 : f32} : tensor<8xf32>, tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @batch_norm_param_size(%x: tensor<1x8x4x4xf32>, %p: tensor<4xf32>) -> tensor<1x8x4x4xf32> {
  // expected-error @+1 {{'dlc.batch_norm' op scale, bias, mean and variance must be [8] tensors of 'f32'}}
  %0 = dlc.batch_norm %x, %p, %p, %p, %p {epsilon = 1.0e-05 : f32} : tensor<1x8x4x4xf32>, tensor<4xf32>
  return %0 : tensor<1x8x4x4xf32>
}

// -----

func.func @batch_norm_param_rank(%x: tensor<1x8x4x4xf32>, %p: tensor<1x8xf32>) -> tensor<1x8x4x4xf32> {
  // expected-error @+1 {{'dlc.batch_norm' op scale, bias, mean and variance must be [8] tensors of 'f32'}}
  %0 = dlc.batch_norm %x, %p, %p, %p, %p {epsilon = 1.0e-05 : f32} : tensor<1x8x4x4xf32>, tensor<1x8xf32>
  return %0 : tensor<1x8x4x4xf32>
}

// -----

func.func @batch_norm_param_type(%x: tensor<1x8x4x4xf32>, %p: tensor<8xf16>) -> tensor<1x8x4x4xf32> {
  // expected-error @+1 {{'dlc.batch_norm' op scale, bias, mean and variance must be [8] tensors of 'f32'}}
  %0 = dlc.batch_norm %x, %p, %p, %p, %p {epsilon = 1.0e-05 : f32} : tensor<1x8x4x4xf32>, tensor<8xf16>
  return %0 : tensor<1x8x4x4xf32>
}

// -----

func.func @batch_norm_params_differ(%x: tensor<1x8x4x4xf32>, %p: tensor<8xf32>, %q: tensor<4xf32>) -> tensor<1x8x4x4xf32> {
  // expected-error @+1 {{'dlc.batch_norm' op failed to verify that all of {scale, bias, mean, variance} have same type}}
  %0 = "dlc.batch_norm"(%x, %p, %q, %p, %p) {epsilon = 1.0e-05 : f32}
      : (tensor<1x8x4x4xf32>, tensor<8xf32>, tensor<4xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<1x8x4x4xf32>
  return %0 : tensor<1x8x4x4xf32>
}

// -----

func.func @batch_norm_result(%x: tensor<1x8x4x4xf32>, %p: tensor<8xf32>) -> tensor<1x8x4x5xf32> {
  // expected-error @+1 {{'dlc.batch_norm' op failed to verify that all of {input, result} have same type}}
  %0 = "dlc.batch_norm"(%x, %p, %p, %p, %p) {epsilon = 1.0e-05 : f32}
      : (tensor<1x8x4x4xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<1x8x4x5xf32>
  return %0 : tensor<1x8x4x5xf32>
}

// -----

func.func @batch_norm_epsilon(%x: tensor<1x8x4x4xf32>, %p: tensor<8xf32>) -> tensor<1x8x4x4xf32> {
  // expected-error @+1 {{'dlc.batch_norm' op requires attribute 'epsilon'}}
  %0 = dlc.batch_norm %x, %p, %p, %p, %p : tensor<1x8x4x4xf32>, tensor<8xf32>
  return %0 : tensor<1x8x4x4xf32>
}

// -----

func.func @softmax_axis(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'dlc.softmax' op axis 2 out of range for rank 2}}
  %0 = dlc.softmax %x {axis = 2 : i64} : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Negative axes are normalized by the importer; the op takes none.
func.func @softmax_negative_axis(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'dlc.softmax' op axis -1 out of range for rank 2}}
  %0 = dlc.softmax %x {axis = -1 : i64} : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @softmax_trailing_axis(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'dlc.softmax' op axis 5 out of range for rank 2}}
  %0 = dlc.softmax %x {axis = 5 : i64, trailing} : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @softmax_scalar(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'dlc.softmax' op axis 0 out of range for rank 0}}
  %0 = dlc.softmax %x {axis = 0 : i64} : tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @softmax_missing_axis(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'dlc.softmax' op requires attribute 'axis'}}
  %0 = dlc.softmax %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @softmax_result(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{'dlc.softmax' op requires the same type for all operands and results}}
  %0 = "dlc.softmax"(%x) {axis = 1 : i64} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}
