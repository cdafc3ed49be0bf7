/*===- cross_core.c - what handing data between two cores costs here ------===*
 *
 * Two threads: the round trip of one cache line bounced between them (each
 * waits for the other's store), and the rate at which one thread reads
 * 512 KiB that the other just wrote, against reading it again once it is in
 * its own cache. On a virtual machine these change with where the host
 * places the two vCPUs (same core complex or not) and can change within
 * minutes, which moves every two-thread batch-1 figure; the benchmark
 * records them before and after its runs. Prints one JSON line.
 *
 *   cc -O3 -march=native -pthread cross_core.c -o cross_core && ./cross_core
 *===----------------------------------------------------------------------===*/
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { kBounces = 100000, kWords = 1 << 17, kRounds = 20 };

static _Alignas(64) atomic_int flag;
static _Alignas(64) atomic_int phase;
static int32_t *buffer;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}

static void *bounce(void *unused) {
  (void)unused;
  for (int i = 0; i < kBounces; i++) {
    while (atomic_load(&flag) != 2 * i + 1)
      ;
    atomic_store(&flag, 2 * i + 2);
  }
  return NULL;
}

static void *writer(void *unused) {
  (void)unused;
  for (int r = 0; r < kRounds; r++) {
    while (atomic_load(&phase) != 2 * r + 1)
      ;
    for (size_t i = 0; i < kWords; i++)
      buffer[i] = (int32_t)(r + i);
    atomic_store(&phase, 2 * r + 2);
  }
  return NULL;
}

static int64_t sum(void) {
  int64_t s = 0;
  for (size_t i = 0; i < kWords; i++)
    s += buffer[i];
  return s;
}

int main(void) {
  pthread_t thread;
  if (pthread_create(&thread, NULL, bounce, NULL))
    return 1;
  double t0 = now();
  for (int i = 0; i < kBounces; i++) {
    atomic_store(&flag, 2 * i + 1);
    while (atomic_load(&flag) != 2 * i + 2)
      ;
  }
  double roundTrip = (now() - t0) / kBounces;
  pthread_join(thread, NULL);

  buffer = aligned_alloc(64, kWords * sizeof(int32_t));
  if (!buffer)
    return 1;
  memset(buffer, 0, kWords * sizeof(int32_t));
  if (pthread_create(&thread, NULL, writer, NULL))
    return 1;
  double remote = 0, local = 0;
  int64_t check = 0;
  for (int r = 0; r < kRounds; r++) {
    atomic_store(&phase, 2 * r + 1);
    while (atomic_load(&phase) != 2 * r + 2)
      ;
    double a = now();
    check += sum();
    double b = now();
    check += sum();
    double c = now();
    remote += b - a;
    local += c - b;
  }
  pthread_join(thread, NULL);
  free(buffer);
  double bytes = (double)kRounds * kWords * sizeof(int32_t);
  printf("{\"round_trip_ns\": %.1f, \"read_written_by_other_gbs\": %.1f, "
         "\"read_own_gbs\": %.1f, \"check\": %lld}\n",
         roundTrip, bytes / remote, bytes / local, (long long)check);
  return 0;
}
