// Verifier and shape-inference errors of the reductions and data-movement
// ops added with the ONNX op families (round trips in tensor-ops.mlir).
// RUN: dlc-opt %s -split-input-file -verify-diagnostics

func.func @reduce_unknown_kind(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @+2 {{Reduce: unknown kind 'median'}}
  // expected-error @+1 {{'dlc.reduce' op failed to infer returned types}}
  %0 = dlc.reduce %x {kind = "median", axes = array<i64: 1>, keepdims = false} : tensor<2x3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// Axes are non-negative: the importer normalizes ONNX's negative ones.
func.func @reduce_negative_axis(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @+2 {{Reduce: axis -1 out of range for rank 2}}
  // expected-error @+1 {{'dlc.reduce' op failed to infer returned types}}
  %0 = dlc.reduce %x {kind = "sum", axes = array<i64: -1>, keepdims = false} : tensor<2x3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @reduce_result_shape(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @+2 {{'dlc.reduce' op inferred type(s) 'tensor<2x1xf32>' are incompatible with return type(s) of operation 'tensor<2xf32>'}}
  // expected-error @+1 {{'dlc.reduce' op failed to infer returned types}}
  %0 = dlc.reduce %x {kind = "sum", axes = array<i64: 1>, keepdims = true} : tensor<2x3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @arg_reduce_axis(%x: tensor<2x3xf32>) -> tensor<2xi64> {
  // expected-error @+2 {{ArgMax/ArgMin: axis 2 out of range for rank 2}}
  // expected-error @+1 {{'dlc.arg_reduce' op failed to infer returned types}}
  %0 = dlc.arg_reduce %x {is_max = true, axis = 2 : i64, keepdims = false, select_last_index = false} : tensor<2x3xf32> -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----

// The indices are always i64.
func.func @arg_reduce_i32(%x: tensor<2x3xf32>) -> tensor<2xi32> {
  // expected-error @+2 {{'dlc.arg_reduce' op inferred type(s) 'tensor<2xi64>' are incompatible with return type(s) of operation 'tensor<2xi32>'}}
  // expected-error @+1 {{'dlc.arg_reduce' op failed to infer returned types}}
  %0 = dlc.arg_reduce %x {is_max = true, axis = 1 : i64, keepdims = false, select_last_index = false} : tensor<2x3xf32> -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

// Four elements from index 1 with step 1 end at index 4 of a 4-long dim.
func.func @slice_past_end(%x: tensor<4x5xf32>) -> tensor<4x5xf32> {
  // expected-error @+1 {{'dlc.slice' op dimension 0 reads outside the input}}
  %0 = dlc.slice %x {starts = array<i64: 1, 0>, steps = array<i64: 1, 1>} : tensor<4x5xf32> -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

// Backwards from 2 with step -2, the third element would be index -2.
func.func @slice_negative_step_before_start(%x: tensor<4x5xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'dlc.slice' op dimension 1 reads outside the input}}
  %0 = dlc.slice %x {starts = array<i64: 0, 2>, steps = array<i64: 1, -2>} : tensor<4x5xf32> -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @slice_start_out_of_range(%x: tensor<4xf32>) -> tensor<1xf32> {
  // expected-error @+1 {{'dlc.slice' op dimension 0 reads outside the input}}
  %0 = dlc.slice %x {starts = array<i64: 4>, steps = array<i64: -1>} : tensor<4xf32> -> tensor<1xf32>
  return %0 : tensor<1xf32>
}

// -----

func.func @slice_zero_step(%x: tensor<4xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'dlc.slice' op step of dimension 0 is zero}}
  %0 = dlc.slice %x {starts = array<i64: 0>, steps = array<i64: 0>} : tensor<4xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @slice_entries(%x: tensor<4x5xf32>) -> tensor<2x5xf32> {
  // expected-error @+1 {{'dlc.slice' op starts and steps need one entry per dimension}}
  %0 = dlc.slice %x {starts = array<i64: 0>, steps = array<i64: 2>} : tensor<4x5xf32> -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

func.func @gather_float_indices(%x: tensor<5x4xf32>, %i: tensor<3xf32>) -> tensor<3x4xf32> {
  // expected-error @+2 {{Gather: indices must be integers}}
  // expected-error @+1 {{'dlc.gather' op failed to infer returned types}}
  %0 = dlc.gather %x, %i {axis = 0 : i64} : tensor<5x4xf32>, tensor<3xf32> -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @gather_axis(%x: tensor<5x4xf32>, %i: tensor<3xi64>) -> tensor<3x4xf32> {
  // expected-error @+2 {{Gather: axis 2 out of range for rank 2}}
  // expected-error @+1 {{'dlc.gather' op failed to infer returned types}}
  %0 = dlc.gather %x, %i {axis = 2 : i64} : tensor<5x4xf32>, tensor<3xi64> -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// 3 does not broadcast to 4.
func.func @expand_not_broadcastable(%x: tensor<3x1xf32>) -> tensor<2x4x4xf32> {
  // expected-error @+1 {{'dlc.expand' op input does not broadcast to the result shape}}
  %0 = dlc.expand %x : tensor<3x1xf32> -> tensor<2x4x4xf32>
  return %0 : tensor<2x4x4xf32>
}

// -----

// Expand only grows: the result is the broadcast shape, never smaller.
func.func @expand_shrinks(%x: tensor<3x4xf32>) -> tensor<1x4xf32> {
  // expected-error @+1 {{'dlc.expand' op input does not broadcast to the result shape}}
  %0 = dlc.expand %x : tensor<3x4xf32> -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func @tile_not_multiple(%x: tensor<2x3xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'dlc.tile' op result dimension 1 is not a multiple of the input's}}
  %0 = dlc.tile %x : tensor<2x3xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @tile_rank(%x: tensor<2x3xf32>) -> tensor<2x2x3xf32> {
  // expected-error @+1 {{'dlc.tile' op rank must not change}}
  %0 = dlc.tile %x : tensor<2x3xf32> -> tensor<2x2x3xf32>
  return %0 : tensor<2x2x3xf32>
}

// -----

// 2 + 0 + 1 = 3, not 4.
func.func @pad_mismatch(%x: tensor<2x2xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'dlc.pad' op pads of dimension 1 do not match the result}}
  %0 = dlc.pad %x {pads = array<i64: 0, 0, 0, 1>, value = 0.0 : f64} : tensor<2x2xf32> -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// Negative pads (ONNX cropping) are not dlc.pad's.
func.func @pad_negative(%x: tensor<4xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'dlc.pad' op pads of dimension 0 do not match the result}}
  %0 = dlc.pad %x {pads = array<i64: -1, 0>, value = 0.0 : f64} : tensor<4xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @pad_entries(%x: tensor<2x2xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'dlc.pad' op pads need two entries per dimension}}
  %0 = dlc.pad %x {pads = array<i64: 1, 1>, value = 0.0 : f64} : tensor<2x2xf32> -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @det_not_square(%x: tensor<2x3xf32>) -> tensor<f32> {
  // expected-error @+1 {{input must be static square matrices [..., M, M], got 'tensor<2x3xf32>'}}
  %0 = dlc.det %x : tensor<2x3xf32> -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @det_result(%x: tensor<4x2x2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{result must have the input's leading dimensions and element type}}
  %0 = dlc.det %x : tensor<4x2x2xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @roi_align_mode(%x: tensor<1x1x4x4xf32>, %r: tensor<2x4xf32>, %i: tensor<2xi64>) -> tensor<2x1x2x2xf32> {
  // expected-error @+1 {{mode must be avg or max}}
  %0 = dlc.roi_align %x, %r, %i {mode = "min", sampling_ratio = 2 : i64, spatial_scale = 1.0 : f64, half_pixel = true}
      : (tensor<1x1x4x4xf32>, tensor<2x4xf32>, tensor<2xi64>) -> tensor<2x1x2x2xf32>
  return %0 : tensor<2x1x2x2xf32>
}

// -----

func.func @roi_align_rois(%x: tensor<1x1x4x4xf32>, %r: tensor<2x5xf32>, %i: tensor<2xi64>) -> tensor<2x1x2x2xf32> {
  // expected-error @+1 {{expects input [N, C, H, W], rois [R, 4] and i64 batch_indices [R]}}
  %0 = dlc.roi_align %x, %r, %i {mode = "avg", sampling_ratio = 2 : i64, spatial_scale = 1.0 : f64, half_pixel = true}
      : (tensor<1x1x4x4xf32>, tensor<2x5xf32>, tensor<2xi64>) -> tensor<2x1x2x2xf32>
  return %0 : tensor<2x1x2x2xf32>
}

// -----

// dlc.check_indices: one bound, or one per position along the indices'
// last dimension.
func.func @check_indices_bounds(%i: tensor<5x2xi64>, %n: tensor<3xi64>) -> tensor<5x2xi64> {
  // expected-error @+1 {{'dlc.check_indices' op bounds must have one element or one per position along the indices' last dimension, got 'tensor<3xi64>' for 'tensor<5x2xi64>'}}
  %0 = dlc.check_indices %i, %n {op_type = "GatherND"} : tensor<5x2xi64>, tensor<3xi64>
  return %0 : tensor<5x2xi64>
}

// -----

func.func @check_indices_float(%i: tensor<5x2xf32>, %n: tensor<2xi64>) -> tensor<5x2xf32> {
  // expected-error @+1 {{'dlc.check_indices' op needs integer indices and int64 bounds, got 'tensor<5x2xf32>' and 'tensor<2xi64>'}}
  %0 = dlc.check_indices %i, %n {op_type = "GatherND"} : tensor<5x2xf32>, tensor<2xi64>
  return %0 : tensor<5x2xf32>
}
