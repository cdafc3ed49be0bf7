// RUN: dlc-opt %s -split-input-file --dlc-lower-to-linalg --mlir-print-local-scope | FileCheck %s

// The elementwise ops of the ONNX op families share the broadcasting
// linalg.generic of dlc.add (elementwise.mlir); these check a few scalar
// bodies from passes/lowering/ElementwiseMath.cpp.

// LeakyRelu: x < 0 ? alpha * x : x, with alpha from the attribute.
// CHECK-LABEL: func.func @leaky_relu
// CHECK-SAME:    (%[[X:.+]]: tensor<2x8xf32>)
// CHECK:         %[[INIT:.+]] = tensor.empty() : tensor<2x8xf32>
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK-SAME:      ins(%[[X]] : tensor<2x8xf32>) outs(%[[INIT]] : tensor<2x8xf32>)
// CHECK:         ^bb0(%[[IN:.+]]: f32, %{{.+}}: f32):
// CHECK:           %[[ALPHA:.+]] = arith.constant 1.000000e-01 : f32
// CHECK:           %[[SCALED:.+]] = arith.mulf %[[IN]], %[[ALPHA]] : f32
// CHECK:           %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK:           %[[NEG:.+]] = arith.cmpf olt, %[[IN]], %[[ZERO]] : f32
// CHECK:           %[[Y:.+]] = arith.select %[[NEG]], %[[SCALED]], %[[IN]] : f32
// CHECK:           linalg.yield %[[Y]] : f32
// CHECK:         return %[[R]]
func.func @leaky_relu(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %0 = dlc.leaky_relu %x {alpha = 0.1 : f32, beta = 0.0 : f32} : tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

// Integer Mod (fmod = 0) has Python semantics: the remainder of remsi,
// plus the divisor where the remainder is non-zero and its sign differs
// from the divisor's.
// CHECK-LABEL: func.func @mod
// CHECK:         linalg.generic
// CHECK:         ^bb0(%[[A:.+]]: i32, %[[B:.+]]: i32, %{{.+}}: i32):
// CHECK:           %[[REM:.+]] = arith.remsi %[[A]], %[[B]] : i32
// CHECK:           %[[ZERO:.+]] = arith.constant 0 : i32
// CHECK:           %[[RNEG:.+]] = arith.cmpi slt, %[[REM]], %[[ZERO]] : i32
// CHECK:           %[[DNEG:.+]] = arith.cmpi slt, %[[B]], %[[ZERO]] : i32
// CHECK:           %[[NZ:.+]] = arith.cmpi ne, %[[REM]], %[[ZERO]] : i32
// CHECK:           %[[DIFF:.+]] = arith.xori %[[RNEG]], %[[DNEG]] : i1
// CHECK:           %[[FIX:.+]] = arith.andi %[[DIFF]], %[[NZ]] : i1
// CHECK:           %[[ADJ:.+]] = arith.addi %[[REM]], %[[B]] : i32
// CHECK:           %[[Y:.+]] = arith.select %[[FIX]], %[[ADJ]], %[[REM]] : i32
// CHECK:           linalg.yield %[[Y]] : i32
func.func @mod(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = dlc.mod %a, %b : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// Fmod keeps the dividend's sign: plain remf / remsi.
// CHECK-LABEL: func.func @fmod
// CHECK:         ^bb0(%[[A:.+]]: f32, %[[B:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT:      %[[R:.+]] = arith.remf %[[A]], %[[B]] : f32
// CHECK-NEXT:      linalg.yield %[[R]] : f32
// CHECK:         ^bb0(%[[C:.+]]: i64, %[[D:.+]]: i64, %{{.+}}: i64):
// CHECK-NEXT:      %[[S:.+]] = arith.remsi %[[C]], %[[D]] : i64
// CHECK-NEXT:      linalg.yield %[[S]] : i64
func.func @fmod(%a: tensor<4xf32>, %b: tensor<4xf32>, %c: tensor<4xi64>, %d: tensor<4xi64>) -> (tensor<4xf32>, tensor<4xi64>) {
  %0 = dlc.fmod %a, %b : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  %1 = dlc.fmod %c, %d : tensor<4xi64>, tensor<4xi64> -> tensor<4xi64>
  return %0, %1 : tensor<4xf32>, tensor<4xi64>
}

// -----

// Casts: signed int -> float is sitofp, bool -> int zero-extends (true is
// 1, not -1), float -> bool compares with 0 (une: NaN is true), and an
// unsigned result uses fptoui.
// CHECK-LABEL: func.func @cast
// CHECK:         linalg.generic
// CHECK-SAME:      outs(%{{.+}} : tensor<4xf32>)
// CHECK:         ^bb0(%[[I:.+]]: i32, %{{.+}}: f32):
// CHECK-NEXT:      %[[F:.+]] = arith.sitofp %[[I]] : i32 to f32
// CHECK-NEXT:      linalg.yield %[[F]] : f32
// CHECK:         ^bb0(%[[B:.+]]: i1, %{{.+}}: i64):
// CHECK-NEXT:      %[[E:.+]] = arith.extui %[[B]] : i1 to i64
// CHECK-NEXT:      linalg.yield %[[E]] : i64
// CHECK:         ^bb0(%[[X:.+]]: f32, %{{.+}}: i1):
// CHECK-NEXT:      %[[Z:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:      %[[NZ:.+]] = arith.cmpf une, %[[X]], %[[Z]] : f32
// CHECK-NEXT:      linalg.yield %[[NZ]] : i1
// CHECK:         ^bb0(%[[Y:.+]]: f32, %{{.+}}: i8):
// CHECK-NEXT:      %[[U:.+]] = arith.fptoui %[[Y]] : f32 to i8
// CHECK-NEXT:      linalg.yield %[[U]] : i8
func.func @cast(%a: tensor<4xi32>, %b: tensor<4xi1>, %f: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xi64>, tensor<4xi1>, tensor<4xi8>) {
  %0 = dlc.cast %a : tensor<4xi32> -> tensor<4xf32>
  %1 = dlc.cast %b : tensor<4xi1> -> tensor<4xi64>
  %2 = dlc.cast %f : tensor<4xf32> -> tensor<4xi1>
  %3 = dlc.cast %f {unsigned_result} : tensor<4xf32> -> tensor<4xi8>
  return %0, %1, %2, %3 : tensor<4xf32>, tensor<4xi64>, tensor<4xi1>, tensor<4xi8>
}

// -----

// A comparison broadcasts its operands and yields i1 (ordered: false on
// NaN); integers compare signed.
// CHECK-LABEL: func.func @compare
// CHECK-SAME:    (%[[A:.+]]: tensor<2x3xf32>, %[[B:.+]]: tensor<3xf32>, %[[I:.+]]: tensor<2x3xi64>)
// CHECK:         %[[INIT:.+]] = tensor.empty() : tensor<2x3xi1>
// CHECK:         %[[LT:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK-SAME:      ins(%[[A]], %[[B]] : tensor<2x3xf32>, tensor<3xf32>) outs(%[[INIT]] : tensor<2x3xi1>)
// CHECK:         ^bb0(%[[X:.+]]: f32, %[[Y:.+]]: f32, %{{.+}}: i1):
// CHECK-NEXT:      %[[C:.+]] = arith.cmpf olt, %[[X]], %[[Y]] : f32
// CHECK-NEXT:      linalg.yield %[[C]] : i1
// CHECK:         ^bb0(%[[P:.+]]: i64, %[[Q:.+]]: i64, %{{.+}}: i1):
// CHECK-NEXT:      %[[D:.+]] = arith.cmpi sge, %[[P]], %[[Q]] : i64
// CHECK-NEXT:      linalg.yield %[[D]] : i1
func.func @compare(%a: tensor<2x3xf32>, %b: tensor<3xf32>, %i: tensor<2x3xi64>) -> (tensor<2x3xi1>, tensor<2x3xi1>) {
  %0 = dlc.less %a, %b : tensor<2x3xf32>, tensor<3xf32> -> tensor<2x3xi1>
  %1 = dlc.greater_or_equal %i, %i : tensor<2x3xi64>, tensor<2x3xi64> -> tensor<2x3xi1>
  return %0, %1 : tensor<2x3xi1>, tensor<2x3xi1>
}

// -----

// Where selects elementwise; all three operands broadcast (a size-1 dim
// reads index 0, a scalar has an empty map).
// CHECK-LABEL: func.func @where
// CHECK-SAME:    (%[[C:.+]]: tensor<2x1xi1>, %[[A:.+]]: tensor<3xf32>, %[[B:.+]]: tensor<f32>)
// CHECK:         linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK-SAME:      ins(%[[C]], %[[A]], %[[B]] : tensor<2x1xi1>, tensor<3xf32>, tensor<f32>) outs(%{{.+}} : tensor<2x3xf32>)
// CHECK:         ^bb0(%[[CI:.+]]: i1, %[[AI:.+]]: f32, %[[BI:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT:      %[[S:.+]] = arith.select %[[CI]], %[[AI]], %[[BI]] : f32
// CHECK-NEXT:      linalg.yield %[[S]] : f32
func.func @where(%c: tensor<2x1xi1>, %a: tensor<3xf32>, %b: tensor<f32>) -> tensor<2x3xf32> {
  %0 = dlc.where %c, %a, %b : tensor<2x1xi1>, tensor<3xf32>, tensor<f32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Integer Pow is math.ipowi; float Pow is math.powf.
// CHECK-LABEL: func.func @pow
// CHECK:         ^bb0(%[[X:.+]]: f32, %[[Y:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT:      %[[P:.+]] = math.powf %[[X]], %[[Y]] : f32
// CHECK:         ^bb0(%[[I:.+]]: i32, %[[J:.+]]: i32, %{{.+}}: i32):
// CHECK-NEXT:      %[[Q:.+]] = math.ipowi %[[I]], %[[J]] : i32
func.func @pow(%a: tensor<4xf32>, %b: tensor<4xf32>, %i: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xi32>) {
  %0 = dlc.pow %a, %b : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  %1 = dlc.pow %i, %i : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  return %0, %1 : tensor<4xf32>, tensor<4xi32>
}
