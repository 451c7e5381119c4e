// Overlap questions over booked intervals (epoch ms, half-open): sorted once per call, then O(log n) per
// candidate start, which is what keeps a busy day's slots cheap.

/** Index of the first element of sorted `xs` that is > x (strict) or >= x. */
function upperBound(xs: readonly number[], x: number, strict: boolean): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (strict ? xs[mid] <= x : xs[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function ascending(intervals: readonly { start: number }[]): boolean {
  for (let i = 1; i < intervals.length; i++) if (intervals[i].start < intervals[i - 1].start) return false;
  return true;
}

/** `list` itself when already ascending (never changed here), otherwise a sorted copy. */
function sortedNumbers(list: number[]): readonly number[] {
  for (let i = 1; i < list.length; i++) if (list[i] < list[i - 1]) return list.slice().sort((x, y) => x - y);
  return list;
}

/** Arbitrary (possibly overlapping) half-open intervals, answering "does any overlap [s, e)?". */
export class IntervalSet {
  // Plain arrays of numbers (V8 keeps them unboxed): a typed array is three heap objects, and a
  // 30-day answer builds three sets for each date it asks, most of them empty or of a few intervals.
  private readonly starts: number[] = [];
  private readonly maxEnds: number[] = []; // max end among intervals[0..i] in start order

  constructor(intervals: { start: number; end: number }[]) {
    // Usually in start order already (bookings are read in it).
    if (!ascending(intervals)) intervals.sort((x, y) => x.start - y.start);
    let maxEnd = -Infinity;
    for (const iv of intervals) {
      this.starts.push(iv.start);
      maxEnd = Math.max(maxEnd, iv.end);
      this.maxEnds.push(maxEnd);
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
