//===- CompilerTest.cpp - the compiler library's C++ API ------------------===//
//
// Calls compileModel as an application embedding dlc would: options in,
// the model's description, object and structured errors out. Expected
// values come from the ONNX files themselves (read here with ONNX's own
// protobuf classes) and from the runtime's ABI header.
//
//===----------------------------------------------------------------------===//
#include "compiler/Compiler.h"
#include "compiler/Diagnostics.h"

#include "dlc/dlc_runtime.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/raw_ostream.h"

#include "test/common/TempModel.h"

#include "onnx/onnx_pb.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <unistd.h>

namespace {

/// A context as dlc's tools set it up.
struct Compiler {
  std::unique_ptr<mlir::MLIRContext> context = dlc::createCompilerContext();
};

/// A one-node model `y = OP(x, x)` of element type `type` (OP in `domain`),
/// written to a temporary file whose path is returned.
std::string writeModel(const std::string &op, int type,
                       const std::string &domain = "") {
  onnx::ModelProto model;
  model.set_ir_version(8);
  model.add_opset_import()->set_version(13);
  if (!domain.empty()) {
    auto *opset = model.add_opset_import();
    opset->set_domain(domain);
    opset->set_version(1);
  }
  onnx::GraphProto *graph = model.mutable_graph();
  graph->set_name("g");
  onnx::NodeProto *node = graph->add_node();
  node->set_name("the_node");
  node->set_op_type(op);
  node->set_domain(domain);
  node->add_input("x");
  node->add_input("x");
  node->add_output("y");
  for (auto [list, name] : {std::pair{graph->add_input(), "x"},
                            std::pair{graph->add_output(), "y"}}) {
    list->set_name(name);
    auto *tensor = list->mutable_type()->mutable_tensor_type();
    tensor->set_elem_type(type);
    tensor->mutable_shape()->add_dim()->set_dim_value(3);
    tensor->mutable_shape()->add_dim()->set_dim_value(5);
  }
  return dlc::test::writeTempModel(model, "dlc-compiler-test");
}

TEST(CompilerLibrary, CompilesTheBundledModelToAnObject) {
  std::string path = DLC_SOURCE_DIR "/examples/digits/digits.onnx";
  onnx::ModelProto model;
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(model.ParseFromIstream(&in));
  const onnx::ValueInfoProto &input = model.graph().input(0);

  Compiler c;
  dlc::CompileOptions options;
  options.name = "digits";
  dlc::CompiledModel result;
  dlc::DiagnosticCollector diags(*c.context);
  ASSERT_TRUE(succeeded(dlc::compileModel(
      *c.context, path, options, dlc::Stage::Obj, llvm::nulls(), result)));
  EXPECT_TRUE(diags.errors().empty());
  ASSERT_EQ(result.info.inputs.size(), 1u);
  EXPECT_EQ(result.info.inputs[0].name, input.name());
  EXPECT_EQ(result.info.inputs[0].dtype, DLC_DTYPE_F32);
  const auto &dims = input.type().tensor_type().shape().dim();
  ASSERT_EQ(result.info.inputs[0].shape.size(), (size_t)dims.size());
  for (int d = 0; d < dims.size(); ++d)
    if (dims[d].has_dim_value())
      EXPECT_EQ(result.info.inputs[0].shape[d], dims[d].dim_value());
  ASSERT_EQ(result.info.outputs.size(), (size_t)model.graph().output_size());
  EXPECT_EQ(result.info.outputs[0].name, model.graph().output(0).name());
  // An ELF object.
  ASSERT_GT(result.object.size(), 4u);
  EXPECT_EQ(std::string(result.object.data(), 4), "\x7f"
                                                  "ELF");
}

TEST(CompilerLibrary, DtypeCodesAreTheRuntimes) {
  std::string path = writeModel("Add", onnx::TensorProto::INT64);
  Compiler c;
  dlc::CompiledModel result;
  ASSERT_TRUE(
      succeeded(dlc::compileModel(*c.context, path, dlc::CompileOptions(),
                                  dlc::Stage::Obj, llvm::nulls(), result)));
  std::remove(path.c_str());
  ASSERT_EQ(result.info.inputs.size(), 1u);
  EXPECT_EQ(result.info.inputs[0].dtype, DLC_DTYPE_I64);
  EXPECT_EQ(result.info.inputs[0].sizeBytes, 3u * 5u * 8u);
  ASSERT_EQ(result.info.outputs.size(), 1u);
  EXPECT_EQ(result.info.outputs[0].dtype, DLC_DTYPE_I64);
}

TEST(CompilerLibrary, ErrorsAreValuesNamingFileAndNode) {
  // A custom domain's op: the ONNX checker accepts it, dlc's importer
  // does not know it.
  std::string path =
      writeModel("NoSuchOp", onnx::TensorProto::FLOAT, "com.example");
  Compiler c;
  dlc::CompiledModel result;
  dlc::DiagnosticCollector diags(*c.context);
  EXPECT_TRUE(
      failed(dlc::compileModel(*c.context, path, dlc::CompileOptions(),
                               dlc::Stage::Obj, llvm::nulls(), result)));
  std::remove(path.c_str());
  ASSERT_FALSE(diags.errors().empty());
  const dlc::CompileError &e = diags.errors().front();
  EXPECT_EQ(e.file, path);
  EXPECT_EQ(e.node, "the_node");
  EXPECT_EQ(e.op, "NoSuchOp");
  EXPECT_NE(e.message.find("NoSuchOp"), std::string::npos) << e.message;
  EXPECT_EQ(e.str().rfind(path + ": node 'the_node': ", 0), 0u) << e.str();
}

TEST(CompilerLibrary, AMissingFileIsAnErrorWithoutANode) {
  Compiler c;
  dlc::CompiledModel result;
  dlc::DiagnosticCollector diags(*c.context);
  EXPECT_TRUE(failed(dlc::compileModel(*c.context, "/nonexistent/model.onnx",
                                       dlc::CompileOptions(), dlc::Stage::Obj,
                                       llvm::nulls(), result)));
  ASSERT_FALSE(diags.errors().empty());
  EXPECT_TRUE(diags.errors().front().node.empty());
  EXPECT_TRUE(diags.errors().front().op.empty());
  EXPECT_NE(diags.errors().front().str().find("/nonexistent/model.onnx"),
            std::string::npos)
      << diags.errors().front().str();
}

} // namespace
