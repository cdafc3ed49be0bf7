// RUN: dlc-opt %s -split-input-file -verify-diagnostics --dlc-check-batch-independence

// Each op here would make running one sample at a time differ from running
// the batch; the error is at the op (the ONNX node in imported models).

#in = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d1)>
module attributes {dlc.batch_dim = "N", dlc.input_batch_axes = array<i64: 0>} {
  func.func @main(%x: tensor<1x3xf32>) -> tensor<3xf32> {
    %e = tensor.empty() : tensor<3xf32>
    // expected-error @+1 {{dynamic batch 'N': 'linalg.generic' reduces over the batch axis; a dynamic-batch model runs one sample at a time. Fix the batch with --dim N=SIZE}}
    %s = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["reduction", "parallel"]}
        ins(%x : tensor<1x3xf32>) outs(%e : tensor<3xf32>) {
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      linalg.yield %t : f32
    } -> tensor<3xf32>
    return %s : tensor<3xf32>
  }
}

// -----

// A batched tensor broadcast along its batch axis (to rows that are not
// samples).
#bcast = affine_map<(d0, d1) -> (0, d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
module attributes {dlc.batch_dim = "N", dlc.input_batch_axes = array<i64: 0>} {
  func.func @main(%x: tensor<1x3xf32>) -> tensor<4x3xf32> {
    %e = tensor.empty() : tensor<4x3xf32>
    // expected-error @+1 {{'linalg.generic' indexes the batch axis of operand 0 with a constant or compound index (it broadcasts or shifts samples)}}
    %y = linalg.generic {indexing_maps = [#bcast, #id], iterator_types = ["parallel", "parallel"]}
        ins(%x : tensor<1x3xf32>) outs(%e : tensor<4x3xf32>) {
    ^bb0(%a: f32, %b: f32):
      linalg.yield %a : f32
    } -> tensor<4x3xf32>
    return %y : tensor<4x3xf32>
  }
}

// -----

// The position of a sample in the batch used as data.
#id = affine_map<(d0, d1) -> (d0, d1)>
module attributes {dlc.batch_dim = "N", dlc.input_batch_axes = array<i64: 0>} {
  func.func @main(%x: tensor<1x3xf32>) -> tensor<1x3xf32> {
    %e = tensor.empty() : tensor<1x3xf32>
    // expected-error @+1 {{'linalg.generic' uses the position of a sample in the batch}}
    %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%x : tensor<1x3xf32>) outs(%e : tensor<1x3xf32>) {
    ^bb0(%a: f32, %b: f32):
      %i = linalg.index 0 : index
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      %s = arith.addf %a, %f : f32
      linalg.yield %s : f32
    } -> tensor<1x3xf32>
    return %y : tensor<1x3xf32>
  }
}

// -----

// A gather that reads the first sample for every output row.
#o = affine_map<(d0, d1) -> (d0, d1)>
module attributes {dlc.batch_dim = "N", dlc.input_batch_axes = array<i64: 0>} {
  func.func @main(%x: tensor<1x3xf32>) -> tensor<1x3xf32> {
    %c0 = arith.constant 0 : index
    %e = tensor.empty() : tensor<1x3xf32>
    // expected-error @+1 {{'linalg.generic' reads a batched tensor inside its body other than at its own sample}}
    %y = linalg.generic {indexing_maps = [#o], iterator_types = ["parallel", "parallel"]}
        outs(%e : tensor<1x3xf32>) {
    ^bb0(%o: f32):
      %j = linalg.index 1 : index
      %v = tensor.extract %x[%c0, %j] : tensor<1x3xf32>
      linalg.yield %v : f32
    } -> tensor<1x3xf32>
    return %y : tensor<1x3xf32>
  }
}

// -----

// Sequence-first [S, N, H] flattened: samples interleave.
module attributes {dlc.batch_dim = "N", dlc.input_batch_axes = array<i64: 1>} {
  func.func @main(%x: tensor<3x1x4xf32>) -> tensor<12xf32> {
    // expected-error @+1 {{'tensor.collapse_shape' merges the batch axis into an outer axis (samples would interleave)}}
    %y = tensor.collapse_shape %x [[0, 1, 2]] : tensor<3x1x4xf32> into tensor<12xf32>
    return %y : tensor<12xf32>
  }
}

// -----

module attributes {dlc.batch_dim = "N", dlc.input_batch_axes = array<i64: 0>} {
  func.func @main(%x: tensor<1x3xf32>) -> tensor<3x3xf32> {
    %zero = arith.constant 0.0 : f32
    // expected-error @+1 {{'tensor.pad' pads the batch axis}}
    %p = tensor.pad %x low[1, 0] high[1, 0] {
    ^bb0(%i: index, %j: index):
      tensor.yield %zero : f32
    } : tensor<1x3xf32> to tensor<3x3xf32>
    return %p : tensor<3x3xf32>
  }
}

// -----

module attributes {dlc.batch_dim = "N", dlc.input_batch_axes = array<i64: 0>} {
  func.func @main(%x: tensor<1x3xf32>) -> tensor<3xf32> {
    // expected-error @+1 {{'tensor.extract_slice' drops the batch axis}}
    %s = tensor.extract_slice %x[0, 0] [1, 3] [1, 1] : tensor<1x3xf32> to tensor<3xf32>
    return %s : tensor<3xf32>
  }
}

// -----

module attributes {dlc.batch_dim = "N", dlc.input_batch_axes = array<i64: 0>} {
  func.func @main(%x: tensor<1x3xf32>) -> tensor<2x3xf32> {
    // expected-error @+1 {{'tensor.concat' concatenates along the batch axis}}
    %y = tensor.concat dim(0) %x, %x : (tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
    return %y : tensor<2x3xf32>
  }
}

// -----

// An op the pass does not know.
module attributes {dlc.batch_dim = "N", dlc.input_batch_axes = array<i64: 0>} {
  func.func @main(%x: tensor<1x3xf32>) -> f32 {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'tensor.extract' is not known to keep samples apart}}
    %v = tensor.extract %x[%c0, %c0] : tensor<1x3xf32>
    return %v : f32
  }
}

// -----

// The import saw the output grow along axis 1; the program has the batch on
// axis 0.
module attributes {dlc.batch_dim = "N", dlc.input_batch_axes = array<i64: 0>,
                   dlc.declared_output_batch_axes = array<i64: 1>} {
  func.func @main(%x: tensor<1x1xf32>) -> tensor<1x1xf32> {
    // expected-error @+1 {{dynamic batch 'N': output 0 grows along axis 1 when the batch grows, but its samples lie along axis 0; fix the batch with --dim N=SIZE}}
    return %x : tensor<1x1xf32>
  }
}

// -----

// A node output the import saw not grow with the batch (axis -1), though it
// depends on the batch: x[0:1] of a batch.
module attributes {dlc.batch_dim = "N", dlc.input_batch_axes = array<i64: 0>} {
  func.func @main(%x: tensor<1x3xf32>) -> tensor<1x3xf32> {
    // expected-error @+1 {{dynamic batch 'N': this node's output depends on the batch but does not grow with it (it mixes or selects samples)}}
    %h = dlc.batch_axis %x axis -1 : tensor<1x3xf32>
    return %h : tensor<1x3xf32>
  }
}

// -----

// The import saw the batch on axis 1; the program has it on axis 0.
module attributes {dlc.batch_dim = "N", dlc.input_batch_axes = array<i64: 0>} {
  func.func @main(%x: tensor<1x1xf32>) -> tensor<1x1xf32> {
    // expected-error @+1 {{dynamic batch 'N': this node's output grows along axis 1 with the batch, but its samples lie along axis 0}}
    %h = dlc.batch_axis %x axis 1 : tensor<1x1xf32>
    return %h : tensor<1x1xf32>
  }
}
