// RUN: dlc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(dlc-fuse-elementwise))' | FileCheck %s

#id = affine_map<(d0) -> (d0)>

// A single-use producer fuses into its consumer: one generic, add then relu.
// CHECK-LABEL: func.func @single_use
// CHECK:         linalg.generic
// CHECK:           arith.addf
// CHECK:           arith.maximumf
// CHECK-NOT:     linalg.generic
// CHECK:         return
func.func @single_use(%a: tensor<64xf32>, %b: tensor<64xf32>) -> tensor<64xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%a, %b : tensor<64xf32>, tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%0 : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %cst : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  return %1 : tensor<64xf32>
}

// -----

// Residual chain: each block's result feeds the next block twice (the
// multiply, standing in for a convolution, and the skip connection).
// Fusing a multi-use producer would copy its whole computation into each
// user, so the additions would grow quadratically; with the guard there is
// one generic and one addition per block.
// CHECK-LABEL: func.func @residual_chain
// CHECK-COUNT-3: arith.addf
// CHECK-NOT:     arith.addf
// CHECK:         return
#id = affine_map<(d0) -> (d0)>
func.func @residual_chain(%b0: tensor<64xf32>, %w: tensor<64xf32>) -> tensor<64xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64xf32>
  %t1 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%b0, %w : tensor<64xf32>, tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    linalg.yield %m : f32
  } -> tensor<64xf32>
  %b1 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%t1, %b0 : tensor<64xf32>, tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.addf %p, %q : f32
    %r = arith.maximumf %s, %cst : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %t2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%b1, %w : tensor<64xf32>, tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    linalg.yield %m : f32
  } -> tensor<64xf32>
  %b2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%t2, %b1 : tensor<64xf32>, tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.addf %p, %q : f32
    %r = arith.maximumf %s, %cst : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %t3 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%b2, %w : tensor<64xf32>, tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    linalg.yield %m : f32
  } -> tensor<64xf32>
  %b3 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%t3, %b2 : tensor<64xf32>, tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.addf %p, %q : f32
    %r = arith.maximumf %s, %cst : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  return %b3 : tensor<64xf32>
}

// -----

// A producer read through a reusing map (A[m, k] of a matmul is read for
// every n) is not fused: its body would run once per reuse, and the
// consumer would stop being a contraction. GELU-then-matmul stays two ops.
// CHECK-LABEL: func.func @no_fusion_into_contraction
// CHECK:         linalg.generic
// CHECK:           math.erf
// CHECK:         linalg.generic
// CHECK-NOT:       math.erf
// CHECK:           arith.mulf
// CHECK:           arith.addf
#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#b = affine_map<(d0, d1, d2) -> (d2, d1)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>
#e = affine_map<(d0, d1) -> (d0, d1)>
func.func @no_fusion_into_contraction(%x: tensor<8x16xf32>, %w: tensor<16x4xf32>, %acc: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %g = linalg.generic {indexing_maps = [#e, #e], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%in: f32, %o: f32):
    %r = math.erf %in : f32
    linalg.yield %r : f32
  } -> tensor<8x16xf32>
  %0 = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%g, %w : tensor<8x16xf32>, tensor<16x4xf32>) outs(%acc : tensor<8x4xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %m = arith.mulf %in, %in2 : f32
    %s = arith.addf %out, %m : f32
    linalg.yield %s : f32
  } -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

// A fusion is not made past max-body-ops (here 4; a body counts its yield):
// the ReLU and the negation fuse (2 + 2 ops), the addition then cannot join
// them (2 + 3).
// RUN: dlc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(dlc-fuse-elementwise{max-body-ops=4}))' | FileCheck %s --check-prefix=LIMIT
// LIMIT-LABEL: func.func @chain
// LIMIT:         linalg.generic
// LIMIT:           arith.addf
// LIMIT:         linalg.generic
// LIMIT:           arith.maximumf
// LIMIT-NEXT:      arith.negf
// LIMIT-NOT:     linalg.generic
// CHECK-LABEL: func.func @chain
// CHECK:         linalg.generic
// CHECK:           arith.addf
// CHECK-NEXT:      arith.maximumf
// CHECK-NEXT:      arith.negf
// CHECK-NOT:     linalg.generic
#id = affine_map<(d0) -> (d0)>
func.func @chain(%a: tensor<64xf32>, %b: tensor<64xf32>) -> tensor<64xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%a, %b : tensor<64xf32>, tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%0 : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %cst : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%1 : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  } -> tensor<64xf32>
  return %2 : tensor<64xf32>
}

// -----

// A grouped convolution works in its [N, G, F/G, OH, OW] form: the bias
// broadcast that enters it through an expand and the ReLU that reads it
// through a collapse take that form (so that tiling fuses both into its
// tiles); the collapse moves after the ReLU.
// LIMIT-LABEL: func.func @grouped_conv_form
// CHECK-LABEL: func.func @grouped_conv_form
// CHECK:         %[[BIAS:.+]] = linalg.generic
// CHECK-SAME:      outs(%{{.+}} : tensor<1x2x8x7x7xf32>)
// CHECK:         %[[CONV:.+]] = linalg.conv_2d_ngchw_gfchw
// CHECK-SAME:      outs(%[[BIAS]] : tensor<1x2x8x7x7xf32>)
// CHECK:         %[[RELU:.+]] = linalg.generic
// CHECK-SAME:      ins(%[[CONV]] : tensor<1x2x8x7x7xf32>)
// CHECK:           arith.maximumf
// CHECK:         tensor.collapse_shape %[[RELU]] {{\[\[}}0], [1, 2], [3], [4]] : tensor<1x2x8x7x7xf32> into tensor<1x16x7x7xf32>
// An expand that feeds something else and a collapse of another op keep
// their ops in the collapsed form.
// CHECK-LABEL: func.func @not_grouped_conv
// CHECK:         linalg.generic
// CHECK-SAME:      outs(%{{.+}} : tensor<1x16x7x7xf32>)
// CHECK:         tensor.expand_shape
// CHECK:         tensor.collapse_shape
// CHECK:         linalg.generic
// CHECK-SAME:      outs(%{{.+}} : tensor<1x16x7x7xf32>)
#bias = affine_map<(d0, d1, d2, d3) -> (d1)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @grouped_conv_form(%x: tensor<1x2x8x9x9xf32>, %w: tensor<2x8x8x3x3xf32>, %b: tensor<16xf32>) -> tensor<1x16x7x7xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x7x7xf32>
  %0 = linalg.generic {indexing_maps = [#bias, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : tensor<16xf32>) outs(%e : tensor<1x16x7x7xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  } -> tensor<1x16x7x7xf32>
  %acc = tensor.expand_shape %0 [[0], [1, 2], [3], [4]] output_shape [1, 2, 8, 7, 7] : tensor<1x16x7x7xf32> into tensor<1x2x8x7x7xf32>
  %1 = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x2x8x9x9xf32>, tensor<2x8x8x3x3xf32>) outs(%acc : tensor<1x2x8x7x7xf32>) -> tensor<1x2x8x7x7xf32>
  %2 = tensor.collapse_shape %1 [[0], [1, 2], [3], [4]] : tensor<1x2x8x7x7xf32> into tensor<1x16x7x7xf32>
  %3 = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%2 : tensor<1x16x7x7xf32>) outs(%e : tensor<1x16x7x7xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.maximumf %v, %cst : f32
    linalg.yield %r : f32
  } -> tensor<1x16x7x7xf32>
  return %3 : tensor<1x16x7x7xf32>
}

func.func @not_grouped_conv(%b: tensor<16xf32>, %y: tensor<1x2x8x7x7xf32>) -> (tensor<1x2x8x7x7xf32>, tensor<1x16x7x7xf32>) {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x7x7xf32>
  %0 = linalg.generic {indexing_maps = [#bias, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : tensor<16xf32>) outs(%e : tensor<1x16x7x7xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  } -> tensor<1x16x7x7xf32>
  %1 = tensor.expand_shape %0 [[0], [1, 2], [3], [4]] output_shape [1, 2, 8, 7, 7] : tensor<1x16x7x7xf32> into tensor<1x2x8x7x7xf32>
  %2 = tensor.collapse_shape %y [[0], [1, 2], [3], [4]] : tensor<1x2x8x7x7xf32> into tensor<1x16x7x7xf32>
  %3 = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%2 : tensor<1x16x7x7xf32>) outs(%e : tensor<1x16x7x7xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.maximumf %v, %cst : f32
    linalg.yield %r : f32
  } -> tensor<1x16x7x7xf32>
  return %1, %3 : tensor<1x2x8x7x7xf32>, tensor<1x16x7x7xf32>
}
