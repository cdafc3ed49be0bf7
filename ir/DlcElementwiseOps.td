//===- DlcElementwiseOps.td - elementwise dlc ops ----------*- tablegen -*-===//
//
// Included by DlcOps.td. Every op here lowers through one table of scalar
// builders (passes/lowering/Elementwise.cpp).
//
//===----------------------------------------------------------------------===//

// Float unary math without attributes.
def Dlc_ExpOp : Dlc_UnaryOp<"exp", "Exp">;
def Dlc_LogOp : Dlc_UnaryOp<"log", "Log">;
def Dlc_SqrtOp : Dlc_UnaryOp<"sqrt", "Sqrt">;
def Dlc_ReciprocalOp : Dlc_UnaryOp<"reciprocal", "Reciprocal">;
def Dlc_FloorOp : Dlc_UnaryOp<"floor", "Floor">;
def Dlc_CeilOp : Dlc_UnaryOp<"ceil", "Ceil">;
def Dlc_RoundOp : Dlc_UnaryOp<"round", "Round">;
def Dlc_SinOp : Dlc_UnaryOp<"sin", "Sin">;
def Dlc_CosOp : Dlc_UnaryOp<"cos", "Cos">;
def Dlc_TanOp : Dlc_UnaryOp<"tan", "Tan">;
def Dlc_AsinOp : Dlc_UnaryOp<"asin", "Asin">;
def Dlc_AcosOp : Dlc_UnaryOp<"acos", "Acos">;
def Dlc_AtanOp : Dlc_UnaryOp<"atan", "Atan">;
def Dlc_SinhOp : Dlc_UnaryOp<"sinh", "Sinh">;
def Dlc_CoshOp : Dlc_UnaryOp<"cosh", "Cosh">;
def Dlc_AsinhOp : Dlc_UnaryOp<"asinh", "Asinh">;
def Dlc_AcoshOp : Dlc_UnaryOp<"acosh", "Acosh">;
def Dlc_AtanhOp : Dlc_UnaryOp<"atanh", "Atanh">;
def Dlc_ErfOp : Dlc_UnaryOp<"erf", "Erf">;
def Dlc_SoftplusOp : Dlc_UnaryOp<"softplus", "Softplus">;
def Dlc_SoftsignOp : Dlc_UnaryOp<"softsign", "Softsign">;
def Dlc_HardSwishOp : Dlc_UnaryOp<"hard_swish", "HardSwish">;

// Unary ops on any numeric type.
class Dlc_NumericUnaryOp<string mnemonic, string onnxName>
    : Dlc_Op<mnemonic, [SameOperandsAndResultType, Dlc_LowersDynamicShapes]> {
  let summary = "elementwise " # onnxName;
  let description = [{
    ONNX `}] # onnxName # [{` on floats and integers.

    ```mlir
    %y = dlc.}] # mnemonic # [{ %x : tensor<4xi32>
    ```
  }];
  let arguments = (ins Dlc_Tensor:$input);
  let results = (outs Dlc_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}
def Dlc_AbsOp : Dlc_NumericUnaryOp<"abs", "Abs">;
def Dlc_NegOp : Dlc_NumericUnaryOp<"neg", "Neg"> { let hasFolder = 1; }
def Dlc_SignOp : Dlc_NumericUnaryOp<"sign", "Sign">;
def Dlc_NotOp : Dlc_NumericUnaryOp<"not", "Not">;

// Float activations with up to two scalar parameters.
class Dlc_ActivationOp<string mnemonic, string onnxName, string formula>
    : Dlc_Op<mnemonic, [SameOperandsAndResultType, Dlc_LowersDynamicShapes]> {
  let summary = "elementwise " # onnxName;
  let description = [{
    ONNX `}] # onnxName # [{`: `}] # formula # [{`. The importer fills in
    ONNX's defaults for the parameters.

    ```mlir
    %y = dlc.}] # mnemonic # [{ %x {alpha = 1.0 : f32, beta = 0.0 : f32} : tensor<4xf32>
    ```
  }];
  let arguments = (ins Dlc_FloatTensor:$input, F32Attr:$alpha, F32Attr:$beta);
  let results = (outs Dlc_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}
def Dlc_LeakyReluOp : Dlc_ActivationOp<"leaky_relu", "LeakyRelu",
                                       "x < 0 ? alpha * x : x">;
def Dlc_EluOp : Dlc_ActivationOp<"elu", "Elu", "x < 0 ? alpha * (exp(x) - 1) : x">;
def Dlc_SeluOp : Dlc_ActivationOp<"selu", "Selu",
    "beta * (x <= 0 ? alpha * (exp(x) - 1) : x), beta = gamma">;
def Dlc_HardSigmoidOp : Dlc_ActivationOp<"hard_sigmoid", "HardSigmoid",
                                         "max(0, min(1, alpha * x + beta))">;
def Dlc_ThresholdedReluOp : Dlc_ActivationOp<"thresholded_relu",
    "ThresholdedRelu", "x > alpha ? x : 0">;
def Dlc_CeluOp : Dlc_ActivationOp<"celu", "Celu",
                                  "max(0, x) + min(0, alpha * (exp(x / alpha) - 1))">;
def Dlc_ShrinkOp : Dlc_ActivationOp<"shrink", "Shrink",
    "x < -alpha ? x + beta : x > alpha ? x - beta : 0, alpha = lambd, beta = bias">;

// Binary ops with numpy broadcasting, same element types.
def Dlc_PowOp : Dlc_BinaryOp<"pow", "Pow">;
def Dlc_MaxOp : Dlc_BinaryOp<"max", "Max">;
def Dlc_MinOp : Dlc_BinaryOp<"min", "Min">;
def Dlc_ModOp : Dlc_BinaryOp<"mod", "Mod (fmod=0: the result takes the divisor's sign)">;
def Dlc_FmodOp : Dlc_BinaryOp<"fmod", "Mod (fmod=1: the result takes the dividend's sign)">;
def Dlc_PReluOp : Dlc_BinaryOp<"prelu", "PRelu">;
def Dlc_ShiftLeftOp : Dlc_BinaryOp<"shift_left", "BitShift (LEFT)">;
def Dlc_ShiftRightOp : Dlc_BinaryOp<"shift_right", "BitShift (RIGHT, logical)">;
def Dlc_AndOp : Dlc_BinaryOp<"and", "And">;
def Dlc_OrOp : Dlc_BinaryOp<"or", "Or">;
def Dlc_XorOp : Dlc_BinaryOp<"xor", "Xor">;

// Comparisons: boolean results.
class Dlc_CompareOp<string mnemonic, string onnxName>
    : Dlc_Op<mnemonic, [InferTypeOpAdaptor, Dlc_LowersDynamicShapes]> {
  let summary = "elementwise " # onnxName # " with numpy broadcasting";
  let description = [{
    ONNX `}] # onnxName # [{`; the result is `i1`.

    ```mlir
    %c = dlc.}] # mnemonic # [{ %a, %b : tensor<3xf32>, tensor<3xf32> -> tensor<3xi1>
    ```
  }];
  let arguments = (ins Dlc_Tensor:$lhs, Dlc_Tensor:$rhs);
  let results = (outs Dlc_Tensor:$result);
  let assemblyFormat =
      "$lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)";
}
def Dlc_EqualOp : Dlc_CompareOp<"equal", "Equal">;
def Dlc_LessOp : Dlc_CompareOp<"less", "Less">;
def Dlc_LessOrEqualOp : Dlc_CompareOp<"less_or_equal", "LessOrEqual">;
def Dlc_GreaterOp : Dlc_CompareOp<"greater", "Greater">;
def Dlc_GreaterOrEqualOp : Dlc_CompareOp<"greater_or_equal", "GreaterOrEqual">;

def Dlc_IsNaNOp : Dlc_Op<"is_nan", [Dlc_LowersDynamicShapes]> {
  let summary = "elementwise test for NaN (ONNX IsNaN)";
  let description = [{
    ```mlir
    %m = dlc.is_nan %x : tensor<4xf32> -> tensor<4xi1>
    ```
  }];
  let arguments = (ins Dlc_FloatTensor:$input);
  let results = (outs Dlc_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

def Dlc_IsInfOp : Dlc_Op<"is_inf", [Dlc_LowersDynamicShapes]> {
  let summary = "elementwise test for infinities (ONNX IsInf)";
  let description = [{
    ```mlir
    %m = dlc.is_inf %x {detect_negative = true, detect_positive = true} : tensor<4xf32> -> tensor<4xi1>
    ```
  }];
  let arguments = (ins Dlc_FloatTensor:$input, BoolAttr:$detect_negative,
                   BoolAttr:$detect_positive);
  let results = (outs Dlc_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

def Dlc_WhereOp : Dlc_Op<"where",
    [InferTypeOpAdaptor, Dlc_LowersDynamicShapes]> {
  let summary = "select elements by a condition, with broadcasting (ONNX Where)";
  let description = [{
    ```mlir
    %y = dlc.where %c, %a, %b : tensor<2xi1>, tensor<2xf32>, tensor<2xf32> -> tensor<2xf32>
    ```
  }];
  let arguments = (ins Dlc_Tensor:$condition, Dlc_Tensor:$lhs, Dlc_Tensor:$rhs);
  let results = (outs Dlc_Tensor:$result);
  let assemblyFormat = [{
    $condition `,` $lhs `,` $rhs attr-dict `:` type($condition) `,` type($lhs)
    `,` type($rhs) `->` type($result)
  }];
}

def Dlc_CastOp : Dlc_Op<"cast", [Dlc_LowersDynamicShapes]> {
  let summary = "convert element types (ONNX Cast)";
  let description = [{
    `unsigned_source` / `unsigned_result` mark unsigned ONNX integer types
    (MLIR integers are signless).

    ```mlir
    %y = dlc.cast %x : tensor<4xf32> -> tensor<4xi64>
    ```
  }];
  let arguments = (ins Dlc_Tensor:$input, UnitAttr:$unsigned_source,
                   UnitAttr:$unsigned_result);
  let results = (outs Dlc_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}
