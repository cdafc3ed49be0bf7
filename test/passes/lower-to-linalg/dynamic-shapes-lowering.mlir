// RUN: dlc-opt %s -split-input-file --dlc-lower-to-linalg --canonicalize --mlir-print-local-scope | FileCheck %s

// Elementwise ops and 2-D matmuls size their dynamic dimensions at run time
// from their operands: M from A, broadcasts from the operand that has the
// dimension.
// CHECK-LABEL: func.func @mlp
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<?x16xf32>, %[[W:[^:]+]]: tensor<16x32xf32>, %[[B:[^:]+]]: tensor<32xf32>)
// CHECK:         %[[M:.+]] = tensor.dim %[[X]], %c0 : tensor<?x16xf32>
// CHECK:         %[[E:.+]] = tensor.empty(%[[M]]) : tensor<?x32xf32>
// CHECK:         %[[F:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[E]] : tensor<?x32xf32>)
// CHECK:         %[[MM:.+]] = linalg.matmul ins(%[[X]], %[[W]] : tensor<?x16xf32>, tensor<16x32xf32>) outs(%[[F]] : tensor<?x32xf32>)
// CHECK:         %[[E2:.+]] = tensor.empty(%[[M]]) : tensor<?x32xf32>
// CHECK:         %[[ADD:.+]] = linalg.generic
// CHECK-SAME:      ins(%[[MM]], %[[B]] : tensor<?x32xf32>, tensor<32xf32>) outs(%[[E2]] : tensor<?x32xf32>)
// CHECK:         %[[E3:.+]] = tensor.empty(%[[M]]) : tensor<?x32xf32>
// CHECK:         linalg.generic {{.+}} ins(%[[ADD]] : tensor<?x32xf32>) outs(%[[E3]] : tensor<?x32xf32>)
func.func @mlp(%x: tensor<?x16xf32>, %w: tensor<16x32xf32>, %b: tensor<32xf32>) -> tensor<?x32xf32> {
  %0 = dlc.matmul %x, %w : tensor<?x16xf32>, tensor<16x32xf32> -> tensor<?x32xf32>
  %1 = dlc.add %0, %b : tensor<?x32xf32>, tensor<32xf32> -> tensor<?x32xf32>
  %2 = dlc.relu %1 : tensor<?x32xf32>
  return %2 : tensor<?x32xf32>
}

// -----

// A dynamic dimension broadcast against 1 takes the size of the operand
// that has it; N of a matmul comes from B.
// CHECK-LABEL: func.func @broadcast
// CHECK-SAME:    (%[[A:[^:]+]]: tensor<1x?xf32>, %[[B:[^:]+]]: tensor<?x1xf32>, %[[W:[^:]+]]: tensor<4x?xf32>,
// CHECK-DAG:     %[[R:.+]] = tensor.dim %[[B]], %c0 : tensor<?x1xf32>
// CHECK-DAG:     %[[C:.+]] = tensor.dim %[[A]], %c1 : tensor<1x?xf32>
// CHECK:         tensor.empty(%[[R]], %[[C]]) : tensor<?x?xf32>
// CHECK:         %[[N:.+]] = tensor.dim %[[W]], %c1 : tensor<4x?xf32>
// CHECK:         tensor.empty(%[[N]]) : tensor<3x?xf32>
func.func @broadcast(%a: tensor<1x?xf32>, %b: tensor<?x1xf32>, %w: tensor<4x?xf32>, %v: tensor<3x4xf32>) -> (tensor<?x?xf32>, tensor<3x?xf32>) {
  %0 = dlc.mul %a, %b : tensor<1x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %1 = dlc.matmul %v, %w : tensor<3x4xf32>, tensor<4x?xf32> -> tensor<3x?xf32>
  return %0, %1 : tensor<?x?xf32>, tensor<3x?xf32>
}
