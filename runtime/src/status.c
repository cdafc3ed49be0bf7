/*===- status.c - status objects and element types -----------------------===*/
#include "dlc/dlc_model_abi.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct dlc_status {
  dlc_status_code code;
  int is_static;
  char message[];
};

/* Returned when even the status cannot be allocated; never freed. */
static struct {
  dlc_status_code code;
  int is_static;
  char message[32];
} out_of_memory_status = {DLC_OUT_OF_MEMORY, 1, "out of memory"};

dlc_status *dlcrt_status_create(dlc_status_code code, const char *format,
                                ...) {
  va_list args;
  va_start(args, format);
  int len = vsnprintf(NULL, 0, format, args);
  va_end(args);
  if (len < 0)
    len = 0;
  dlc_status *status = malloc(sizeof(dlc_status) + (size_t)len + 1);
  if (!status)
    return (dlc_status *)&out_of_memory_status;
  status->code = code == DLC_OK ? DLC_INTERNAL : code;
  status->is_static = 0;
  va_start(args, format);
  vsnprintf(status->message, (size_t)len + 1, format, args);
  va_end(args);
  return status;
}

dlc_status_code dlc_status_code_of(const dlc_status *status) {
  return status ? status->code : DLC_OK;
}

const char *dlc_status_message(const dlc_status *status) {
  return status ? status->message : "ok";
}

void dlc_status_free(dlc_status *status) {
  if (status && !status->is_static)
    free(status);
}

size_t dlc_dtype_size(dlc_dtype dtype) {
  switch (dtype) {
  case DLC_DTYPE_F64:
  case DLC_DTYPE_I64:
  case DLC_DTYPE_U64:
    return 8;
  case DLC_DTYPE_F32:
  case DLC_DTYPE_I32:
  case DLC_DTYPE_U32:
    return 4;
  case DLC_DTYPE_F16:
  case DLC_DTYPE_BF16:
  case DLC_DTYPE_I16:
  case DLC_DTYPE_U16:
    return 2;
  case DLC_DTYPE_I8:
  case DLC_DTYPE_U8:
  case DLC_DTYPE_BOOL:
    return 1;
  default:
    return 0;
  }
}

const char *dlc_dtype_name(dlc_dtype dtype) {
  switch (dtype) {
  case DLC_DTYPE_F32: return "f32";
  case DLC_DTYPE_F64: return "f64";
  case DLC_DTYPE_F16: return "f16";
  case DLC_DTYPE_BF16: return "bf16";
  case DLC_DTYPE_I8: return "i8";
  case DLC_DTYPE_U8: return "u8";
  case DLC_DTYPE_I16: return "i16";
  case DLC_DTYPE_U16: return "u16";
  case DLC_DTYPE_I32: return "i32";
  case DLC_DTYPE_U32: return "u32";
  case DLC_DTYPE_I64: return "i64";
  case DLC_DTYPE_U64: return "u64";
  case DLC_DTYPE_BOOL: return "bool";
  default: return "invalid";
  }
}

void dlc_options_init(dlc_options *options) {
  if (options)
    memset(options, 0, sizeof(*options));
}

void *dlcrt_aligned_alloc(size_t size) {
  if (size == 0)
    size = 64;
  void *ptr = NULL;
  if (posix_memalign(&ptr, 64, (size + 63) & ~(size_t)63) != 0)
    return NULL;
  return ptr;
}

void dlcrt_aligned_free(void *ptr) { free(ptr); }
