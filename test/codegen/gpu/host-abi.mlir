// RUN: dlc-opt %s --dlc-gpu-host-abi --mlir-print-elementsattrs-with-hex-if-larger=100 | FileCheck %s

// Constant globals are packed into one byte array at 256-byte aligned
// offsets (f32 at 0, i1 one byte per element at 256, a splat expanded at
// 512); reads become views of the new device constants argument, and the
// launch context is appended last.
memref.global "private" constant @w : memref<2x2xf32> = dense<[[1.0, 2.0], [3.0, 4.0]]>
memref.global "private" constant @b : memref<3xi1> = dense<[true, false, true]>
memref.global "private" constant @s : memref<4xi32> = dense<7>

// CHECK-NOT:   memref.global "private" constant @w
// CHECK:       memref.global "private" constant @dlc_constants : memref<768xi8> = dense_resource<dlc_constants> {alignment = 256 : i64}
// CHECK-LABEL: func.func @main
// CHECK-SAME:    (%[[OUT:.+]]: memref<2x2xf32>, %{{.+}}: memref<64xi8> {dlc.workspace}, %[[C:.+]]: memref<768xi8> {dlc.constants}, %{{.+}}: !llvm.ptr {dlc.cuda_context})
// CHECK:         %[[O0:.+]] = arith.constant 0 : index
// CHECK:         %[[W:.+]] = memref.view %[[C]][%[[O0]]][] : memref<768xi8> to memref<2x2xf32>
// CHECK:         %[[O1:.+]] = arith.constant 256 : index
// CHECK:         memref.view %[[C]][%[[O1]]][] : memref<768xi8> to memref<3xi1>
// CHECK:         %[[O2:.+]] = arith.constant 512 : index
// CHECK:         memref.view %[[C]][%[[O2]]][] : memref<768xi8> to memref<4xi32>
// CHECK:         memref.copy %[[W]], %[[OUT]]
// CHECK-NOT:     memref.get_global
// The bytes: alignment prefix 256, then 1.0 2.0 3.0 4.0, zeros to 256,
// 01 00 01, zeros to 512, four 7s, zeros to 768.
// CHECK:       dlc_constants: "0x000100000000803F000000400000404000008040{{0+}}010001{{0+}}07000000070000000700000007000000{{0+}}"
func.func @main(%out: memref<2x2xf32>, %ws: memref<64xi8> {dlc.workspace}) {
  %0 = memref.get_global @w : memref<2x2xf32>
  %1 = memref.get_global @b : memref<3xi1>
  %2 = memref.get_global @s : memref<4xi32>
  memref.copy %0, %out : memref<2x2xf32> to memref<2x2xf32>
  return
}
