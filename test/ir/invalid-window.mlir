// Shape inference errors of dlc.conv and the pooling ops.
// RUN: dlc-opt %s -split-input-file -verify-diagnostics

func.func @conv_rank(%x: tensor<1x3x8x8xf32>, %w: tensor<8x3x3xf32>) -> tensor<1x8x6x6xf32> {
  // expected-error @+2 {{Conv: input [1,3,8,8] and weight [8,3,3] must have the same rank >= 3}}
  // expected-error @+1 {{'dlc.conv' op failed to infer returned types}}
  %0 = dlc.conv %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>,
                        dilations = array<i64: 1, 1>, group = 1 : i64}
      : (tensor<1x3x8x8xf32>, tensor<8x3x3xf32>) -> tensor<1x8x6x6xf32>
  return %0 : tensor<1x8x6x6xf32>
}

// -----

func.func @conv_rank_2d(%x: tensor<3x8xf32>, %w: tensor<8x3xf32>) -> tensor<3x8xf32> {
  // expected-error @+2 {{Conv: input [3,8] and weight [8,3] must have the same rank >= 3}}
  // expected-error @+1 {{'dlc.conv' op failed to infer returned types}}
  %0 = dlc.conv %x, %w {strides = array<i64>, pads = array<i64>,
                        dilations = array<i64>, group = 1 : i64}
      : (tensor<3x8xf32>, tensor<8x3xf32>) -> tensor<3x8xf32>
  return %0 : tensor<3x8xf32>
}

// -----

func.func @conv_channels(%x: tensor<1x3x8x8xf32>, %w: tensor<8x2x3x3xf32>) -> tensor<1x8x6x6xf32> {
  // expected-error @+2 {{Conv: input has 3 channels but weight [8,2,3,3] with group 1 expects 2}}
  // expected-error @+1 {{'dlc.conv' op failed to infer returned types}}
  %0 = dlc.conv %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>,
                        dilations = array<i64: 1, 1>, group = 1 : i64}
      : (tensor<1x3x8x8xf32>, tensor<8x2x3x3xf32>) -> tensor<1x8x6x6xf32>
  return %0 : tensor<1x8x6x6xf32>
}

// -----

// With group 4 the weight's second dimension is channels / group.
func.func @conv_group_channels(%x: tensor<1x4x8x8xf32>, %w: tensor<8x2x3x3xf32>) -> tensor<1x8x6x6xf32> {
  // expected-error @+2 {{Conv: input has 4 channels but weight [8,2,3,3] with group 4 expects 8}}
  // expected-error @+1 {{'dlc.conv' op failed to infer returned types}}
  %0 = dlc.conv %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>,
                        dilations = array<i64: 1, 1>, group = 4 : i64}
      : (tensor<1x4x8x8xf32>, tensor<8x2x3x3xf32>) -> tensor<1x8x6x6xf32>
  return %0 : tensor<1x8x6x6xf32>
}

// -----

// 6 filters cannot be split into 4 groups (checked before the channels).
func.func @conv_group_filters(%x: tensor<1x4x8x8xf32>, %w: tensor<6x1x3x3xf32>) -> tensor<1x6x6x6xf32> {
  // expected-error @+2 {{Conv: 6 output channels do not divide into 4 groups}}
  // expected-error @+1 {{'dlc.conv' op failed to infer returned types}}
  %0 = dlc.conv %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>,
                        dilations = array<i64: 1, 1>, group = 4 : i64}
      : (tensor<1x4x8x8xf32>, tensor<6x1x3x3xf32>) -> tensor<1x6x6x6xf32>
  return %0 : tensor<1x6x6x6xf32>
}

// -----

func.func @conv_group_zero(%x: tensor<1x3x8x8xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<1x8x6x6xf32> {
  // expected-error @+2 {{Conv: group must be >= 1, got 0}}
  // expected-error @+1 {{'dlc.conv' op failed to infer returned types}}
  %0 = dlc.conv %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>,
                        dilations = array<i64: 1, 1>, group = 0 : i64}
      : (tensor<1x3x8x8xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x6x6xf32>
  return %0 : tensor<1x8x6x6xf32>
}

// -----

func.func @conv_bias(%x: tensor<1x3x8x8xf32>, %w: tensor<8x3x3x3xf32>, %b: tensor<3xf32>) -> tensor<1x8x6x6xf32> {
  // expected-error @+2 {{Conv: bias must have shape [8]}}
  // expected-error @+1 {{'dlc.conv' op failed to infer returned types}}
  %0 = dlc.conv %x, %w, %b {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>,
                            dilations = array<i64: 1, 1>, group = 1 : i64}
      : (tensor<1x3x8x8xf32>, tensor<8x3x3x3xf32>, tensor<3xf32>) -> tensor<1x8x6x6xf32>
  return %0 : tensor<1x8x6x6xf32>
}

// -----

func.func @conv_attr_sizes(%x: tensor<1x3x8x8xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<1x8x6x6xf32> {
  // expected-error @+2 {{Conv: expected 2 strides/dilations and 4 pads for a 2-D window}}
  // expected-error @+1 {{'dlc.conv' op failed to infer returned types}}
  %0 = dlc.conv %x, %w {strides = array<i64: 1>, pads = array<i64: 0, 0, 0, 0>,
                        dilations = array<i64: 1, 1>, group = 1 : i64}
      : (tensor<1x3x8x8xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x6x6xf32>
  return %0 : tensor<1x8x6x6xf32>
}

// -----

func.func @conv_zero_stride(%x: tensor<1x3x8x8xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<1x8x6x6xf32> {
  // expected-error @+2 {{Conv: strides and dilations must be >= 1 and pads >= 0}}
  // expected-error @+1 {{'dlc.conv' op failed to infer returned types}}
  %0 = dlc.conv %x, %w {strides = array<i64: 0, 1>, pads = array<i64: 0, 0, 0, 0>,
                        dilations = array<i64: 1, 1>, group = 1 : i64}
      : (tensor<1x3x8x8xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x6x6xf32>
  return %0 : tensor<1x8x6x6xf32>
}

// -----

func.func @conv_negative_pad(%x: tensor<1x3x8x8xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<1x8x6x6xf32> {
  // expected-error @+2 {{Conv: strides and dilations must be >= 1 and pads >= 0}}
  // expected-error @+1 {{'dlc.conv' op failed to infer returned types}}
  %0 = dlc.conv %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, -1, 0>,
                        dilations = array<i64: 1, 1>, group = 1 : i64}
      : (tensor<1x3x8x8xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x6x6xf32>
  return %0 : tensor<1x8x6x6xf32>
}

// -----

func.func @conv_kernel_too_large(%x: tensor<1x3x2x2xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<1x8x1x1xf32> {
  // expected-error @+2 {{Conv: kernel larger than padded input}}
  // expected-error @+1 {{'dlc.conv' op failed to infer returned types}}
  %0 = dlc.conv %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>,
                        dilations = array<i64: 1, 1>, group = 1 : i64}
      : (tensor<1x3x2x2xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x1x1xf32>
  return %0 : tensor<1x8x1x1xf32>
}

// -----

// Dilation makes the kernel span 5 elements.
func.func @conv_dilated_too_large(%x: tensor<1x3x4x4xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<1x8x1x1xf32> {
  // expected-error @+2 {{Conv: kernel larger than padded input}}
  // expected-error @+1 {{'dlc.conv' op failed to infer returned types}}
  %0 = dlc.conv %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>,
                        dilations = array<i64: 2, 2>, group = 1 : i64}
      : (tensor<1x3x4x4xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x1x1xf32>
  return %0 : tensor<1x8x1x1xf32>
}

// -----

func.func @conv_result(%x: tensor<1x3x8x8xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<1x8x8x8xf32> {
  // expected-error @+2 {{'dlc.conv' op inferred type(s) 'tensor<1x8x6x6xf32>' are incompatible with return type(s) of operation 'tensor<1x8x8x8xf32>'}}
  // expected-error @+1 {{'dlc.conv' op failed to infer returned types}}
  %0 = dlc.conv %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>,
                        dilations = array<i64: 1, 1>, group = 1 : i64}
      : (tensor<1x3x8x8xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x8x8xf32>
  return %0 : tensor<1x8x8x8xf32>
}

// -----

func.func @max_pool_pad_begin(%x: tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32> {
  // expected-error @+2 {{MaxPool: pads must be smaller than the kernel}}
  // expected-error @+1 {{'dlc.max_pool' op failed to infer returned types}}
  %0 = dlc.max_pool %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 1, 1>,
                        pads = array<i64: 2, 0, 0, 0>, dilations = array<i64: 1, 1>}
      : tensor<1x3x4x4xf32> -> tensor<1x3x4x4xf32>
  return %0 : tensor<1x3x4x4xf32>
}

// -----

func.func @avg_pool_pad_end(%x: tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32> {
  // expected-error @+2 {{AveragePool: pads must be smaller than the kernel}}
  // expected-error @+1 {{'dlc.avg_pool' op failed to infer returned types}}
  %0 = dlc.avg_pool %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 1, 1>,
                        pads = array<i64: 1, 1, 1, 3>, dilations = array<i64: 1, 1>}
      : tensor<1x3x4x4xf32> -> tensor<1x3x4x4xf32>
  return %0 : tensor<1x3x4x4xf32>
}

// -----

func.func @pool_kernel_rank(%x: tensor<1x3x4x4xf32>) -> tensor<1x3x4xf32> {
  // expected-error @+2 {{MaxPool: input [1,3,4,4] does not match kernel_shape of rank 1}}
  // expected-error @+1 {{'dlc.max_pool' op failed to infer returned types}}
  %0 = dlc.max_pool %x {kernel_shape = array<i64: 2>, strides = array<i64: 1>,
                        pads = array<i64: 0, 0>, dilations = array<i64: 1>}
      : tensor<1x3x4x4xf32> -> tensor<1x3x4xf32>
  return %0 : tensor<1x3x4xf32>
}

// -----

func.func @pool_input_rank(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+2 {{AveragePool: input [4,4] does not match kernel_shape of rank 2}}
  // expected-error @+1 {{'dlc.avg_pool' op failed to infer returned types}}
  %0 = dlc.avg_pool %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 1, 1>,
                        pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>}
      : tensor<4x4xf32> -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @pool_attr_sizes(%x: tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32> {
  // expected-error @+2 {{MaxPool: expected 2 strides/dilations and 4 pads for a 2-D window}}
  // expected-error @+1 {{'dlc.max_pool' op failed to infer returned types}}
  %0 = dlc.max_pool %x {kernel_shape = array<i64: 1, 1>, strides = array<i64: 1, 1>,
                        pads = array<i64: 0, 0>, dilations = array<i64: 1, 1>}
      : tensor<1x3x4x4xf32> -> tensor<1x3x4x4xf32>
  return %0 : tensor<1x3x4x4xf32>
}

// -----

func.func @pool_kernel_too_large(%x: tensor<1x3x4x4xf32>) -> tensor<1x3x1x1xf32> {
  // expected-error @+2 {{MaxPool: kernel larger than padded input}}
  // expected-error @+1 {{'dlc.max_pool' op failed to infer returned types}}
  %0 = dlc.max_pool %x {kernel_shape = array<i64: 5, 5>, strides = array<i64: 1, 1>,
                        pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>}
      : tensor<1x3x4x4xf32> -> tensor<1x3x1x1xf32>
  return %0 : tensor<1x3x1x1xf32>
}

// -----

func.func @pool_result(%x: tensor<1x3x5x5xf32>) -> tensor<1x3x3x3xf32> {
  // Without ceil_mode the output is 2x2.
  // expected-error @+2 {{'dlc.max_pool' op inferred type(s) 'tensor<1x3x2x2xf32>' are incompatible with return type(s) of operation 'tensor<1x3x3x3xf32>'}}
  // expected-error @+1 {{'dlc.max_pool' op failed to infer returned types}}
  %0 = dlc.max_pool %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>,
                        pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>}
      : tensor<1x3x5x5xf32> -> tensor<1x3x3x3xf32>
  return %0 : tensor<1x3x3x3xf32>
}

// -----

func.func @global_avg_pool_rank(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  // expected-error @+2 {{GlobalAveragePool: input rank must be >= 3}}
  // expected-error @+1 {{'dlc.global_avg_pool' op failed to infer returned types}}
  %0 = dlc.global_avg_pool %x : tensor<3x4xf32> -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}
