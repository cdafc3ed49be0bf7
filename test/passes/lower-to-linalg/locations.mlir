// RUN: dlc-opt %s --dlc-lower-to-linalg --mlir-print-debuginfo --mlir-print-local-scope | FileCheck %s

// Every op a dlc op lowers to (pads, fills, generics, named ops, reshapes)
// keeps the op's location: the ONNX node name.

// CHECK-LABEL: func.func @net
// CHECK:         tensor.pad {{.+}} {
// CHECK:         } : tensor<1x1x8x8xf32> to tensor<1x1x10x10xf32> loc("conv1")
// CHECK:         %[[BIAS:.+]] = linalg.generic
// CHECK-SAME:      ins(%{{.+}} : tensor<4xf32>)
// CHECK:         } -> tensor<1x4x8x8xf32> loc("conv1")
// CHECK:         linalg.conv_2d_nchw_fchw {{.+}} outs(%[[BIAS]] : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32> loc("conv1")
// CHECK:         linalg.generic
// CHECK:           arith.cmpf ugt, {{.+}} loc("relu1")
// CHECK:         } -> tensor<1x4x8x8xf32> loc("relu1")
// CHECK:         tensor.pad {{.+}} {
// CHECK:         } : tensor<1x4x8x8xf32> to tensor<1x4x9x9xf32> loc("pool1")
// CHECK:         tensor.extract_slice {{.+}} loc("pool1")
// CHECK:         linalg.generic
// CHECK:           arith.select {{.+}} loc("pool1")
// CHECK:         } -> tensor<1x4x4x4xf32> loc("pool1")
// CHECK:         tensor.collapse_shape {{.+}} loc("flatten1")
// CHECK:         linalg.fill {{.+}} loc("fc1")
// CHECK:         linalg.generic
// CHECK:         } -> tensor<1x10xf32> loc("fc1")
// CHECK:         linalg.generic
// CHECK:         } -> tensor<1x10xf32> loc("fc1")
// CHECK:         linalg.generic
// CHECK:           arith.maximumf {{.+}} loc("softmax1")
// CHECK:         } -> tensor<1xf32> loc("softmax1")
// CHECK:         math.exp {{.+}} loc("softmax1")
// CHECK-NOT:     dlc.
// CHECK:         return
func.func @net(%x: tensor<1x1x8x8xf32>, %w: tensor<4x1x3x3xf32>, %b: tensor<4xf32>,
               %fw: tensor<10x64xf32>, %fb: tensor<10xf32>) -> tensor<1x10xf32> {
  %0 = dlc.conv %x, %w, %b {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64}
       : (tensor<1x1x8x8xf32>, tensor<4x1x3x3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32> loc("conv1")
  %1 = dlc.relu %0 : tensor<1x4x8x8xf32> loc("relu1")
  %2 = dlc.max_pool %1 {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 1, 1>, dilations = array<i64: 1, 1>}
       : tensor<1x4x8x8xf32> -> tensor<1x4x4x4xf32> loc("pool1")
  %3 = dlc.reshape %2 : tensor<1x4x4x4xf32> -> tensor<1x64xf32> loc("flatten1")
  %4 = dlc.gemm %3, %fw, %fb {transB = true} : (tensor<1x64xf32>, tensor<10x64xf32>, tensor<10xf32>) -> tensor<1x10xf32> loc("fc1")
  %5 = dlc.softmax %4 {axis = 1 : i64} : tensor<1x10xf32> loc("softmax1")
  return %5 : tensor<1x10xf32>
}
