// Keys of the process's long-lived maps (the availability answers, the settings memo). A template
// literal such as `slots|${company}|${service}|...` builds a rope: V8 keeps each concatenation as a
// cons string pointing at its two halves, and a rope used as a Map key stays a rope for as long as
// its entry lives, some seven objects a key where one would do. Every major collection marks them
// all: the answer cache's 10,000 keys were 42,000 of the 580,000 objects of the mixed load's heap,
// whose mark-compact pauses are what its read tail waits behind (docs/benchmarks.md, session 34).
// `Array.prototype.join` writes one flat string, and a lookup with it is quicker too.

/** `parts` joined by `|`, as one flat string (null and undefined as empty parts). */
export function cacheKey(...parts: (string | number | null | undefined)[]): string {
  return parts.join('|');
}
