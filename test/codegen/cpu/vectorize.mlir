// RUN: dlc-opt %s -split-input-file --dlc-cpu-vectorize --mlir-print-local-scope | FileCheck %s

// A matmul tile (8x1 * 1x32, inside the k loop) becomes transfer reads of
// both operands and the accumulator and one vector.contract over the tile,
// with the matmul's own indexing maps (a named contraction: the operands
// are read as 8x1 and 1x32, not broadcast to 3-D).
// CHECK-LABEL: func.func @matmul_tile
// CHECK-SAME:    (%[[A:.+]]: tensor<8x64xf32>, %[[B:.+]]: tensor<64x32xf32>, %[[INIT:.+]]: tensor<8x32xf32>)
// CHECK:         scf.for %[[K:.+]] = {{.+}} iter_args(%[[ACC:.+]] = %[[INIT]]) -> (tensor<8x32xf32>)
// CHECK-DAG:       %[[VA:.+]] = vector.transfer_read %[[A]][%{{.+}}, %[[K]]], %{{.+}} {{.+}} : tensor<8x64xf32>, vector<8x1xf32>
// CHECK-DAG:       %[[VB:.+]] = vector.transfer_read %[[B]][%[[K]], %{{.+}}], %{{.+}} {{.+}} : tensor<64x32xf32>, vector<1x32xf32>
// CHECK-DAG:       %[[VC:.+]] = vector.transfer_read %[[ACC]][%{{.+}}, %{{.+}}], %{{.+}} {{.+}} : tensor<8x32xf32>, vector<8x32xf32>
// CHECK:           %[[R:.+]] = vector.contract
// CHECK-SAME:        indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
// CHECK-SAME:        iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>
// CHECK-SAME:        %[[VA]], %[[VB]], %[[VC]] : vector<8x1xf32>, vector<1x32xf32> into vector<8x32xf32>
// CHECK:           %[[W:.+]] = vector.transfer_write %[[R]], %[[ACC]][%{{.+}}, %{{.+}}] {{.+}} : vector<8x32xf32>, tensor<8x32xf32>
// CHECK:           scf.yield %[[W]]
// CHECK-NOT:     vector.broadcast
// CHECK-NOT:     linalg.matmul
func.func @matmul_tile(%a: tensor<8x64xf32>, %b: tensor<64x32xf32>, %init: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %r = scf.for %k = %c0 to %c64 step %c1 iter_args(%acc = %init) -> (tensor<8x32xf32>) {
    %as = tensor.extract_slice %a[0, %k] [8, 1] [1, 1] : tensor<8x64xf32> to tensor<8x1xf32>
    %bs = tensor.extract_slice %b[%k, 0] [1, 32] [1, 1] : tensor<64x32xf32> to tensor<1x32xf32>
    %m = linalg.matmul ins(%as, %bs : tensor<8x1xf32>, tensor<1x32xf32>) outs(%acc : tensor<8x32xf32>) -> tensor<8x32xf32>
    scf.yield %m : tensor<8x32xf32>
  }
  return %r : tensor<8x32xf32>
}

// -----

// Only ops inside tile loops or marked dlc.vectorize are vectorized: an
// unmarked op outside loops stays as is.
// CHECK-LABEL: func.func @untiled
// CHECK:         linalg.matmul
// CHECK-NOT:     vector.
func.func @untiled(%a: tensor<8x4xf32>, %b: tensor<4x32xf32>, %init: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %m = linalg.matmul ins(%a, %b : tensor<8x4xf32>, tensor<4x32xf32>) outs(%init : tensor<8x32xf32>) -> tensor<8x32xf32>
  return %m : tensor<8x32xf32>
}

// -----

// An op that dlc-cpu-tile-and-fuse marked dlc.vectorize is vectorized even
// outside any loop (a tile that covers the whole op leaves no loop).
// CHECK-LABEL: func.func @marked_outside_loop
// CHECK-NOT:     scf.for
// CHECK-DAG:     %[[VA:.+]] = vector.transfer_read {{.+}} : tensor<8x4xf32>, vector<8x4xf32>
// CHECK-DAG:     %[[VB:.+]] = vector.transfer_read {{.+}} : tensor<4x32xf32>, vector<4x32xf32>
// CHECK-DAG:     %[[VC:.+]] = vector.transfer_read {{.+}} : tensor<8x32xf32>, vector<8x32xf32>
// CHECK:         %[[R:.+]] = vector.contract {{.+}} %[[VA]], %[[VB]], %[[VC]] : vector<8x4xf32>, vector<4x32xf32> into vector<8x32xf32>
// CHECK:         vector.transfer_write %[[R]]
// CHECK-NOT:     linalg.matmul
// CHECK-NOT:     dlc.vectorize
// CHECK:         return
func.func @marked_outside_loop(%a: tensor<8x4xf32>, %b: tensor<4x32xf32>, %init: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %m = linalg.matmul {dlc.vectorize} ins(%a, %b : tensor<8x4xf32>, tensor<4x32xf32>) outs(%init : tensor<8x32xf32>) -> tensor<8x32xf32>
  return %m : tensor<8x32xf32>
}

// -----

// Ops with i1 operands or results stay scalar, even marked and inside a
// tile loop (i1 vectors are bit-packed, i1 tensors one byte per element):
// the compare (i1 result) and the select (i1 operand) remain linalg
// generics, while the f32 op next to them is vectorized.
// CHECK-LABEL: func.func @bool_stays_scalar
// CHECK:         scf.for
// CHECK:           %[[CMP:.+]] = linalg.generic
// CHECK-SAME:        outs(%{{.+}} : tensor<1x16xi1>)
// CHECK:             arith.cmpf olt, %{{.+}}, %{{.+}} : f32
// CHECK:           %[[SEL:.+]] = linalg.generic
// CHECK-SAME:        ins(%[[CMP]], %{{.+}}, %{{.+}} : tensor<1x16xi1>, tensor<1x16xf32>, tensor<1x16xf32>)
// CHECK:             arith.select %{{.+}}, %{{.+}}, %{{.+}} : f32
// CHECK:           %[[N:.+]] = vector.transfer_read %[[SEL]]{{.+}} : tensor<1x16xf32>, vector<1x16xf32>
// CHECK:           arith.negf %[[N]] : vector<1x16xf32>
// CHECK-NOT:       vector<1x16xi1>
// CHECK:         return
func.func @bool_stays_scalar(%a: tensor<4x32xf32>, %b: tensor<4x32xf32>) -> tensor<4x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %e = tensor.empty() : tensor<4x32xf32>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%o = %e) -> (tensor<4x32xf32>) {
    %r2 = scf.for %j = %c0 to %c32 step %c16 iter_args(%o2 = %o) -> (tensor<4x32xf32>) {
      %as = tensor.extract_slice %a[%i, %j] [1, 16] [1, 1] : tensor<4x32xf32> to tensor<1x16xf32>
      %bs = tensor.extract_slice %b[%i, %j] [1, 16] [1, 1] : tensor<4x32xf32> to tensor<1x16xf32>
      %os = tensor.extract_slice %o2[%i, %j] [1, 16] [1, 1] : tensor<4x32xf32> to tensor<1x16xf32>
      %eb = tensor.empty() : tensor<1x16xi1>
      %lt = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
          ins(%as, %bs : tensor<1x16xf32>, tensor<1x16xf32>) outs(%eb : tensor<1x16xi1>) attrs = {dlc.vectorize} {
      ^bb0(%x: f32, %y: f32, %z: i1):
        %c = arith.cmpf olt, %x, %y : f32
        linalg.yield %c : i1
      } -> tensor<1x16xi1>
      %sel = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
          ins(%lt, %as, %bs : tensor<1x16xi1>, tensor<1x16xf32>, tensor<1x16xf32>) outs(%os : tensor<1x16xf32>) attrs = {dlc.vectorize} {
      ^bb0(%c: i1, %x: f32, %y: f32, %z: f32):
        %s = arith.select %c, %x, %y : f32
        linalg.yield %s : f32
      } -> tensor<1x16xf32>
      %neg = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
          ins(%sel : tensor<1x16xf32>) outs(%os : tensor<1x16xf32>) attrs = {dlc.vectorize} {
      ^bb0(%x: f32, %z: f32):
        %n = arith.negf %x : f32
        linalg.yield %n : f32
      } -> tensor<1x16xf32>
      %ins = tensor.insert_slice %neg into %o2[%i, %j] [1, 16] [1, 1] : tensor<1x16xf32> into tensor<4x32xf32>
      scf.yield %ins : tensor<4x32xf32>
    }
    scf.yield %r2 : tensor<4x32xf32>
  }
  return %r : tensor<4x32xf32>
}

// -----

// A conv_2d tile with a size-1 kh window (as dlc-cpu-tile-and-fuse leaves
// it) decomposes into a 1-D convolution, which vectorizes: one
// vector.contract per kw tap (3), on the output row of 8 filters x 8 columns.
// CHECK-LABEL: func.func @conv_tile
// CHECK-NOT:     linalg.conv
// CHECK:         scf.for %[[C:[^ ]+]] =
// CHECK:           scf.for %[[KH:[^ ]+]] =
// CHECK:             vector.transfer_read %{{.+}}[%{{.+}}, %[[C]], %[[KH]], %{{.+}}], {{.+}} : tensor<1x3x3x10xf32>, vector<1x1x10xf32>
// CHECK:             vector.transfer_read %{{.+}}[%{{.+}}, %[[C]], %[[KH]], %{{.+}}], {{.+}} : tensor<8x3x3x3xf32>, vector<8x1x3xf32>
// CHECK:             vector.transfer_read {{.+}} : tensor<1x8x1x8xf32>, vector<1x8x8xf32>
// CHECK-COUNT-3:     vector.contract {{.+}} : vector<1x8x1xf32>, vector<1x8xf32> into vector<1x8x8xf32>
// CHECK:             vector.transfer_write {{.+}} : vector<1x8x8xf32>, tensor<1x8x1x8xf32>
// CHECK-NOT:     linalg.conv
// CHECK:         return
func.func @conv_tile(%x: tensor<1x3x3x10xf32>, %w: tensor<8x3x3x3xf32>, %init: tensor<1x8x1x8xf32>) -> tensor<1x8x1x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %c = %c0 to %c3 step %c1 iter_args(%acc = %init) -> (tensor<1x8x1x8xf32>) {
    %r2 = scf.for %kh = %c0 to %c3 step %c1 iter_args(%acc2 = %acc) -> (tensor<1x8x1x8xf32>) {
      %xs = tensor.extract_slice %x[0, %c, %kh, 0] [1, 1, 1, 10] [1, 1, 1, 1] : tensor<1x3x3x10xf32> to tensor<1x1x1x10xf32>
      %ws = tensor.extract_slice %w[0, %c, %kh, 0] [8, 1, 1, 3] [1, 1, 1, 1] : tensor<8x3x3x3xf32> to tensor<8x1x1x3xf32>
      %o = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
           ins(%xs, %ws : tensor<1x1x1x10xf32>, tensor<8x1x1x3xf32>) outs(%acc2 : tensor<1x8x1x8xf32>) -> tensor<1x8x1x8xf32>
      scf.yield %o : tensor<1x8x1x8xf32>
    }
    scf.yield %r2 : tensor<1x8x1x8xf32>
  }
  return %r : tensor<1x8x1x8xf32>
}

// -----

// A conv_2d tile over 2 output rows (a remainder tile of
// dlc-cpu-tile-and-fuse) becomes one 1-D convolution per row: each row
// reads its own input row (stride 2: rows 0 and 2 of the slice) and the
// same filter vector (one read once CSE'd), and accumulates into its own
// row of the tile.
// CHECK-LABEL: func.func @conv_tile_rows
// CHECK-NOT:     linalg.conv
// CHECK:         scf.for %[[C:[^ ]+]] =
// CHECK:           vector.transfer_read %{{.+}}[%c0, %[[C]], %c0, %c0], {{.+}} : tensor<1x3x3x5xf32>, vector<1x1x3xf32>
// CHECK:           vector.transfer_read %{{.+}}[%c0, %[[C]], %c0, %c0], {{.+}} : tensor<8x3x1x1xf32>, vector<8x1x1xf32>
// CHECK:           vector.transfer_read %[[ACC:.+]][%c0, %c0, %c0, %c0], {{.+}} : tensor<1x8x2x2xf32>, vector<1x8x2xf32>
// CHECK-COUNT-2:   vector.contract
// CHECK:           %[[ROW0:.+]] = vector.transfer_write {{.+}}, %[[ACC]][%c0, %c0, %c0, %c0] {{.+}} : vector<1x8x2xf32>, tensor<1x8x2x2xf32>
// CHECK:           vector.transfer_read %{{.+}}[%c0, %[[C]], %c2, %c0], {{.+}} : tensor<1x3x3x5xf32>, vector<1x1x3xf32>
// CHECK:           vector.transfer_read %{{.+}}[%c0, %[[C]], %c0, %c0], {{.+}} : tensor<8x3x1x1xf32>, vector<8x1x1xf32>
// CHECK:           vector.transfer_read %[[ROW0]][%c0, %c0, %c1, %c0], {{.+}} : tensor<1x8x2x2xf32>, vector<1x8x2xf32>
// CHECK-COUNT-2:   vector.contract
// CHECK:           vector.transfer_write {{.+}}[%c0, %c0, %c1, %c0] {{.+}} : vector<1x8x2xf32>, tensor<1x8x2x2xf32>
// CHECK-NOT:     linalg.conv
// CHECK:         return
func.func @conv_tile_rows(%x: tensor<1x3x3x5xf32>, %w: tensor<8x3x1x1xf32>, %init: tensor<1x8x2x2xf32>) -> tensor<1x8x2x2xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %c = %c0 to %c3 step %c1 iter_args(%acc = %init) -> (tensor<1x8x2x2xf32>) {
    %xs = tensor.extract_slice %x[0, %c, 0, 0] [1, 1, 3, 3] [1, 1, 1, 1] : tensor<1x3x3x5xf32> to tensor<1x1x3x3xf32>
    %ws = tensor.extract_slice %w[0, %c, 0, 0] [8, 1, 1, 1] [1, 1, 1, 1] : tensor<8x3x1x1xf32> to tensor<8x1x1x1xf32>
    %o = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%xs, %ws : tensor<1x1x3x3xf32>, tensor<8x1x1x1xf32>) outs(%acc : tensor<1x8x2x2xf32>) -> tensor<1x8x2x2xf32>
    scf.yield %o : tensor<1x8x2x2xf32>
  }
  return %r : tensor<1x8x2x2xf32>
}

// -----

// An elementwise tile becomes vector<1x16> arithmetic; a broadcast operand
// is read as a vector and broadcast explicitly; tanh and exp are expanded
// into polynomial approximations (math.fma chains), not libm calls.
// CHECK-LABEL: func.func @elementwise_tile
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             %[[X:.+]] = vector.transfer_read {{.+}} : tensor<4x32xf32>, vector<1x16xf32>
// CHECK:             %[[YR:.+]] = vector.transfer_read {{.+}} : tensor<32xf32>, vector<16xf32>
// CHECK:             %[[Y:.+]] = vector.broadcast %[[YR]] : vector<16xf32> to vector<1x16xf32>
// CHECK:             arith.addf %[[X]], %[[Y]] : vector<1x16xf32>
// CHECK:             math.fma {{.+}} : vector<1x16xf32>
// CHECK:             vector.transfer_write {{.+}} : vector<1x16xf32>, tensor<4x32xf32>
// CHECK-NOT:     math.tanh
// CHECK-NOT:     math.exp
// CHECK-NOT:     linalg.generic
// CHECK:         return
func.func @elementwise_tile(%a: tensor<4x32xf32>, %b: tensor<32xf32>) -> tensor<4x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %e = tensor.empty() : tensor<4x32xf32>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%o = %e) -> (tensor<4x32xf32>) {
    %r2 = scf.for %j = %c0 to %c32 step %c16 iter_args(%o2 = %o) -> (tensor<4x32xf32>) {
      %as = tensor.extract_slice %a[%i, %j] [1, 16] [1, 1] : tensor<4x32xf32> to tensor<1x16xf32>
      %bs = tensor.extract_slice %b[%j] [16] [1] : tensor<32xf32> to tensor<16xf32>
      %os = tensor.extract_slice %o2[%i, %j] [1, 16] [1, 1] : tensor<4x32xf32> to tensor<1x16xf32>
      %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
          ins(%as, %bs : tensor<1x16xf32>, tensor<16xf32>) outs(%os : tensor<1x16xf32>) {
      ^bb0(%x: f32, %y: f32, %z: f32):
        %s = arith.addf %x, %y : f32
        %t = math.tanh %s : f32
        %u = math.exp %t : f32
        linalg.yield %u : f32
      } -> tensor<1x16xf32>
      %ins = tensor.insert_slice %g into %o2[%i, %j] [1, 16] [1, 1] : tensor<1x16xf32> into tensor<4x32xf32>
      scf.yield %ins : tensor<4x32xf32>
    }
    scf.yield %r2 : tensor<4x32xf32>
  }
  return %r : tensor<4x32xf32>
}

// -----

// A reduction tile becomes a vector.multi_reduction into the accumulator.
// CHECK-LABEL: func.func @reduction_tile
// CHECK:         scf.for
// CHECK:           %[[V:.+]] = vector.transfer_read {{.+}} : tensor<4x128xf32>, vector<4x16xf32>
// CHECK:           %[[ACC:.+]] = vector.transfer_read {{.+}} : tensor<4xf32>, vector<4xf32>
// CHECK:           vector.multi_reduction <add>, %[[V]], %[[ACC]] [1] : vector<4x16xf32> to vector<4xf32>
func.func @reduction_tile(%a: tensor<4x128xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c128 = arith.constant 128 : index
  %r = scf.for %k = %c0 to %c128 step %c16 iter_args(%acc = %init) -> (tensor<4xf32>) {
    %as = tensor.extract_slice %a[0, %k] [4, 16] [1, 1] : tensor<4x128xf32> to tensor<4x16xf32>
    %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
        ins(%as : tensor<4x16xf32>) outs(%acc : tensor<4xf32>) {
    ^bb0(%x: f32, %o: f32):
      %s = arith.addf %o, %x : f32
      linalg.yield %s : f32
    } -> tensor<4xf32>
    scf.yield %g : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// A batched matmul with shared weights (x[b, m, k] * w[k, n], a linalg.generic
// as MatMul with a 3-D input lowers) reads its operands over the whole
// iteration space; the broadcasts fold into the contraction's maps, so the
// tile is an 8x1 * 1x32 outer product like a plain matmul (not one dot
// product per output element).
// CHECK-LABEL: func.func @batched_shared_weights
// CHECK:         vector.contract {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]
// CHECK-SAME:      : vector<1x8x1xf32>, vector<1x32xf32> into vector<1x8x32xf32>
func.func @batched_shared_weights(%x: tensor<1x8x1xf32>, %w: tensor<1x32xf32>, %acc: tensor<1x8x32xf32>) -> tensor<1x8x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %k = %c0 to %c1 step %c1 iter_args(%a = %acc) -> (tensor<1x8x32xf32>) {
    %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>],
                         iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
        ins(%x, %w : tensor<1x8x1xf32>, tensor<1x32xf32>) outs(%a : tensor<1x8x32xf32>) {
    ^bb0(%in: f32, %in2: f32, %out: f32):
      %m = arith.mulf %in, %in2 : f32
      %s = arith.addf %out, %m : f32
      linalg.yield %s : f32
    } -> tensor<1x8x32xf32>
    scf.yield %0 : tensor<1x8x32xf32>
  }
  return %r : tensor<1x8x32xf32>
}

// -----

// A read of a slice strided along its innermost dimension (a stride-2 tap;
// the tile's slice of the strided slice merged into one strided slice)
// becomes one contiguous read of the 2 * 14 - 1 elements it spans and a
// shuffle that keeps every other one.
// CHECK-LABEL: func.func @strided_tap
// CHECK:         %[[C:.+]] = tensor.extract_slice %{{.+}}[0, %{{.+}}, 7, 1] [1, 1, 1, 27] [1, 1, 2, 1]
// CHECK:         %[[W:.+]] = vector.transfer_read %[[C]]{{.+}} : tensor<1x1x1x27xf32>, vector<1x1x1x27xf32>
// CHECK:         %[[F:.+]] = vector.extract %[[W]][0, 0, 0] : vector<27xf32> from vector<1x1x1x27xf32>
// CHECK:         %[[S:.+]] = vector.shuffle %[[F]], %[[F]] [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26] : vector<27xf32>, vector<27xf32>
// CHECK:         %[[I:.+]] = vector.insert %[[S]], %{{.+}} [0] : vector<14xf32> into vector<1x14xf32>
// CHECK:         vector.shape_cast %[[I]] : vector<1x14xf32> to vector<1x1x1x14xf32>
func.func @strided_tap(%x: tensor<1x4x30x30xf32>, %o: tensor<1x1x1x14xf32>, %c: index) -> tensor<1x1x1x14xf32> {
  %s = tensor.extract_slice %x[0, 0, 1, 1] [1, 4, 14, 14] [1, 1, 2, 2] : tensor<1x4x30x30xf32> to tensor<1x4x14x14xf32>
  %t = tensor.extract_slice %s[0, %c, 3, 0] [1, 1, 1, 14] [1, 1, 1, 1] : tensor<1x4x14x14xf32> to tensor<1x1x1x14xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%t : tensor<1x1x1x14xf32>) outs(%o : tensor<1x1x1x14xf32>) attrs = {dlc.vectorize} {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %in : f32
    linalg.yield %m : f32
  } -> tensor<1x1x1x14xf32>
  return %r : tensor<1x1x1x14xf32>
}

// -----

// A tile of two rows of such a slice (a stride-2 depthwise convolution
// tiled by several output rows): one contiguous read of both rows (their
// own stride stays on the slice), one shuffle per row.
// CHECK-LABEL: func.func @strided_tap_rows
// CHECK:         %[[C:.+]] = tensor.extract_slice %{{.+}}[0, %{{.+}}, 7, 1] [1, 1, 2, 27] [1, 1, 2, 1]
// CHECK:         %[[W:.+]] = vector.transfer_read %[[C]]{{.+}} : tensor<1x1x2x27xf32>, vector<1x1x2x27xf32>
// CHECK:         %[[R0:.+]] = vector.extract %[[W]][0, 0, 0] : vector<27xf32> from vector<1x1x2x27xf32>
// CHECK:         %[[S0:.+]] = vector.shuffle %[[R0]], %[[R0]] [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26]
// CHECK:         %[[I0:.+]] = vector.insert %[[S0]], %{{.+}} [0] : vector<14xf32> into vector<2x14xf32>
// CHECK:         %[[R1:.+]] = vector.extract %[[W]][0, 0, 1] : vector<27xf32> from vector<1x1x2x27xf32>
// CHECK:         %[[S1:.+]] = vector.shuffle %[[R1]], %[[R1]] [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26]
// CHECK:         %[[I1:.+]] = vector.insert %[[S1]], %[[I0]] [1] : vector<14xf32> into vector<2x14xf32>
// CHECK:         vector.shape_cast %[[I1]] : vector<2x14xf32> to vector<1x1x2x14xf32>
func.func @strided_tap_rows(%x: tensor<1x4x30x30xf32>, %o: tensor<1x1x2x14xf32>, %c: index) -> tensor<1x1x2x14xf32> {
  %s = tensor.extract_slice %x[0, 0, 1, 1] [1, 4, 14, 14] [1, 1, 2, 2] : tensor<1x4x30x30xf32> to tensor<1x4x14x14xf32>
  %t = tensor.extract_slice %s[0, %c, 3, 0] [1, 1, 2, 14] [1, 1, 1, 1] : tensor<1x4x14x14xf32> to tensor<1x1x2x14xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%t : tensor<1x1x2x14xf32>) outs(%o : tensor<1x1x2x14xf32>) attrs = {dlc.vectorize} {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %in : f32
    linalg.yield %m : f32
  } -> tensor<1x1x2x14xf32>
  return %r : tensor<1x1x2x14xf32>
}

// -----

// A tile of a copy of such a slice (the pixels of a stride-2 1x1
// convolution, dlc-cpu-pointwise-convs): the shuffled read is written, not
// folded back into the strided slice (which bufferization would copy
// element by element).
// CHECK-LABEL: func.func @strided_copy
// CHECK:         %[[C:.+]] = tensor.extract_slice %{{.+}}[0, %{{.+}}, 2, 0] [1, 1, 1, 27] [1, 1, 2, 1]
// CHECK:         %[[W:.+]] = vector.transfer_read %[[C]]{{.+}} : tensor<1x1x1x27xf32>, vector<1x1x1x27xf32>
// CHECK:         vector.shuffle {{.+}} [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26]
// CHECK:         vector.transfer_write
// CHECK-NOT:     tensor.insert_slice
func.func @strided_copy(%x: tensor<1x4x28x28xf32>, %o: tensor<1x1x1x14xf32>, %c: index) -> tensor<1x1x1x14xf32> {
  %s = tensor.extract_slice %x[0, 0, 0, 0] [1, 4, 14, 14] [1, 1, 2, 2] : tensor<1x4x28x28xf32> to tensor<1x4x14x14xf32>
  %t = tensor.extract_slice %s[0, %c, 1, 0] [1, 1, 1, 14] [1, 1, 1, 1] : tensor<1x4x14x14xf32> to tensor<1x1x1x14xf32>
  %r = linalg.copy {dlc.vectorize} ins(%t : tensor<1x1x1x14xf32>) outs(%o : tensor<1x1x1x14xf32>) -> tensor<1x1x1x14xf32>
  return %r : tensor<1x1x1x14xf32>
}
