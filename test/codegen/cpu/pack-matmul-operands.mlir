// RUN: dlc-opt %s -split-input-file --dlc-cpu-pack-matmul-operands=vector-width=8 --mlir-print-local-scope | FileCheck %s

// A computed 512 x 512 B (1 MiB) is copied into panels of 16 columns,
// [32, 512, 16], and the matmul contracts A with the panels into C viewed
// as [M, 32, 16].
// CHECK-LABEL: func.func @packed
// CHECK-SAME:    (%[[A:.+]]: tensor<128x512xf32>, %[[B:.+]]: tensor<512x512xf32>, %[[C:.+]]: tensor<128x512xf32>)
// CHECK:         %[[B3:.+]] = tensor.expand_shape %[[B]] {{\[}}[0], [1, 2]] output_shape [512, 32, 16]
// CHECK:         %[[P:.+]] = linalg.transpose ins(%[[B3]] : tensor<512x32x16xf32>) outs(%{{.+}} : tensor<32x512x16xf32>) permutation = [1, 0, 2]
// CHECK:         %[[C3:.+]] = tensor.expand_shape %[[C]] {{\[}}[0], [1, 2]] output_shape [128, 32, 16]
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK-SAME:      ins(%[[A]], %[[P]] : tensor<128x512xf32>, tensor<32x512x16xf32>) outs(%[[C3]] : tensor<128x32x16xf32>)
// CHECK:           arith.mulf
// CHECK:           arith.addf
// CHECK:         tensor.collapse_shape %[[R]] {{\[}}[0], [1, 2]] : tensor<128x32x16xf32> into tensor<128x512xf32>
func.func @packed(%a: tensor<128x512xf32>, %b: tensor<512x512xf32>, %c: tensor<128x512xf32>) -> tensor<128x512xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<128x512xf32>, tensor<512x512xf32>) outs(%c : tensor<128x512xf32>) -> tensor<128x512xf32>
  return %0 : tensor<128x512xf32>
}

// -----

// Left as they are: a B that fits in L2 (256 KiB), too few rows of A to
// reuse a packed B, columns that do not split into 16-column panels, and a
// constant B (packed at compile time by dlc-cpu-pack-constant-reads).
// CHECK-LABEL: func.func @unpacked
// CHECK-NOT:     linalg.transpose
// CHECK-NOT:     linalg.generic
// CHECK-COUNT-4: linalg.matmul
func.func @unpacked(%a: tensor<128x256xf32>, %b: tensor<256x256xf32>, %c: tensor<128x256xf32>,
                    %a2: tensor<8x1024xf32>, %b2: tensor<1024x1024xf32>, %c2: tensor<8x1024xf32>,
                    %b3: tensor<1024x1000xf32>, %c3: tensor<128x1000xf32>, %a4: tensor<128x1024xf32>,
                    %c4: tensor<128x256xf32>) -> (tensor<128x256xf32>, tensor<8x1024xf32>, tensor<128x1000xf32>, tensor<128x256xf32>) {
  %0 = linalg.matmul ins(%a, %b : tensor<128x256xf32>, tensor<256x256xf32>) outs(%c : tensor<128x256xf32>) -> tensor<128x256xf32>
  %1 = linalg.matmul ins(%a2, %b2 : tensor<8x1024xf32>, tensor<1024x1024xf32>) outs(%c2 : tensor<8x1024xf32>) -> tensor<8x1024xf32>
  %2 = linalg.matmul ins(%a4, %b3 : tensor<128x1024xf32>, tensor<1024x1000xf32>) outs(%c3 : tensor<128x1000xf32>) -> tensor<128x1000xf32>
  %w = arith.constant dense<1.0> : tensor<1024x256xf32>
  %3 = linalg.matmul ins(%a4, %w : tensor<128x1024xf32>, tensor<1024x256xf32>) outs(%c4 : tensor<128x256xf32>) -> tensor<128x256xf32>
  return %0, %1, %2, %3 : tensor<128x256xf32>, tensor<8x1024xf32>, tensor<128x1000xf32>, tensor<128x256xf32>
}
