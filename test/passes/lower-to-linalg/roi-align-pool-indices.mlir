// RUN: dlc-opt %s -split-input-file --dlc-lower-to-linalg --canonicalize --mlir-print-local-scope | FileCheck %s

// MaxPool's Indices: a window reduction carrying (max, index) over the
// input padded with -inf; the index is row-major over (n, c, h, w) of the
// unpadded input and taken on a strictly larger value (the first maximum).
// CHECK-LABEL: func.func @indices
// CHECK:         %[[P:.+]] = tensor.pad
// CHECK:         %[[G:.+]]:2 = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]
// CHECK-SAME:      ins(%[[P]], %{{.+}} : tensor<1x1x6x6xf32>, tensor<2x2xf32>)
// CHECK-SAME:      outs(%{{.+}}, %{{.+}} : tensor<1x1x3x3xf32>, tensor<1x1x3x3xi64>)
// CHECK:           %[[TAKE:.+]] = arith.cmpf ogt
// CHECK:           arith.select %[[TAKE]]
// CHECK:           arith.select %[[TAKE]]
// CHECK:         return %[[G]]#1
func.func @indices(%x: tensor<1x1x5x5xf32>) -> tensor<1x1x3x3xi64> {
  %0 = dlc.max_pool_indices %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 0, 0>, dilations = array<i64: 1, 1>}
      : tensor<1x1x5x5xf32> -> tensor<1x1x3x3xi64>
  return %0 : tensor<1x1x3x3xi64>
}

// -----

// With column_major (storage_order 1) the width index is the outer one.
// CHECK-LABEL: func.func @indices_column_major
// CHECK:         linalg.generic
// CHECK:           %[[W:.+]] = linalg.index 3
// CHECK:           %[[H:.+]] = linalg.index 2
func.func @indices_column_major(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xi64> {
  %0 = dlc.max_pool_indices %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, column_major = true}
      : tensor<1x1x4x4xf32> -> tensor<1x1x2x2xi64>
  return %0 : tensor<1x1x2x2xi64>
}

// -----

// RoiAlign (avg): one window reduction over (region, channel, bin row, bin
// column, sample row, sample column) reading the region, its image and four
// bilinear neighbours, then the mean of the 2 x 2 samples.
// CHECK-LABEL: func.func @roi_align
// CHECK:         %[[S:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]
// CHECK-SAME:      outs(%{{.+}} : tensor<3x1x5x5xf32>)
// CHECK:           tensor.extract %{{.+}}[%{{.+}}] : tensor<3xi64>
// CHECK-COUNT-4:   tensor.extract %{{.+}}[%{{.+}}, %{{.+}}] : tensor<3x4xf32>
// CHECK-COUNT-4:   tensor.extract %{{.+}}[%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}] : tensor<1x1x10x10xf32>
// CHECK:         linalg.generic
// CHECK:           arith.divf %{{.+}}, %cst{{.*}} : f32
func.func @roi_align(%x: tensor<1x1x10x10xf32>, %rois: tensor<3x4xf32>, %idx: tensor<3xi64>) -> tensor<3x1x5x5xf32> {
  %0 = dlc.roi_align %x, %rois, %idx {mode = "avg", sampling_ratio = 2 : i64, spatial_scale = 1.0 : f64, half_pixel = true}
      : (tensor<1x1x10x10xf32>, tensor<3x4xf32>, tensor<3xi64>) -> tensor<3x1x5x5xf32>
  return %0 : tensor<3x1x5x5xf32>
}
