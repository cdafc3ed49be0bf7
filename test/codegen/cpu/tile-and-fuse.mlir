// RUN: dlc-opt %s -split-input-file --dlc-cpu-tile-and-fuse --mlir-print-local-scope | FileCheck %s

// The parallel loops (m by 8, n by 32) become one scf.forall (each tile
// is independent: OpenMP distributes them), the zero fill is fused into
// that tile, and the k loop is tiled inside it by 1 as a sequential scf.for:
// each innermost matmul is an 8x1 * 1x32 outer product. No dlc.tile_sizes
// remain; every tiled or fused op is marked dlc.vectorize instead.
// CHECK-LABEL: func.func @matmul_fill
// CHECK-SAME:    (%[[A:.+]]: tensor<64x64xf32>, %[[B:.+]]: tensor<64x64xf32>)
// CHECK-DAG:     %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:     %[[EMPTY:.+]] = tensor.empty() : tensor<64x64xf32>
// CHECK-NOT:     linalg.fill
// CHECK:         %[[R:.+]] = scf.forall (%[[I:.+]], %[[J:.+]]) = (0, 0) to (64, 64) step (8, 32) shared_outs(%[[OUT:.+]] = %[[EMPTY]]) -> (tensor<64x64xf32>)
// CHECK-DAG:       %[[AS:.+]] = tensor.extract_slice %[[A]][%[[I]], 0] [8, 64] [1, 1]
// CHECK-DAG:       %[[BS:.+]] = tensor.extract_slice %[[B]][0, %[[J]]] [64, 32] [1, 1]
// CHECK-DAG:       %[[OS:.+]] = tensor.extract_slice %[[OUT]][%[[I]], %[[J]]] [8, 32] [1, 1]
// CHECK:           %[[FILL:.+]] = linalg.fill {dlc.vectorize} ins(%[[ZERO]] : f32) outs(%[[OS]] : tensor<8x32xf32>) -> tensor<8x32xf32>
// CHECK:           %[[K:.+]] = scf.for %[[KK:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[ACC:.+]] = %[[FILL]]) -> (tensor<8x32xf32>)
// CHECK-DAG:         %[[AK:.+]] = tensor.extract_slice %[[AS]][0, %[[KK]]] [8, 1] [1, 1]
// CHECK-DAG:         %[[BK:.+]] = tensor.extract_slice %[[BS]][%[[KK]], 0] [1, 32] [1, 1]
// CHECK:             linalg.matmul {dlc.vectorize} ins(%[[AK]], %[[BK]] : tensor<8x1xf32>, tensor<1x32xf32>) outs(%{{.+}} : tensor<8x32xf32>)
// CHECK:             scf.yield
// CHECK:           scf.forall.in_parallel
// CHECK-NEXT:        tensor.parallel_insert_slice %[[K]] into %[[OUT]][%[[I]], %[[J]]] [8, 32] [1, 1]
// CHECK:         return %[[R]]
// CHECK-NOT:     dlc.tile_sizes
func.func @matmul_fill(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %0 = linalg.matmul {dlc.tile_sizes = array<i64: 8, 32, 1>} ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

// A contraction is not fused into an elementwise consumer: each is tiled
// by its own sizes in its own loop nest.
// CHECK-LABEL: func.func @matmul_then_elementwise
// CHECK:         %[[MM:.+]] = scf.forall
// CHECK:           scf.for
// CHECK:             linalg.matmul {dlc.vectorize} ins(%{{.+}}, %{{.+}} : tensor<8x1xf32>, tensor<1x32xf32>)
// CHECK:         scf.forall {{.+}} step (1, 16)
// CHECK:           tensor.extract_slice %[[MM]][%{{.+}}, %{{.+}}] [1, 16] [1, 1]
// CHECK:           linalg.generic
// CHECK-SAME:        ins(%{{.+}} : tensor<1x16xf32>)
// CHECK-SAME:        attrs = {dlc.vectorize}
// CHECK:             math.tanh
// CHECK-NOT:     dlc.tile_sizes
func.func @matmul_then_elementwise(%a: tensor<16x8xf32>, %b: tensor<8x32xf32>, %c: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %0 = linalg.matmul {dlc.tile_sizes = array<i64: 8, 32, 1>} ins(%a, %b : tensor<16x8xf32>, tensor<8x32xf32>) outs(%c : tensor<16x32xf32>) -> tensor<16x32xf32>
  %e = tensor.empty() : tensor<16x32xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%0 : tensor<16x32xf32>) outs(%e : tensor<16x32xf32>) attrs = {dlc.tile_sizes = array<i64: 1, 16>} {
  ^bb0(%x: f32, %o: f32):
    %t = math.tanh %x : f32
    linalg.yield %t : f32
  } -> tensor<16x32xf32>
  return %1 : tensor<16x32xf32>
}

// -----

// A reduction tile size tiles the reduction loop inside the parallel tile,
// carrying the (fused) fill as the accumulator.
// CHECK-LABEL: func.func @reduction
// CHECK:         scf.forall {{.+}} -> (tensor<4xf32>)
// CHECK:           %[[FILL:.+]] = linalg.fill {dlc.vectorize} {{.+}} -> tensor<4xf32>
// CHECK:           %[[C16:.+]] = arith.constant 16 : index
// CHECK:           scf.for %[[K:.+]] = %{{.+}} to %{{.+}} step %[[C16]] iter_args(%{{.+}} = %[[FILL]]) -> (tensor<4xf32>)
// CHECK:             tensor.extract_slice %{{.+}}[0, %[[K]]] [4, 16] [1, 1] : tensor<4x128xf32> to tensor<4x16xf32>
// CHECK:             linalg.generic
// CHECK-SAME:          iterator_types = ["parallel", "reduction"]
// CHECK-SAME:          ins(%{{.+}} : tensor<4x16xf32>) outs(%{{.+}} : tensor<4xf32>)
// CHECK-SAME:          attrs = {dlc.vectorize}
func.func @reduction(%a: tensor<4x128xf32>) -> tensor<4xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<4x128xf32>) outs(%f : tensor<4xf32>) attrs = {dlc.tile_sizes = array<i64: 4, 16>} {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %o, %x : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A convolution fuses its bias-broadcast accumulator (elementwise) but not
// the tensor.pad of its input; kh and c are tiled by 1 inside, kw is not.
// The untiled pad is not marked dlc.vectorize.
// CHECK-LABEL: func.func @conv_bias
// CHECK-NOT:     dlc.vectorize
// CHECK:         %[[PAD:.+]] = tensor.pad
// CHECK-NOT:     linalg.generic
// CHECK:         scf.forall ({{.+}}) = (0, 0, 0, 0) to (1, 16, 8, 8) step (1, 8, 1, 8)
// CHECK:           tensor.extract_slice %[[PAD]]
// CHECK:           %[[BIAS:.+]] = linalg.generic
// CHECK-SAME:        ins(%{{.+}} : tensor<8xf32>) outs(%{{.+}} : tensor<1x8x1x8xf32>)
// CHECK-SAME:        attrs = {dlc.vectorize}
// CHECK:           scf.for {{.+}} iter_args(%{{.+}} = %[[BIAS]]) -> (tensor<1x8x1x8xf32>)
// CHECK:             scf.for
// CHECK:               linalg.conv_2d_nchw_fchw
// CHECK-SAME:            dlc.vectorize
// CHECK-SAME:            ins(%{{.+}}, %{{.+}} : tensor<1x1x1x10xf32>, tensor<8x1x1x3xf32>) outs(%{{.+}} : tensor<1x8x1x8xf32>)
// CHECK-NOT:     dlc.tile_sizes
func.func @conv_bias(%x: tensor<1x3x8x8xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>) -> tensor<1x16x8x8xf32> {
  %cst = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %cst : f32
  } : tensor<1x3x8x8xf32> to tensor<1x3x10x10xf32>
  %e = tensor.empty() : tensor<1x16x8x8xf32>
  %init = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : tensor<16xf32>) outs(%e : tensor<1x16x8x8xf32>) attrs = {dlc.tile_sizes = array<i64: 1, 1, 1, 8>} {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x16x8x8xf32>
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, dlc.tile_sizes = array<i64: 1, 8, 1, 8, 1, 1, 0>}
       ins(%p, %w : tensor<1x3x10x10xf32>, tensor<16x3x3x3xf32>) outs(%init : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  return %0 : tensor<1x16x8x8xf32>
}

// -----

// An elementwise producer of a reduction's *input* (here a depthwise
// convolution in generic form, as grouped convolutions are lowered) is not
// fused: every tile would recompute it over its whole input window, and the
// vectorized tile would unroll it. It is tiled as its own op (its own
// scf.forall) before the reduction's loop nest.
// CHECK-LABEL: func.func @depthwise_clip_input
// CHECK:         %[[CLIP:.+]] = scf.forall
// CHECK:           linalg.generic
// CHECK:             arith.maximumf
// CHECK:         scf.forall
// CHECK-NOT:       arith.maximumf
// CHECK:           tensor.extract_slice %[[CLIP]]
// CHECK-NOT:       arith.maximumf
// CHECK:           linalg.generic
// CHECK:             arith.mulf
func.func @depthwise_clip_input(%x: tensor<1x32x9x9xf32>, %w: tensor<32x3x3xf32>, %o: tensor<1x32x7x7xf32>) -> tensor<1x32x7x7xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x32x9x9xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x32x9x9xf32>) outs(%e : tensor<1x32x9x9xf32>) attrs = {dlc.tile_sizes = array<i64: 1, 1, 1, 9>} {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %cst : f32
    linalg.yield %m : f32
  } -> tensor<1x32x9x9xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(n, c, h, w, kh, kw) -> (n, c, h + kh, w + kw)>, affine_map<(n, c, h, w, kh, kw) -> (c, kh, kw)>, affine_map<(n, c, h, w, kh, kw) -> (n, c, h, w)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%r, %w : tensor<1x32x9x9xf32>, tensor<32x3x3xf32>) outs(%o : tensor<1x32x7x7xf32>) attrs = {dlc.tile_sizes = array<i64: 1, 1, 1, 7, 0, 0>} {
  ^bb0(%in: f32, %f: f32, %out: f32):
    %m = arith.mulf %in, %f : f32
    %a = arith.addf %out, %m : f32
    linalg.yield %a : f32
  } -> tensor<1x32x7x7xf32>
  return %0 : tensor<1x32x7x7xf32>
}

// -----

// A convolution's epilogue (here a ReLU) is fused into the convolution's
// forall: each tile is reduced over channels (scf.for), then the ReLU runs
// on that tile before it is inserted. No separate loop remains.
// CHECK-LABEL: func.func @conv_epilogue
// CHECK:         scf.forall
// CHECK:           scf.for
// CHECK:             linalg.conv_2d_nchw_fchw
// CHECK:           linalg.generic
// CHECK:             arith.maximumf
// CHECK:           scf.forall.in_parallel
// CHECK-NOT:     scf.forall
// CHECK:         return
func.func @conv_epilogue(%x: tensor<1x64x7x7xf32>, %w: tensor<32x64x1x1xf32>, %o: tensor<1x32x7x7xf32>) -> tensor<1x32x7x7xf32> {
  %cst = arith.constant 0.0 : f32
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, dlc.tile_sizes = array<i64: 1, 32, 1, 7, 1, 1, 0>}
       ins(%x, %w : tensor<1x64x7x7xf32>, tensor<32x64x1x1xf32>) outs(%o : tensor<1x32x7x7xf32>) -> tensor<1x32x7x7xf32>
  %e = tensor.empty() : tensor<1x32x7x7xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"], dlc.epilogue_tile_sizes = array<i64: 1, 1, 1, 7>}
      ins(%0 : tensor<1x32x7x7xf32>) outs(%e : tensor<1x32x7x7xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %cst : f32
    linalg.yield %m : f32
  } -> tensor<1x32x7x7xf32>
  return %1 : tensor<1x32x7x7xf32>
}

// -----

// A per-channel scaling of a convolution's input (squeeze-excitation), used
// only by the convolution, is computed inside the channel loop on the slice
// each step reads; a residual add of two full tensors is not (recomputed
// per filter tile it would cost more than its own pass).
// CHECK-LABEL: func.func @scaled_input
// CHECK:         scf.forall
// CHECK:           scf.for
// CHECK:             %[[S:.+]] = linalg.generic
// CHECK:               arith.mulf
// CHECK:             linalg.conv_2d_nchw_fchw {{.+}} ins(%[[S]],
// CHECK-LABEL: func.func @added_input
// CHECK:         linalg.generic
// CHECK:           arith.addf
// CHECK:         scf.forall
// CHECK:           scf.for
// CHECK-NOT:         arith.addf
// CHECK:             linalg.conv_2d_nchw_fchw
func.func @scaled_input(%x: tensor<1x32x7x7xf32>, %s: tensor<1x32x1x1xf32>, %w: tensor<16x32x1x1xf32>, %o: tensor<1x16x7x7xf32>) -> tensor<1x16x7x7xf32> {
  %e = tensor.empty() : tensor<1x32x7x7xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"], dlc.tile_sizes = array<i64: 1, 1, 1, 7>}
      ins(%s, %x : tensor<1x32x1x1xf32>, tensor<1x32x7x7xf32>) outs(%e : tensor<1x32x7x7xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %p = arith.mulf %a, %b : f32
    linalg.yield %p : f32
  } -> tensor<1x32x7x7xf32>
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, dlc.tile_sizes = array<i64: 1, 16, 1, 7, 1, 1, 0>}
       ins(%m, %w : tensor<1x32x7x7xf32>, tensor<16x32x1x1xf32>) outs(%o : tensor<1x16x7x7xf32>) -> tensor<1x16x7x7xf32>
  return %0 : tensor<1x16x7x7xf32>
}
func.func @added_input(%x: tensor<1x32x7x7xf32>, %y: tensor<1x32x7x7xf32>, %w: tensor<16x32x1x1xf32>, %o: tensor<1x16x7x7xf32>) -> tensor<1x16x7x7xf32> {
  %e = tensor.empty() : tensor<1x32x7x7xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y, %x : tensor<1x32x7x7xf32>, tensor<1x32x7x7xf32>) outs(%e : tensor<1x32x7x7xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %p = arith.addf %a, %b : f32
    linalg.yield %p : f32
  } -> tensor<1x32x7x7xf32>
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, dlc.tile_sizes = array<i64: 1, 16, 1, 7, 1, 1, 0>}
       ins(%m, %w : tensor<1x32x7x7xf32>, tensor<16x32x1x1xf32>) outs(%o : tensor<1x16x7x7xf32>) -> tensor<1x16x7x7xf32>
  return %0 : tensor<1x16x7x7xf32>
}

// -----

// A tile size that does not divide its loop splits the op there: 40
// columns are one whole 32-column part and an 8-column remainder, each
// tiled statically in its own loop nest. Both fill their own slice of
// the destination (the whole-tensor fill is gone) and the remainder is
// inserted after the whole part.
// CHECK-LABEL: func.func @matmul_remainder
// CHECK-SAME:    (%[[A:.+]]: tensor<8x16xf32>, %[[B:.+]]: tensor<16x40xf32>)
// CHECK:         %[[EMPTY:.+]] = tensor.empty() : tensor<8x40xf32>
// CHECK-NOT:     linalg.fill {{.*}}tensor<8x40xf32>
// CHECK:         %[[W:.+]] = scf.forall ({{.+}}) = (0, 0) to (8, 32) step (8, 32)
// CHECK:           linalg.fill {dlc.vectorize} {{.+}} -> tensor<8x32xf32>
// CHECK:           linalg.matmul {dlc.vectorize} ins(%{{.+}}, %{{.+}} : tensor<8x1xf32>, tensor<1x32xf32>)
// CHECK:         %[[WI:.+]] = tensor.insert_slice %[[W]] into %[[EMPTY]][0, 0] [8, 32] [1, 1]
// CHECK:         %[[R:.+]] = scf.forall ({{.+}}) = (0, 0) to (8, 8) step (8, 8)
// CHECK:           linalg.fill {dlc.vectorize} {{.+}} -> tensor<8x8xf32>
// CHECK:           linalg.matmul {dlc.vectorize} ins(%{{.+}}, %{{.+}} : tensor<8x1xf32>, tensor<1x8xf32>)
// CHECK:         %[[RI:.+]] = tensor.insert_slice %[[R]] into %[[WI]][0, 32] [8, 8] [1, 1]
// CHECK:         return %[[RI]]
// CHECK-NOT:     dlc.tile_sizes
func.func @matmul_remainder(%a: tensor<8x16xf32>, %b: tensor<16x40xf32>) -> tensor<8x40xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x40xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<8x40xf32>) -> tensor<8x40xf32>
  %0 = linalg.matmul {dlc.tile_sizes = array<i64: 8, 32, 1>} ins(%a, %b : tensor<8x16xf32>, tensor<16x40xf32>) outs(%f : tensor<8x40xf32>) -> tensor<8x40xf32>
  return %0 : tensor<8x40xf32>
}

// -----

// A split convolution takes its bias broadcast and its epilogue (a ReLU)
// with it: 24 filters are a 16-filter part and an 8-filter remainder, each
// starting from its own slice of the bias and ending with its own ReLU in
// one loop nest, instead of a pass over the whole output before and one
// after. The parts' results are joined in the epilogue's destination.
// CHECK-LABEL: func.func @conv_remainder_bias_relu
// CHECK-NOT:     linalg.generic
// CHECK:         %[[W:.+]]:2 = scf.forall ({{.+}}) = (0, 0, 0, 0) to (1, 16, 8, 8)
// CHECK:           linalg.generic {{.+}} ins(%{{.+}} : tensor<16xf32>)
// CHECK:           linalg.conv_2d_nchw_fchw
// CHECK:           arith.maximumf
// CHECK:         %[[WI:.+]] = tensor.insert_slice %[[W]]#1 into %{{.+}}[0, 0, 0, 0] [1, 16, 8, 8]
// CHECK-NOT:     linalg.generic
// CHECK:         %[[R:.+]]:2 = scf.forall ({{.+}}) = (0, 0, 0, 0) to (1, 8, 8, 8)
// CHECK:           linalg.generic {{.+}} ins(%{{.+}} : tensor<8xf32>)
// CHECK:           linalg.conv_2d_nchw_fchw
// CHECK:           arith.maximumf
// CHECK:         %[[RI:.+]] = tensor.insert_slice %[[R]]#1 into %[[WI]][0, 16, 0, 0] [1, 8, 8, 8]
// CHECK:         return %[[RI]]
func.func @conv_remainder_bias_relu(%x: tensor<1x8x8x8xf32>, %w: tensor<24x8x1x1xf32>, %b: tensor<24xf32>) -> tensor<1x24x8x8xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x24x8x8xf32>
  %init = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : tensor<24xf32>) outs(%e : tensor<1x24x8x8xf32>) attrs = {dlc.tile_sizes = array<i64: 1, 1, 1, 8>} {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x24x8x8xf32>
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, dlc.tile_sizes = array<i64: 1, 16, 1, 8, 1, 1, 0>}
       ins(%x, %w : tensor<1x8x8x8xf32>, tensor<24x8x1x1xf32>) outs(%init : tensor<1x24x8x8xf32>) -> tensor<1x24x8x8xf32>
  %e2 = tensor.empty() : tensor<1x24x8x8xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"], dlc.epilogue_tile_sizes = array<i64: 1, 1, 1, 8>}
      ins(%0 : tensor<1x24x8x8xf32>) outs(%e2 : tensor<1x24x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %cst : f32
    linalg.yield %m : f32
  } -> tensor<1x24x8x8xf32>
  return %1 : tensor<1x24x8x8xf32>
}

// -----

// A remainder with its own tile sizes (dlc.remainder_tile_sizes): 10
// columns by tiles of 4 leave 2, tiled by 2 rows of 2 columns; the whole
// part keeps 1 row of 4. Neither part keeps the attribute.
// CHECK-LABEL: func.func @conv_remainder_rows
// CHECK:         scf.forall ({{.+}}) = (0, 0, 0, 0) to (1, 16, 6, 8) step (1, 16, 1, 4)
// CHECK:           linalg.conv_2d_nchw_fchw {{.+}} outs(%{{.+}} : tensor<1x16x1x4xf32>)
// CHECK:         scf.forall ({{.+}}) = (0, 0, 0, 0) to (1, 16, 6, 2) step (1, 16, 2, 2)
// CHECK:           linalg.conv_2d_nchw_fchw {{.+}} outs(%{{.+}} : tensor<1x16x2x2xf32>)
// CHECK-NOT:     dlc.remainder_tile_sizes
func.func @conv_remainder_rows(%x: tensor<1x8x8x12xf32>, %w: tensor<16x8x3x3xf32>, %o: tensor<1x16x6x10xf32>) -> tensor<1x16x6x10xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>,
                                 dlc.tile_sizes = array<i64: 1, 16, 1, 4, 1, 1, 1>, dlc.remainder_tile_sizes = array<i64: 1, 16, 2, 2, 1, 1, 1>}
       ins(%x, %w : tensor<1x8x8x12xf32>, tensor<16x8x3x3xf32>) outs(%o : tensor<1x16x6x10xf32>) -> tensor<1x16x6x10xf32>
  return %0 : tensor<1x16x6x10xf32>
}

// -----

// An elementwise producer that two consumers read is computed once, in its
// own loop nest, not again inside each consumer's tiles (a chain of them, an
// LSTM's cell state, would be recomputed from its start by every step).
// CHECK-LABEL: func.func @shared_producer
// CHECK:         scf.forall
// CHECK:           arith.negf
// CHECK:         scf.forall
// CHECK-NOT:       arith.negf
// CHECK:           math.exp
// CHECK:         scf.forall
// CHECK-NOT:       arith.negf
// CHECK:           math.tanh
func.func @shared_producer(%a: tensor<4x32xf32>) -> (tensor<4x32xf32>, tensor<4x32xf32>) {
  %e = tensor.empty() : tensor<4x32xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x32xf32>) outs(%e : tensor<4x32xf32>) attrs = {dlc.tile_sizes = array<i64: 1, 16>} {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  } -> tensor<4x32xf32>
  %c1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%p : tensor<4x32xf32>) outs(%e : tensor<4x32xf32>) attrs = {dlc.tile_sizes = array<i64: 1, 16>} {
  ^bb0(%x: f32, %o: f32):
    %n = math.exp %x : f32
    linalg.yield %n : f32
  } -> tensor<4x32xf32>
  %c2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%p : tensor<4x32xf32>) outs(%e : tensor<4x32xf32>) attrs = {dlc.tile_sizes = array<i64: 1, 16>} {
  ^bb0(%x: f32, %o: f32):
    %n = math.tanh %x : f32
    linalg.yield %n : f32
  } -> tensor<4x32xf32>
  return %c1, %c2 : tensor<4x32xf32>, tensor<4x32xf32>
}

// -----

// dlc.reduction_order puts a convolution's window loops (kh, kw) outside
// its channel loop; dlc.parallel_order makes a matmul's row blocks the inner
// tile loop (columns first).
// CHECK-LABEL: func.func @orders
// CHECK:         scf.forall ({{.+}}) = (0, 0, 0, 0) to (1, 8, 8, 8) step (1, 8, 1, 8)
// CHECK:           scf.for %{{.+}} = %{{.+}} to %c3
// CHECK:             scf.for %{{.+}} = %{{.+}} to %c3
// CHECK:               scf.for %{{.+}} = %{{.+}} to %c16
// CHECK:                 linalg.conv_2d_nchw_fchw
// CHECK:         scf.forall ({{.+}}) = (0, 0) to (32, 12) step (16, 6)
// CHECK:           scf.for %{{.+}} = %{{.+}} to %c4
// CHECK:             linalg.matmul
func.func @orders(%x: tensor<1x16x10x10xf32>, %w: tensor<8x16x3x3xf32>, %o: tensor<1x8x8x8xf32>,
                  %a: tensor<12x4xf32>, %b: tensor<4x32xf32>, %c: tensor<12x32xf32>) -> (tensor<1x8x8x8xf32>, tensor<12x32xf32>) {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>,
         dlc.reduction_order = array<i64: 0, 1, 2, 3, 5, 6, 4>, dlc.tile_sizes = array<i64: 1, 8, 1, 8, 1, 1, 1>}
         ins(%x, %w : tensor<1x16x10x10xf32>, tensor<8x16x3x3xf32>) outs(%o : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %1 = linalg.matmul {dlc.parallel_order = array<i64: 1, 0, 2>, dlc.tile_sizes = array<i64: 6, 16, 1>}
         ins(%a, %b : tensor<12x4xf32>, tensor<4x32xf32>) outs(%c : tensor<12x32xf32>) -> tensor<12x32xf32>
  return %0, %1 : tensor<1x8x8x8xf32>, tensor<12x32xf32>
}

// -----

// The same scaling with dlc.unfused_inputs on the convolution (16-register
// targets): the scaling stays its own op, outside the convolution's loops.
// CHECK-LABEL: func.func @scaled_input_unfused
// CHECK:         linalg.generic
// CHECK:           arith.mulf
// CHECK:         scf.forall
// CHECK:           scf.for
// CHECK-NOT:         arith.mulf
// CHECK:             linalg.conv_2d_nchw_fchw
func.func @scaled_input_unfused(%x: tensor<1x32x7x7xf32>, %s: tensor<1x32x1x1xf32>, %w: tensor<16x32x1x1xf32>, %o: tensor<1x16x7x7xf32>) -> tensor<1x16x7x7xf32> {
  %e = tensor.empty() : tensor<1x32x7x7xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"], dlc.tile_sizes = array<i64: 1, 1, 1, 7>}
      ins(%s, %x : tensor<1x32x1x1xf32>, tensor<1x32x7x7xf32>) outs(%e : tensor<1x32x7x7xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %p = arith.mulf %a, %b : f32
    linalg.yield %p : f32
  } -> tensor<1x32x7x7xf32>
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, dlc.tile_sizes = array<i64: 1, 16, 1, 7, 1, 1, 0>, dlc.unfused_inputs}
       ins(%m, %w : tensor<1x32x7x7xf32>, tensor<16x32x1x1xf32>) outs(%o : tensor<1x16x7x7xf32>) -> tensor<1x16x7x7xf32>
  return %0 : tensor<1x16x7x7xf32>
}

// -----

// A contraction with dlc.panel_tile_sizes (a pointwise convolution reading
// a computed image): the remainder of its rows (16 = 12 + 4) is split off
// first and reads in place; the whole part's tiles copy their panel of the
// image (8 channels by 2 x 8 pixels) into a dense tensor, then run their
// blocks of 6 rows in a sequential loop over it, each from its slice of the
// bias and ending with its ReLU. The loop no longer carries the
// contraction's result (only the ReLU reads it): the bias starts from an
// empty tensor, not from a slice of that carried value.
// CHECK-LABEL: func.func @panel
// CHECK:         scf.forall ({{.+}}) = (0) to (4) step (2) shared_outs({{.+}}) -> (tensor<1x12x4x8xf32>)
// CHECK:           %[[DENSE:.+]] = tensor.empty() : tensor<1x8x2x8xf32>
// CHECK:           %[[PANEL:.+]] = scf.for {{.+}} iter_args(%{{.+}} = %[[DENSE]])
// CHECK:             linalg.copy {dlc.vectorize} ins(%{{.+}} : tensor<1x1x2x8xf32>)
// CHECK:           scf.for %{{.+}} = %{{.+}} to %c12 step %c6
// CHECK:             tensor.extract_slice %[[PANEL]][0, 0, 0, 0] [1, 8, 2, 8]
// CHECK:             %[[ACC:.+]] = tensor.empty() : tensor<1x6x2x8xf32>
// CHECK:             linalg.generic {{.+}} ins(%{{.+}} : tensor<6xf32>) outs(%[[ACC]] : tensor<1x6x2x8xf32>)
// CHECK:             scf.for
// CHECK:               linalg.generic {{.+}} ins(%{{.+}}, %{{.+}} : tensor<6x1xf32>, tensor<1x1x2x8xf32>) outs(%{{.+}} : tensor<1x6x2x8xf32>)
// CHECK:             arith.maximumf
// CHECK:         scf.forall ({{.+}}) = (0, 0, 0, 0) to (1, 4, 8, 4) step (1, 2, 8, 4)
// CHECK-NOT:       linalg.copy
// CHECK:           linalg.generic {{.+}} ins(%{{.+}} : tensor<4xf32>)
// CHECK:           linalg.generic {{.+}} outs(%{{.+}} : tensor<1x4x2x8xf32>)
// CHECK:           arith.maximumf
// CHECK-NOT:     dlc.panel_tile_sizes
// CHECK-NOT:     dlc.sequential_tiles
func.func @panel(%x: tensor<1x8x4x8xf32>, %w: tensor<16x8xf32>, %b: tensor<16xf32>) -> tensor<1x16x4x8xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x4x8xf32>
  %init = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : tensor<16xf32>) outs(%e : tensor<1x16x4x8xf32>) attrs = {dlc.tile_sizes = array<i64: 1, 1, 1, 8>} {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x16x4x8xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d1, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%w, %x : tensor<16x8xf32>, tensor<1x8x4x8xf32>) outs(%init : tensor<1x16x4x8xf32>)
      attrs = {dlc.panel_tile_sizes = array<i64: 1, 0, 2, 8, 0>, dlc.parallel_order = array<i64: 0, 2, 3, 1, 4>, dlc.tile_sizes = array<i64: 1, 6, 2, 8, 1>} {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x16x4x8xf32>
  %e2 = tensor.empty() : tensor<1x16x4x8xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%0 : tensor<1x16x4x8xf32>) outs(%e2 : tensor<1x16x4x8xf32>) attrs = {dlc.epilogue_tile_sizes = array<i64: 1, 1, 1, 8>} {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %cst : f32
    linalg.yield %m : f32
  } -> tensor<1x16x4x8xf32>
  return %1 : tensor<1x16x4x8xf32>
}
