// Overlap questions over booked intervals (epoch ms, half-open): sorted once per call, then O(log n) per
// candidate start, which is what keeps a busy day's slots cheap.

/** Index of the first element of sorted `xs` that is > x (strict) or >= x. */
function upperBound(xs: Float64Array, x: number, strict: boolean): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (strict ? xs[mid] <= x : xs[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const NONE = new Float64Array(0);

function ascending(intervals: readonly { start: number }[]): boolean {
  for (let i = 1; i < intervals.length; i++) if (intervals[i].start < intervals[i - 1].start) return false;
  return true;
}

/** `list` itself when already ascending (never changed here), otherwise a sorted copy. */
function sortedNumbers(list: number[]): ArrayLike<number> {
  for (let i = 1; i < list.length; i++) if (list[i] < list[i - 1]) return Float64Array.from(list).sort();
  return list;
}

/** Arbitrary (possibly overlapping) half-open intervals, answering "does any overlap [s, e)?". */
export class IntervalSet {
  private readonly starts: Float64Array;
  private readonly maxEnds: Float64Array; // max end among intervals[0..i] in start order

  constructor(intervals: { start: number; end: number }[]) {
    // Usually in start order already (bookings are read in it): a 30-day answer builds several sets a day.
    if (!ascending(intervals)) intervals.sort((x, y) => x.start - y.start);
    const n = intervals.length;
    this.starts = n === 0 ? NONE : new Float64Array(n);
    this.maxEnds = n === 0 ? NONE : new Float64Array(n);
    let maxEnd = -Infinity;
    for (let i = 0; i < n; i++) {
      this.starts[i] = intervals[i].start;
      maxEnd = Math.max(maxEnd, intervals[i].end);
      this.maxEnds[i] = maxEnd;
    }
  }

  /** Some interval starting before e ends after s. */
  overlaps(s: number, e: number): boolean {
    const k = upperBound(this.starts, e, false);
    return k > 0 && this.maxEnds[k - 1] > s;
  }

  /** Some interval starts strictly inside (s, e). */
  startsWithin(s: number, e: number): boolean {
    const k = upperBound(this.starts, s, true);
    return k < this.starts.length && this.starts[k] < e;
  }

  /** Some interval starts before s and is still running at s. */
  runningAt(s: number): boolean {
    const k = upperBound(this.starts, s, false);
    return k > 0 && this.maxEnds[k - 1] > s;
  }
}

/**
 * The periods during which at least `capacity` of the intervals overlap. Ends are processed before
 * starts at the same instant because intervals are half-open (10:00 end and 10:00 start do not meet).
 */
export function fullPeriods(startList: number[], endList: number[], capacity: number): { start: number; end: number }[] {
  // Fewer intervals than the capacity can never fill it (a group class with room to spare all day).
  if (startList.length < capacity) return [];
  const starts = sortedNumbers(startList);
  const ends = sortedNumbers(endList);
  const periods: { start: number; end: number }[] = [];
  let count = 0;
  let i = 0;
  let j = 0;
  let openedAt = 0;
  while (i < starts.length) {
    if (ends[j] <= starts[i]) {
      if (count >= capacity && count - 1 < capacity) periods.push({ start: openedAt, end: ends[j] });
      count--;
      j++;
    } else {
      count++;
      if (count >= capacity && count - 1 < capacity) openedAt = starts[i];
      i++;
    }
  }
  // Every remaining event is an end; the first one that drops below capacity closes the last period.
  while (j < ends.length) {
    if (count >= capacity && count - 1 < capacity) periods.push({ start: openedAt, end: ends[j] });
    count--;
    j++;
  }
  return periods;
}

export function peakOverlap(startList: number[], endList: number[]): number {
  const starts = Float64Array.from(startList).sort();
  const ends = Float64Array.from(endList).sort();
  let count = 0;
  let peak = 0;
  let j = 0;
  for (let i = 0; i < starts.length; i++) {
    while (ends[j] <= starts[i]) {
      count--;
      j++;
    }
    count++;
    if (count > peak) peak = count;
  }
  return peak;
}
