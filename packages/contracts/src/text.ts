import { z } from 'zod';

// Text a client sends. PostgreSQL refuses NUL outright (a 500 if it got that far), and other control
// characters and lone surrogates have no business in a name, an address or a token: they hide text,
// break logs and e-mails, and cannot be stored as UTF-8. Every string the API or the identity provider
// accepts is built from these, so no field can forget the rule.

// The point of these two is to match control characters.
/* eslint-disable no-control-regex */
/** Single-line text: no C0 or C1 control character (tab and line breaks included), no lone surrogate. */
const SINGLE_LINE = /^[^\u0000-\u001f\u007f-\u009f\ud800-\udfff]*$/u;
/** Multi-line text: tab, line feed and carriage return are allowed; other controls are not. */
const MULTI_LINE = /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ud800-\udfff]*$/u;
/* eslint-enable no-control-regex */

export const CONTROL_CHARACTERS_MESSAGE = 'Use only letters, digits, punctuation and spaces.';

/** Whether a value holds a character the rule refuses (for input read outside a schema). */
export function hasControlCharacter(value: string, { multiLine = false } = {}): boolean {
  return !(multiLine ? MULTI_LINE : SINGLE_LINE).test(value);
}

/** A string field of one line: every single-line string a client sends starts here. */
export const singleLineText = (message = CONTROL_CHARACTERS_MESSAGE) =>
  z.string().regex(SINGLE_LINE, message);

/** A string field that may span lines (tabs and line breaks kept). */
export const multiLineText = (message = CONTROL_CHARACTERS_MESSAGE) => z.string().regex(MULTI_LINE, message);

/**
 * The first string anywhere in a parsed body, query or parameter object that the multi-line rule
 * refuses, by its path (keys are checked too); undefined when there is none. A backstop for input
 * no schema describes. It keeps its own stack rather than recursing, and writes a path only for what
 * it finds, so no depth overflows it or costs more than the input's size.
 */
export function findControlCharacter(value: unknown, path = ''): string | undefined {
  type Entry = { item: unknown; key?: string; parent?: Entry };
  const pathOf = (entry: Entry): string => {
    const keys: string[] = [];
    for (let at: Entry | undefined = entry; at?.key !== undefined; at = at.parent) keys.push(at.key);
    return [...(path ? [path] : []), ...keys.reverse()].join('.');
  };
  const pending: Entry[] = [{ item: value }];
  for (let entry = pending.pop(); entry; entry = pending.pop()) {
    const { item, key } = entry;
    if (key !== undefined && hasControlCharacter(key, { multiLine: true })) return pathOf(entry);
    if (typeof item === 'string') {
      if (hasControlCharacter(item, { multiLine: true })) return pathOf(entry) || '(value)';
      continue;
    }
    if (item === null || typeof item !== 'object') continue;
    // The last entry goes on the stack first, so that entries are looked at in order.
    for (const [childKey, child] of Object.entries(item).reverse())
      pending.push({ item: child, key: childKey, parent: entry });
  }
  return undefined;
}
