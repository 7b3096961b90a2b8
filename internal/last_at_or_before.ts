// A binary search over ascending offsets (line starts, directive starts).

/**
 * The index of the last of the ascending `sorted` that is at most `value`;
 * 0 when none is (the caller checks `sorted[0]`).
 */
export function lastAtOrBefore(
  sorted: readonly number[],
  value: number,
): number {
  let low = 0;
  let high = sorted.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (sorted[middle] <= value) low = middle;
    else high = middle - 1;
  }
  return low;
}
