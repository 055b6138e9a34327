/* Summary of an iteration's samples: median (robust to the odd interrupted iteration), the spread
 * around it, and the extremes. */
#include "native.h"

#include <stdlib.h>

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double quantile(const double *sorted, int n, double q) {
  double pos = q * (n - 1);
  int lo = (int)pos;
  int hi = lo + 1 < n ? lo + 1 : lo;
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

double median(double *samples, int n) {
  qsort(samples, (size_t)n, sizeof *samples, by_value);
  return quantile(samples, n, 0.5);
}

void print_stats(FILE *out, double *samples, int n) {
  qsort(samples, (size_t)n, sizeof *samples, by_value);
  double sum = 0;
  for (int i = 0; i < n; i++) sum += samples[i];
  fprintf(out, "\"medianNs\": %.1f, \"meanNs\": %.1f, \"minNs\": %.1f, \"maxNs\": %.1f, \"q1Ns\": %.1f, \"q3Ns\": %.1f, \"samples\": %d",
          quantile(samples, n, 0.5), sum / n, samples[0], samples[n - 1], quantile(samples, n, 0.25),
          quantile(samples, n, 0.75), n);
}
