// RUN: dlc-opt %s -split-input-file --dlc-check-batch-independence | FileCheck %s

// Models whose ops keep samples apart: the pass records each output's batch
// axis (-1: the output does not depend on the batch).

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#b = affine_map<(d0, d1, d2) -> (d2, d1)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>
// Attention-style: [1,S,H] collapsed to [S,H] (the batch is the outer part of
// the merged axis), a matmul over rows, expanded back, plus a bias.
// CHECK-LABEL: module attributes
// CHECK-SAME: dlc.output_batch_axes = array<i64: 0, -1>
module attributes {dlc.batch_dim = "N", dlc.input_batch_axes = array<i64: 0>,
                   dlc.declared_output_batch_axes = array<i64: 0, -1>} {
  func.func @main(%x: tensor<1x4x8xf32>) -> (tensor<1x4x2xf32>, tensor<2xf32>) {
    %w = arith.constant dense<1.0> : tensor<8x2xf32>
    %bias = arith.constant dense<0.5> : tensor<2xf32>
    %zero = arith.constant 0.0 : f32
    %rows = tensor.collapse_shape %x [[0, 1], [2]] : tensor<1x4x8xf32> into tensor<4x8xf32>
    %e = tensor.empty() : tensor<4x2xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x2xf32>) -> tensor<4x2xf32>
    %m = linalg.generic {indexing_maps = [#a, #b, #c],
                         iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%rows, %w : tensor<4x8xf32>, tensor<8x2xf32>) outs(%f : tensor<4x2xf32>) {
    ^bb0(%p: f32, %q: f32, %acc: f32):
      %t = arith.mulf %p, %q : f32
      %s = arith.addf %acc, %t : f32
      linalg.yield %s : f32
    } -> tensor<4x2xf32>
    %add = linalg.generic {indexing_maps = [#id2, #row, #id2],
                           iterator_types = ["parallel", "parallel"]}
        ins(%m, %bias : tensor<4x2xf32>, tensor<2xf32>) outs(%e : tensor<4x2xf32>) {
    ^bb0(%p: f32, %q: f32, %o: f32):
      %s = arith.addf %p, %q : f32
      linalg.yield %s : f32
    } -> tensor<4x2xf32>
    %y = tensor.expand_shape %add [[0, 1], [2]] output_shape [1, 4, 2] : tensor<4x2xf32> into tensor<1x4x2xf32>
    return %y, %bias : tensor<1x4x2xf32>, tensor<2xf32>
  }
}

// -----

// A convolution over a padded image; the batch loop is the conv's n.
// CHECK-LABEL: module attributes
// CHECK-SAME: dlc.output_batch_axes = array<i64: 0>
module attributes {dlc.batch_dim = "N", dlc.input_batch_axes = array<i64: 0>,
                   dlc.declared_output_batch_axes = array<i64: 0>} {
  func.func @main(%x: tensor<1x2x4x4xf32>) -> tensor<1x3x4x4xf32> {
    %w = arith.constant dense<1.0> : tensor<3x2x3x3xf32>
    %zero = arith.constant 0.0 : f32
    %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%i: index, %j: index, %k: index, %l: index):
      tensor.yield %zero : f32
    } : tensor<1x2x4x4xf32> to tensor<1x2x6x6xf32>
    %e = tensor.empty() : tensor<1x3x4x4xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
    %y = linalg.conv_2d_nchw_fchw ins(%p, %w : tensor<1x2x6x6xf32>, tensor<3x2x3x3xf32>)
        outs(%f : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
    return %y : tensor<1x3x4x4xf32>
  }
}

// -----

// A gather from a batched tensor that reads each sample's own part (the
// batch loop's index at the batch axis), and an embedding lookup whose table
// does not depend on the batch.
#o2 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: module attributes
// CHECK-SAME: dlc.output_batch_axes = array<i64: 0, 0>
module attributes {dlc.batch_dim = "N", dlc.input_batch_axes = array<i64: 0, 0>,
                   dlc.declared_output_batch_axes = array<i64: 0, 0>} {
  func.func @main(%x: tensor<1x4x8xf32>, %ids: tensor<1x4xindex>) -> (tensor<1x8xf32>, tensor<1x4xf32>) {
    %table = arith.constant dense<2.0> : tensor<10x4xf32>
    %c0 = arith.constant 0 : index
    %e = tensor.empty() : tensor<1x8xf32>
    %first = linalg.generic {indexing_maps = [#o2], iterator_types = ["parallel", "parallel"]}
        outs(%e : tensor<1x8xf32>) {
    ^bb0(%o: f32):
      %b = linalg.index 0 : index
      %h = linalg.index 1 : index
      %v = tensor.extract %x[%b, %c0, %h] : tensor<1x4x8xf32>
      linalg.yield %v : f32
    } -> tensor<1x8xf32>
    %e2 = tensor.empty() : tensor<1x4xf32>
    %emb = linalg.generic {indexing_maps = [#o2, #o2], iterator_types = ["parallel", "parallel"]}
        ins(%ids : tensor<1x4xindex>) outs(%e2 : tensor<1x4xf32>) {
    ^bb0(%i: index, %o: f32):
      %v = tensor.extract %table[%i, %c0] : tensor<10x4xf32>
      linalg.yield %v : f32
    } -> tensor<1x4xf32>
    return %first, %emb : tensor<1x8xf32>, tensor<1x4xf32>
  }
}

// -----

// [S, N, H] merged to [S, N*H] keeps the samples apart (the batch is the
// outer part of the merged axis); so do reshapes that add unit axes, wherever
// the batch of one sample lands among them.
// CHECK-LABEL: module attributes
// CHECK-SAME: dlc.output_batch_axes = array<i64: 1, 2>
module attributes {dlc.batch_dim = "N", dlc.input_batch_axes = array<i64: 1, 0>,
                   dlc.declared_output_batch_axes = array<i64: 1, 2>} {
  func.func @main(%x: tensor<3x1x4xf32>, %h: tensor<1x4xf32>) -> (tensor<3x4xf32>, tensor<3x1x1x4xf32>) {
    %y = tensor.collapse_shape %x [[0], [1, 2]] : tensor<3x1x4xf32> into tensor<3x4xf32>
    %u = tensor.expand_shape %h [[0, 1], [2]] output_shape [1, 1, 4] : tensor<1x4xf32> into tensor<1x1x4xf32>
    %c = tensor.concat dim(0) %u, %u, %u : (tensor<1x1x4xf32>, tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<3x1x4xf32>
    %z = tensor.expand_shape %c [[0], [1, 2], [3]] output_shape [3, 1, 1, 4] : tensor<3x1x4xf32> into tensor<3x1x1x4xf32>
    return %y, %z : tensor<3x4xf32>, tensor<3x1x1x4xf32>
  }
}

// -----

// Sequence-first ([S, N, H], batch axis 1): transposed to batch-first, sliced
// and concatenated along other axes with a tensor that does not depend on the
// batch (each sample gets its copy).
// CHECK-LABEL: module attributes
// CHECK-SAME: dlc.output_batch_axes = array<i64: 0>
module attributes {dlc.batch_dim = "N", dlc.input_batch_axes = array<i64: 1>,
                   dlc.declared_output_batch_axes = array<i64: 0>} {
  func.func @main(%x: tensor<3x1x4xf32>) -> tensor<1x3x6xf32> {
    %cls = arith.constant dense<1.0> : tensor<1x3x2xf32>
    %e = tensor.empty() : tensor<1x3x4xf32>
    %t = linalg.transpose ins(%x : tensor<3x1x4xf32>) outs(%e : tensor<1x3x4xf32>) permutation = [1, 0, 2]
    %s = tensor.extract_slice %t[0, 0, 0] [1, 3, 4] [1, 1, 1] : tensor<1x3x4xf32> to tensor<1x3x4xf32>
    %y = tensor.concat dim(2) %cls, %s : (tensor<1x3x2xf32>, tensor<1x3x4xf32>) -> tensor<1x3x6xf32>
    return %y : tensor<1x3x6xf32>
  }
}

// -----

// An output that grows with the batch but does not depend on the inputs
// (the same for every sample) takes the axis the import saw.
// CHECK-LABEL: module attributes
// CHECK-SAME: dlc.output_batch_axes = array<i64: 0, 0>
module attributes {dlc.batch_dim = "N", dlc.input_batch_axes = array<i64: 0>,
                   dlc.declared_output_batch_axes = array<i64: 0, 0>} {
  func.func @main(%x: tensor<1x2xf32>) -> (tensor<1x2xf32>, tensor<1x2xf32>) {
    %ones = arith.constant dense<1.0> : tensor<1x2xf32>
    return %x, %ones : tensor<1x2xf32>, tensor<1x2xf32>
  }
}

// -----

// Without the batch attributes (a static model) the pass does nothing.
// CHECK-LABEL: func.func @static
// CHECK-NOT: dlc.output_batch_axes
func.func @static(%x: tensor<3xf32>) -> tensor<3xf32> {
  return %x : tensor<3xf32>
}

// -----

// Hints settle the candidates a reshape leaves ([1, 4] to [1, 1, 4]: any of
// three unit axes) and are erased; a hint on a value that does not depend on
// the batch (an expanded constant) makes it batched, the same per sample.
// CHECK-LABEL: module attributes
// CHECK-SAME: dlc.output_batch_axes = array<i64: 1, 0>
// CHECK-NOT: dlc.batch_axis
// CHECK: return %expanded, %{{.+}} :
module attributes {dlc.batch_dim = "N", dlc.input_batch_axes = array<i64: 0>,
                   dlc.declared_output_batch_axes = array<i64: 1, 0>} {
  func.func @main(%x: tensor<1x4xf32>) -> (tensor<1x1x4xf32>, tensor<1x4xf32>) {
    %u = tensor.expand_shape %x [[0, 1], [2]] output_shape [1, 1, 4] : tensor<1x4xf32> into tensor<1x1x4xf32>
    %h = dlc.batch_axis %u axis 1 : tensor<1x1x4xf32>
    %c = arith.constant dense<1.0> : tensor<1x4xf32>
    %k = dlc.batch_axis %c axis 0 : tensor<1x4xf32>
    return %h, %k : tensor<1x1x4xf32>, tensor<1x4xf32>
  }
}

// -----

// A run-time index check reduces the whole call's indices, samples
// together, into one flag for dlc.report: it fails when any sample fails,
// so it does not mix samples' results.
#all = affine_map<(d0, d1) -> (d0, d1)>
#none = affine_map<(d0, d1) -> ()>
// CHECK-LABEL: module attributes
// CHECK-SAME: dlc.output_batch_axes = array<i64: 0>
module attributes {dlc.batch_dim = "N", dlc.input_batch_axes = array<i64: 0>,
                   dlc.declared_output_batch_axes = array<i64: 0>} {
  func.func @main(%i: tensor<1x3xi64>) -> tensor<1x3xi64> {
    %false = arith.constant false
    %e = tensor.empty() : tensor<i1>
    %f = linalg.fill ins(%false : i1) outs(%e : tensor<i1>) -> tensor<i1>
    %flag = linalg.generic {indexing_maps = [#all, #none],
                            iterator_types = ["reduction", "reduction"]}
        ins(%i : tensor<1x3xi64>) outs(%f : tensor<i1>) {
    ^bb0(%v: i64, %acc: i1):
      %c4 = arith.constant 4 : i64
      %bad = arith.cmpi sge, %v, %c4 : i64
      %or = arith.ori %acc, %bad : i1
      linalg.yield %or : i1
    } -> tensor<i1>
    %b = tensor.extract %flag[] : tensor<i1>
    dlc.report %b, "node 'g' (Gather): an index is outside [-4, 4)"
    return %i : tensor<1x3xi64>
  }
}
