// JSON may nest as deep as a body limit allows: 20,000 levels fit in 40 KB. Any recursive walk of that
// (a check for control characters, a copy, a log line) overflows the stack: a 500 for anyone, before
// any sign-in. So the API and the identity provider measure every body, query and parameter object
// first, without recursion, and refuse input past a depth that no request of theirs comes near.

/** How deep a request's input may nest; the deepest any request here needs is a few levels. */
export const MAX_INPUT_DEPTH = 32;

/** What the refusal says after the part's name ("body: …"). */
export const INPUT_TOO_DEEP = `nested more than ${MAX_INPUT_DEPTH} levels deep`;

/**
 * Whether a parsed value nests deeper than `MAX_INPUT_DEPTH` (an object or array is a level). It keeps
 * its own stack, so asking is safe at any depth, and it stops at the first level too many.
 */
export function nestsTooDeep(value: unknown, maxDepth = MAX_INPUT_DEPTH): boolean {
  const pending: Array<{ item: unknown; depth: number }> = [{ item: value, depth: 0 }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    if (next.item === null || typeof next.item !== 'object') continue;
    if (next.depth === maxDepth) return true;
    for (const child of Object.values(next.item)) pending.push({ item: child, depth: next.depth + 1 });
  }
  return false;
}
