// Classifies the held-out digits with the library that
//   dlc compile examples/digits/digits.onnx -o OUTDIR --name digits
// generates, and reports the accuracy.
//
// Usage: digits digits_test.bin
// The test set (written by train.py) is little-endian: "DIGT", uint32 count, then
// count records of 64 float32 pixels in [0, 1] and a uint8 label.
#include "digits.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

namespace {

constexpr size_t kPixels = 64;
constexpr size_t kClasses = 10;

struct Example {
  float pixels[kPixels];
  int label;
};

uint32_t le32(const unsigned char *p) {
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

bool load_test_set(const char *path, std::vector<Example> *out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "cannot open %s\n", path);
    return false;
  }
  std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)),
                                   std::istreambuf_iterator<char>());
  constexpr size_t kRecord = kPixels * 4 + 1;
  if (bytes.size() < 8 || std::memcmp(bytes.data(), "DIGT", 4) != 0 ||
      bytes.size() != 8 + size_t(le32(&bytes[4])) * kRecord) {
    std::fprintf(stderr, "%s is not a digits test set\n", path);
    return false;
  }
  out->resize(le32(&bytes[4]));
  const unsigned char *p = bytes.data() + 8;
  for (Example &ex : *out) {
    for (float &pixel : ex.pixels) {
      uint32_t bits = le32(p);
      std::memcpy(&pixel, &bits, sizeof pixel);
      p += 4;
    }
    ex.label = *p++;
  }
  return true;
}

// Returns true when `status` is success; otherwise prints it, frees it, returns false.
bool ok(dlc_status *status, const char *what) {
  if (status == nullptr) return true;
  std::fprintf(stderr, "%s failed: %s\n", what, dlc_status_message(status));
  dlc_status_free(status);
  return false;
}

std::string shape_string(int32_t rank, const int64_t *shape) {
  std::string s = "[";
  for (int32_t d = 0; d < rank; ++d) s += (d ? ", " : "") + std::to_string(shape[d]);
  return s + "]";
}

void describe_model() {
  std::printf("model digits: workspace %zu bytes\n", digits_workspace_size());
  for (size_t i = 0; i < digits_num_inputs(); ++i)
    std::printf("  input %zu: %s %s%s, %zu bytes\n", i, digits_input_name(i),
                dlc_dtype_name(digits_input_dtype(i)),
                shape_string(digits_input_rank(i), digits_input_shape(i)).c_str(),
                digits_input_size_bytes(i));
  for (size_t i = 0; i < digits_num_outputs(); ++i)
    std::printf("  output %zu: %s %s%s, %zu bytes\n", i, digits_output_name(i),
                dlc_dtype_name(digits_output_dtype(i)),
                shape_string(digits_output_rank(i), digits_output_shape(i)).c_str(),
                digits_output_size_bytes(i));
}

}  // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s digits_test.bin\n", argv[0]);
    return 2;
  }
  std::vector<Example> examples;
  if (!load_test_set(argv[1], &examples)) return 1;

  describe_model();
  if (digits_num_inputs() != 1 || digits_num_outputs() != 1 ||
      digits_input_dtype(0) != DLC_DTYPE_F32 || digits_output_dtype(0) != DLC_DTYPE_F32 ||
      digits_input_size_bytes(0) != kPixels * sizeof(float) ||
      digits_output_size_bytes(0) != kClasses * sizeof(float)) {
    std::fprintf(stderr, "the model is not f32[1,1,8,8] -> f32[1,10]\n");
    return 1;
  }

  digits_model *raw = nullptr;
  if (!ok(digits_create(nullptr, &raw), "digits_create")) return 1;
  std::unique_ptr<digits_model, void (*)(digits_model *)> model(raw, digits_destroy);

  float input_data[kPixels];
  std::vector<float> probs(digits_output_size_bytes(0) / sizeof(float));
  dlc_tensor input = {input_data, sizeof input_data, DLC_DTYPE_F32, digits_input_rank(0),
                      digits_input_shape(0)};
  dlc_tensor output = {probs.data(), digits_output_size_bytes(0), DLC_DTYPE_F32,
                       digits_output_rank(0), digits_output_shape(0)};

  // The error path: same bytes, wrong shape. run must refuse it.
  const int64_t wrong_shape[] = {1, 64};
  dlc_tensor wrong = input;
  wrong.rank = 2;
  wrong.shape = wrong_shape;
  dlc_status *status = digits_run(model.get(), &wrong, 1, &output, 1);
  if (status == nullptr) {
    std::fprintf(stderr, "digits_run accepted an input of shape [1, 64]\n");
    return 1;
  }
  std::printf("expected error: %s\n", dlc_status_message(status));
  bool invalid_argument = dlc_status_code_of(status) == DLC_INVALID_ARGUMENT;
  dlc_status_free(status);
  if (!invalid_argument) {
    std::fprintf(stderr, "expected DLC_INVALID_ARGUMENT for the wrong shape\n");
    return 1;
  }

  size_t correct = 0;
  for (size_t n = 0; n < examples.size(); ++n) {
    std::memcpy(input_data, examples[n].pixels, sizeof input_data);
    if (!ok(digits_run(model.get(), &input, 1, &output, 1), "digits_run")) return 1;
    size_t best = 0;
    for (size_t c = 1; c < kClasses; ++c)
      if (probs[c] > probs[best]) best = c;
    correct += int(best) == examples[n].label;
    if (n < 10)
      std::printf("image %zu: predicted %zu (label %d, p=%.3f)\n", n, best, examples[n].label,
                  probs[best]);
  }

  double accuracy = examples.empty() ? 0.0 : double(correct) / examples.size();
  std::printf("accuracy: %.4f (%zu/%zu)\n", accuracy, correct, examples.size());
  return accuracy >= 0.9 ? 0 : 1;
}
