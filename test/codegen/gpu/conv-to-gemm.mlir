// RUN: dlc-opt %s -split-input-file --dlc-gpu-conv-to-gemm --canonicalize --cse | FileCheck %s
// RUN: dlc-opt %s -split-input-file --dlc-gpu-conv-to-gemm="image-pixel-tile=0" --canonicalize --cse | FileCheck %s --check-prefix=NOFLAT

// A padded 3x3 convolution: the weights become [C*KH*KW, F] = [72, 16], the
// input an im2col generic over the unpadded input (the zero border folded
// into its bounds checks), the convolution a contraction over (n, f, p, k);
// the bias and the ReLU around it are flattened to [1, 16, 100] pixels.
// CHECK-LABEL: func.func @conv3x3
// CHECK-DAG:     %[[W:.+]] = arith.constant dense<5.000000e-01> : tensor<72x16xf32>
// CHECK-NOT:     tensor.pad
// CHECK:         %[[BIAS:.+]] = linalg.generic {{.*}} outs(%{{.+}} : tensor<1x16x100xf32>)
// CHECK:         %[[COL:.+]] = linalg.generic {{.*}} outs(%{{.+}} : tensor<1x72x100xf32>)
// CHECK:           arith.cmpi ult
// CHECK:           tensor.extract %arg0
// CHECK:           arith.select
// CHECK:         %[[GEMM:.+]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[W]], %[[COL]] : tensor<72x16xf32>, tensor<1x72x100xf32>) outs(%[[BIAS]] : tensor<1x16x100xf32>)
// CHECK:         %[[RELU:.+]] = linalg.generic {{.*}} ins(%[[GEMM]] : tensor<1x16x100xf32>)
// CHECK:           arith.maximumf
// CHECK:         tensor.expand_shape %[[RELU]] {{\[\[}}0], [1], [2, 3]] output_shape [1, 16, 10, 10]
func.func @conv3x3(%x: tensor<1x8x10x10xf32>, %b: tensor<16xf32>) -> tensor<1x16x10x10xf32> {
  %w = arith.constant dense<0.5> : tensor<16x8x3x3xf32>
  %zero = arith.constant 0.0 : f32
  %padded = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x8x10x10xf32> to tensor<1x8x12x12xf32>
  %e = tensor.empty() : tensor<1x16x10x10xf32>
  %init = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b : tensor<16xf32>) outs(%e : tensor<1x16x10x10xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<1x16x10x10xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%padded, %w : tensor<1x8x12x12xf32>, tensor<16x8x3x3xf32>) outs(%init : tensor<1x16x10x10xf32>) -> tensor<1x16x10x10xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%y : tensor<1x16x10x10xf32>) outs(%e : tensor<1x16x10x10xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x16x10x10xf32>
  return %r : tensor<1x16x10x10xf32>
}

// -----

// A 1x1 unit-stride convolution reads its input as [N, C, H*W] directly.
// CHECK-LABEL: func.func @pointwise
// CHECK:         %[[X:.+]] = tensor.collapse_shape %arg0 {{\[\[}}0], [1], [2, 3]] : tensor<1x8x10x10xf32> into tensor<1x8x100xf32>
// CHECK:         linalg.generic {{.*}} ins(%{{.+}}, %[[X]] : tensor<8x16xf32>, tensor<1x8x100xf32>)
func.func @pointwise(%x: tensor<1x8x10x10xf32>) -> tensor<1x16x10x10xf32> {
  %w = arith.constant dense<0.5> : tensor<16x8x1x1xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x10x10xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x10x10xf32>) -> tensor<1x16x10x10xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x8x10x10xf32>, tensor<16x8x1x1xf32>) outs(%f : tensor<1x16x10x10xf32>) -> tensor<1x16x10x10xf32>
  return %y : tensor<1x16x10x10xf32>
}

// -----

// The weights are re-laid at compile time: w[f, c, kh, kw] = 1000 f + 100 c
// + 10 kh + kw becomes w'[(c, kh, kw), f]; row k = 1 (c 0, kh 0, kw 1) is
// [1, 1001] and row 2 (kw 2) [2, 1002].
// (The blob: a 4-byte alignment header, then 0, 1000, 1, 1001, 2, 1002.)
// CHECK-LABEL: func.func @relaid
// CHECK:         arith.constant dense_resource<dlc_gemm_weights> : tensor<12x2xf32>
// CHECK:       dlc_gemm_weights: "0x40000000{{0+}}7A440000803F00407A440000004000807A44
func.func @relaid(%x: tensor<1x2x4x5xf32>) -> tensor<1x2x2x2xf32> {
  %w = arith.constant dense<[[[[0.0, 1.0, 2.0], [10.0, 11.0, 12.0]], [[100.0, 101.0, 102.0], [110.0, 111.0, 112.0]]],
                             [[[1000.0, 1001.0, 1002.0], [1010.0, 1011.0, 1012.0]], [[1100.0, 1101.0, 1102.0], [1110.0, 1111.0, 1112.0]]]]> : tensor<2x2x2x3xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x2x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<1x2x4x5xf32>, tensor<2x2x2x3xf32>) outs(%f : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %y : tensor<1x2x2x2xf32>
}

// -----

// A batch of 2 images of 7 x 7 output pixels (49, which 64 does not
// divide): one GEMM over the batch's 98 pixel columns, from zero (the
// im2col is [K, N * P]); one elementwise op writes [N, F, P] from the
// GEMM's [F, N, P], with the bias broadcast and the ReLU fused into it.
// CHECK-LABEL: func.func @batched
// CHECK:         %[[COL:.+]] = linalg.generic {{.*}} outs(%{{.+}} : tensor<72x98xf32>)
// CHECK:           arith.divui %{{.+}}, %c49
// CHECK:           arith.remui %{{.+}}, %c49
// CHECK:           tensor.extract %arg0
// CHECK:         %[[ZERO:.+]] = linalg.fill {{.*}} -> tensor<16x98xf32>
// CHECK:         %[[GEMM:.+]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{.+}}, %[[COL]] : tensor<72x16xf32>, tensor<72x98xf32>) outs(%[[ZERO]] : tensor<16x98xf32>)
// CHECK:         %[[FNP:.+]] = tensor.expand_shape %[[GEMM]] {{\[\[}}0], [1, 2]] output_shape [16, 2, 49]
// CHECK:         %[[Y:.+]] = linalg.generic {{.*}} ins(%[[FNP]], %arg1 : tensor<16x2x49xf32>, tensor<16xf32>) outs(%{{.+}} : tensor<2x16x49xf32>)
// CHECK:           arith.addf
// CHECK:           arith.maximumf
// CHECK-NOT:     linalg.generic
// CHECK:         tensor.expand_shape %[[Y]] {{\[\[}}0], [1], [2, 3]] output_shape [2, 16, 7, 7]
// NOFLAT-LABEL: func.func @batched
// NOFLAT:         linalg.generic {{.*}} outs(%{{.+}} : tensor<2x72x49xf32>)
// NOFLAT-NOT:     linalg.fill
func.func @batched(%x: tensor<2x8x7x7xf32>, %b: tensor<16xf32>) -> tensor<2x16x7x7xf32> {
  %w = arith.constant dense<0.5> : tensor<16x8x3x3xf32>
  %zero = arith.constant 0.0 : f32
  %padded = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<2x8x7x7xf32> to tensor<2x8x9x9xf32>
  %e = tensor.empty() : tensor<2x16x7x7xf32>
  %init = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b : tensor<16xf32>) outs(%e : tensor<2x16x7x7xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<2x16x7x7xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%padded, %w : tensor<2x8x9x9xf32>, tensor<16x8x3x3xf32>) outs(%init : tensor<2x16x7x7xf32>) -> tensor<2x16x7x7xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%y : tensor<2x16x7x7xf32>) outs(%e : tensor<2x16x7x7xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<2x16x7x7xf32>
  return %r : tensor<2x16x7x7xf32>
}

// -----

// A batch of 2 images of 8 x 8 pixels (64: tiles of 64 divide them) keeps
// the per-image form, and its 1x1 convolution reads the input directly.
// CHECK-LABEL: func.func @batched_whole_tiles
// NOFLAT-LABEL: func.func @batched_whole_tiles
// CHECK:         %[[X:.+]] = tensor.collapse_shape %arg0 {{\[\[}}0], [1], [2, 3]] : tensor<2x8x8x8xf32> into tensor<2x8x64xf32>
// CHECK:         linalg.generic {{.*}} ins(%{{.+}}, %[[X]] : tensor<8x16xf32>, tensor<2x8x64xf32>)
// CHECK-NOT:     linalg.fill
func.func @batched_whole_tiles(%x: tensor<2x8x8x8xf32>) -> tensor<2x16x8x8xf32> {
  %w = arith.constant dense<0.5> : tensor<16x8x1x1xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x16x8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x16x8x8xf32>) -> tensor<2x16x8x8xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<2x8x8x8xf32>, tensor<16x8x1x1xf32>) outs(%f : tensor<2x16x8x8xf32>) -> tensor<2x16x8x8xf32>
  return %y : tensor<2x16x8x8xf32>
}
