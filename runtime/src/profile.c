/*===- profile.c - the clock of profiled models ---------------------------===*/
#include "dlc/dlc_model_abi.h"

#include <time.h>

int64_t dlcrt_profile_clock(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}
