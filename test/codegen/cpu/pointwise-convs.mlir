// RUN: dlc-opt %s -split-input-file --dlc-cpu-pointwise-convs=vector-width=8 --mlir-print-local-scope | FileCheck %s

// A 1x1 unit-stride convolution with rows of whole vectors (56 = 7 x 8)
// becomes a contraction with the filters first: M = filters, N = pixels.
// CHECK-LABEL: func.func @pointwise
// CHECK-SAME:    (%[[X:.+]]: tensor<1x24x56x56xf32>, %[[W:.+]]: tensor<144x24x1x1xf32>, %[[Y:.+]]: tensor<1x144x56x56xf32>)
// CHECK:         %[[W2:.+]] = tensor.collapse_shape %[[W]] {{\[}}[0], [1, 2, 3]] : tensor<144x24x1x1xf32> into tensor<144x24xf32>
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d1, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>]
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]
// CHECK-SAME:      ins(%[[W2]], %[[X]] : tensor<144x24xf32>, tensor<1x24x56x56xf32>) outs(%[[Y]] : tensor<1x144x56x56xf32>)
// CHECK:           arith.mulf
// CHECK:           arith.addf
// CHECK-NOT:     linalg.conv_2d_nchw_fchw
func.func @pointwise(%x: tensor<1x24x56x56xf32>, %w: tensor<144x24x1x1xf32>, %y: tensor<1x144x56x56xf32>) -> tensor<1x144x56x56xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x24x56x56xf32>, tensor<144x24x1x1xf32>) outs(%y : tensor<1x144x56x56xf32>) -> tensor<1x144x56x56xf32>
  return %0 : tensor<1x144x56x56xf32>
}

// -----

// Left as convolutions: a 3x3 window, and filters that are not whole
// vectors (116 with 8 lanes) over a 14 x 14 image.
// CHECK-LABEL: func.func @kept
// CHECK-NOT:     linalg.generic
// CHECK-NOT:     linalg.conv_1d_ncw_fcw
// CHECK-COUNT-2: linalg.conv_2d_nchw_fchw
func.func @kept(%x2: tensor<1x24x28x28xf32>,
                %w3: tensor<144x24x3x3xf32>, %y3: tensor<1x144x26x26xf32>,
                %x4: tensor<1x116x14x14xf32>, %w4: tensor<116x116x1x1xf32>, %y4: tensor<1x116x14x14xf32>) -> (tensor<1x144x26x26xf32>, tensor<1x116x14x14xf32>) {
  %2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x2, %w3 : tensor<1x24x28x28xf32>, tensor<144x24x3x3xf32>) outs(%y3 : tensor<1x144x26x26xf32>) -> tensor<1x144x26x26xf32>
  %3 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x4, %w4 : tensor<1x116x14x14xf32>, tensor<116x116x1x1xf32>) outs(%y4 : tensor<1x116x14x14xf32>) -> tensor<1x116x14x14xf32>
  return %2, %3 : tensor<1x144x26x26xf32>, tensor<1x116x14x14xf32>
}

// -----

// A stride-2 1x1 convolution (a downsampling shortcut) convolves a copy of
// the pixels it reads with unit strides: here over a 14 x 14 image, a 1-D
// convolution over the image as one row. The copy is made right after the
// input is computed, before the ReLU's result is padded for the 3x3
// convolution that also reads it.
// CHECK-LABEL: func.func @strided
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK:           arith.maximumf
// CHECK:         %[[S:.+]] = tensor.extract_slice %[[R]][0, 0, 0, 0] [1, 24, 14, 14] [1, 1, 2, 2] : tensor<1x24x28x28xf32> to tensor<1x24x14x14xf32>
// CHECK:         %[[E:.+]] = tensor.empty() : tensor<1x24x14x14xf32>
// CHECK:         %[[P:.+]] = linalg.copy ins(%[[S]] : tensor<1x24x14x14xf32>) outs(%[[E]] : tensor<1x24x14x14xf32>)
// CHECK:         tensor.pad %[[R]]
// CHECK:         linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
// CHECK:         %[[X:.+]] = tensor.collapse_shape %[[P]] {{\[}}[0], [1], [2, 3]] : tensor<1x24x14x14xf32> into tensor<1x24x196xf32>
// CHECK:         linalg.conv_1d_ncw_fcw {{.+}} ins(%[[X]], %{{.+}} : tensor<1x24x196xf32>, tensor<144x24x1xf32>)
func.func @strided(%x: tensor<1x24x28x28xf32>, %w: tensor<144x24x1x1xf32>, %y: tensor<1x144x14x14xf32>,
                   %w3: tensor<144x24x3x3xf32>) -> (tensor<1x144x14x14xf32>, tensor<1x144x14x14xf32>) {
  %e = tensor.empty() : tensor<1x24x28x28xf32>
  %zero = arith.constant 0.0 : f32
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x24x28x28xf32>) outs(%e : tensor<1x24x28x28xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x24x28x28xf32>
  %p = tensor.pad %r low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x24x28x28xf32> to tensor<1x24x30x30xf32>
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%p, %w3 : tensor<1x24x30x30xf32>, tensor<144x24x3x3xf32>) outs(%y : tensor<1x144x14x14xf32>) -> tensor<1x144x14x14xf32>
  %1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%r, %w : tensor<1x24x28x28xf32>, tensor<144x24x1x1xf32>) outs(%y : tensor<1x144x14x14xf32>) -> tensor<1x144x14x14xf32>
  return %0, %1 : tensor<1x144x14x14xf32>, tensor<1x144x14x14xf32>
}

// -----

// A 14 x 14 image (rows of 14, 196 pixels: neither whole vectors) becomes a
// 1-D convolution over the image as one row, so that its tiles take their
// columns from all 196 pixels; constant filters become a reshaped constant
// (not a reshape of one), which dlc-cpu-pack-constant-reads can pack. The
// activation after it is collapsed too and reads the 1-D result directly.
// CHECK-LABEL: func.func @one_row
// CHECK-SAME:    (%[[X:.+]]: tensor<1x24x14x14xf32>, %[[Y:.+]]: tensor<1x144x14x14xf32>)
// CHECK-DAG:     %[[W:.+]] = arith.constant dense<2.500000e-01> : tensor<144x24x1xf32>
// CHECK-DAG:     %[[X3:.+]] = tensor.collapse_shape %[[X]] {{\[}}[0], [1], [2, 3]] : tensor<1x24x14x14xf32> into tensor<1x24x196xf32>
// CHECK:         %[[C:.+]] = linalg.conv_1d_ncw_fcw {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>} ins(%[[X3]], %[[W]] : tensor<1x24x196xf32>, tensor<144x24x1xf32>) outs(%{{.+}} : tensor<1x144x196xf32>)
// CHECK:         %[[R:.+]] = linalg.generic {{.+}} ins(%[[C]] : tensor<1x144x196xf32>)
// CHECK:           arith.maximumf
// CHECK:         tensor.expand_shape %[[R]] {{\[}}[0], [1], [2, 3]] output_shape [1, 144, 14, 14]
// CHECK-NOT:     linalg.conv_2d_nchw_fchw
func.func @one_row(%x: tensor<1x24x14x14xf32>, %y: tensor<1x144x14x14xf32>) -> tensor<1x144x14x14xf32> {
  %w = arith.constant dense<0.25> : tensor<144x24x1x1xf32>
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x24x14x14xf32>, tensor<144x24x1x1xf32>) outs(%y : tensor<1x144x14x14xf32>) -> tensor<1x144x14x14xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x144x14x14xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%0 : tensor<1x144x14x14xf32>) outs(%e : tensor<1x144x14x14xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x144x14x14xf32>
  return %1 : tensor<1x144x14x14xf32>
}

// -----

// Rows of 28 (a 12-lane remainder after 16) but 784 pixels (98 vectors):
// the image is flattened into one row. The bias that initializes the
// contraction and the activation that follows it are collapsed too, so they
// read and write the contraction's [1, 144, 784] tensors directly; one
// expand_shape is left for the result.
// CHECK-LABEL: func.func @flattened
// CHECK-SAME:    (%[[X:.+]]: tensor<1x24x28x28xf32>, %[[W:.+]]: tensor<144x24x1x1xf32>, %[[B:.+]]: tensor<144xf32>)
// CHECK:         %[[INIT:.+]] = linalg.generic {{.+}} ins(%[[B]] : tensor<144xf32>) outs(%{{.+}} : tensor<1x144x784xf32>)
// CHECK:         %[[X3:.+]] = tensor.collapse_shape %[[X]] {{\[}}[0], [1], [2, 3]] : tensor<1x24x28x28xf32> into tensor<1x24x784xf32>
// CHECK:         %[[C:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK-SAME:      ins(%{{.+}}, %[[X3]] : tensor<144x24xf32>, tensor<1x24x784xf32>) outs(%[[INIT]] : tensor<1x144x784xf32>)
// CHECK:         %[[R:.+]] = linalg.generic {{.+}} ins(%[[C]] : tensor<1x144x784xf32>)
// CHECK:           arith.maximumf
// CHECK:         tensor.expand_shape %[[R]] {{\[}}[0], [1], [2, 3]] output_shape [1, 144, 28, 28]
func.func @flattened(%x: tensor<1x24x28x28xf32>, %w: tensor<144x24x1x1xf32>, %b: tensor<144xf32>) -> tensor<1x144x28x28xf32> {
  %e = tensor.empty() : tensor<1x144x28x28xf32>
  %init = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : tensor<144xf32>) outs(%e : tensor<1x144x28x28xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x144x28x28xf32>
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x24x28x28xf32>, tensor<144x24x1x1xf32>) outs(%init : tensor<1x144x28x28xf32>) -> tensor<1x144x28x28xf32>
  %zero = arith.constant 0.0 : f32
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%0 : tensor<1x144x28x28xf32>) outs(%e : tensor<1x144x28x28xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x144x28x28xf32>
  return %1 : tensor<1x144x28x28xf32>
}

// -----

// The batch may be a run-time size (a symbolic dimension): the image is
// flattened the same way, the batch kept dynamic.
// CHECK-LABEL: func.func @dynamic_batch
// CHECK-SAME:    (%[[X:.+]]: tensor<?x24x28x28xf32>, %{{.+}}: tensor<144x24x1x1xf32>, %[[N:.+]]: index)
// CHECK:         %[[X3:.+]] = tensor.collapse_shape %[[X]] {{\[}}[0], [1], [2, 3]] : tensor<?x24x28x28xf32> into tensor<?x24x784xf32>
// CHECK:         %[[C:.+]] = linalg.generic
// CHECK-SAME:      ins(%{{.+}}, %[[X3]] : tensor<144x24xf32>, tensor<?x24x784xf32>) outs(%{{.+}} : tensor<?x144x784xf32>)
// CHECK:         %[[R:.+]] = linalg.generic {{.+}} ins(%[[C]] : tensor<?x144x784xf32>)
// CHECK:           arith.maximumf
// CHECK:         tensor.expand_shape %[[R]] {{\[}}[0], [1], [2, 3]] output_shape [%{{.+}}, 144, 28, 28]
// CHECK-NOT:     linalg.conv_2d_nchw_fchw
func.func @dynamic_batch(%x: tensor<?x24x28x28xf32>, %w: tensor<144x24x1x1xf32>, %n: index) -> tensor<?x144x28x28xf32> {
  %e = tensor.empty(%n) : tensor<?x144x28x28xf32>
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<?x144x28x28xf32>) -> tensor<?x144x28x28xf32>
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<?x24x28x28xf32>, tensor<144x24x1x1xf32>) outs(%init : tensor<?x144x28x28xf32>) -> tensor<?x144x28x28xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%0 : tensor<?x144x28x28xf32>) outs(%e : tensor<?x144x28x28xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  } -> tensor<?x144x28x28xf32>
  return %1 : tensor<?x144x28x28xf32>
}

// -----

// A 7 x 7 image whose convolution (through its activation) is inserted into
// a larger tensor, a concatenation written in place: kept in the 2-D form,
// which writes into the concatenation directly.
// CHECK-LABEL: func.func @into_concat
// CHECK-NOT:     linalg.conv_1d_ncw_fcw
// CHECK:         linalg.conv_2d_nchw_fchw
// CHECK:         linalg.generic
// CHECK:         tensor.insert_slice
func.func @into_concat(%x: tensor<1x64x7x7xf32>, %w: tensor<32x64x1x1xf32>, %y: tensor<1x32x7x7xf32>, %cat: tensor<1x96x7x7xf32>) -> tensor<1x96x7x7xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x64x7x7xf32>, tensor<32x64x1x1xf32>) outs(%y : tensor<1x32x7x7xf32>) -> tensor<1x32x7x7xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x32x7x7xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%0 : tensor<1x32x7x7xf32>) outs(%e : tensor<1x32x7x7xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x32x7x7xf32>
  %2 = tensor.insert_slice %1 into %cat[0, 64, 0, 0] [1, 32, 7, 7] [1, 1, 1, 1] : tensor<1x32x7x7xf32> into tensor<1x96x7x7xf32>
  return %2 : tensor<1x96x7x7xf32>
}

// -----

// The reshapes around flattened images are folded through elementwise ops,
// but not into a grouped convolution's accumulator (the bias broadcast,
// reading an expanded bias) or its epilogue (the ReLU, collapsed after):
// they stay in the [N, G, F/G, OH, OW] form, so that tiling fuses them.
// CHECK-LABEL: func.func @grouped_neighbours
// CHECK:         %[[BIAS:.+]] = linalg.generic
// CHECK-SAME:      outs(%{{.+}} : tensor<1x2x8x7x7xf32>)
// CHECK:         %[[CONV:.+]] = linalg.conv_2d_ngchw_gfchw
// CHECK-SAME:      outs(%[[BIAS]] : tensor<1x2x8x7x7xf32>)
// CHECK:         %[[RELU:.+]] = linalg.generic
// CHECK-SAME:      ins(%[[CONV]] : tensor<1x2x8x7x7xf32>)
// CHECK:         tensor.collapse_shape %[[RELU]]
func.func @grouped_neighbours(%x: tensor<1x2x8x9x9xf32>, %w: tensor<2x8x8x3x3xf32>, %b: tensor<16xf32>) -> tensor<1x16x7x7xf32> {
  %cst = arith.constant 0.0 : f32
  %bg = tensor.expand_shape %b [[0, 1]] output_shape [2, 8] : tensor<16xf32> into tensor<2x8xf32>
  %e = tensor.empty() : tensor<1x2x8x7x7xf32>
  %acc = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%bg : tensor<2x8xf32>) outs(%e : tensor<1x2x8x7x7xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  } -> tensor<1x2x8x7x7xf32>
  %0 = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x2x8x9x9xf32>, tensor<2x8x8x3x3xf32>) outs(%acc : tensor<1x2x8x7x7xf32>) -> tensor<1x2x8x7x7xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%0 : tensor<1x2x8x7x7xf32>) outs(%e : tensor<1x2x8x7x7xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.maximumf %v, %cst : f32
    linalg.yield %r : f32
  } -> tensor<1x2x8x7x7xf32>
  %2 = tensor.collapse_shape %1 [[0], [1, 2], [3], [4]] : tensor<1x2x8x7x7xf32> into tensor<1x16x7x7xf32>
  return %2 : tensor<1x16x7x7xf32>
}
