/**
 * What the upstream saw of a number's pace, from the accept times of its messages at the emulator (epoch ms):
 * read by the production-rate tests and the benchmark alike.
 */

/**
 * Messages per second: the least-squares slope of the accept times against the messages' order, so a late
 * first message (a cold start) or a slow last answer does not stretch or shrink the span as it would a
 * first-to-last rate.
 */
export function rateOf(acceptTimes: number[]) {
  const times = [...acceptTimes].sort((a, b) => a - b);
  const n = times.length;
  if (n < 2) return 0;
  const meanI = (n - 1) / 2;
  const meanT = times.reduce((sum, t) => sum + t, 0) / n;
  let num = 0;
  let den = 0;
  times.forEach((t, i) => {
    num += (i - meanI) * (t - meanT);
    den += (i - meanI) ** 2;
  });
  return 1000 / (num / den);
}

/** The most accepts in any one-second window: what the upstream's per-second limit sees. */
export function peakSecond(acceptTimes: number[]) {
  const times = [...acceptTimes].sort((a, b) => a - b);
  let peak = 0;
  for (let i = 0, j = 0; j < times.length; j++) {
    while (times[j] - times[i] >= 1000) i++;
    peak = Math.max(peak, j - i + 1);
  }
  return peak;
}
