import type { Messages } from '@lingui/core';

// Every letter accented and every run of text a third longer, placeholders and tags untouched: a
// string missing from the catalogue shows as plain English, and a layout that only fits English breaks.
const PLAIN = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'];
const ACCENTED = [...'áƀçðéƒĝĥíĵķļɱñóþǫŕšţúṽŵẋýžÁßÇÐÉƑĜĤÍĴĶĻḾÑÓÞǪŔŠŢÚṼŴẊÝŽ'];
const GROWTH = 0.35;

// Text without a letter (a plural's "#", punctuation between placeholders) is left as it is.
const longer = (text: string) =>
  /\p{L}/u.test(text)
    ? [...text].map((letter) => ACCENTED[PLAIN.indexOf(letter)] ?? letter).join('') +
      // In short words, as a longer sentence would be: one long run of filler could not wrap.
      ' ·'.repeat(Math.ceil((text.length * GROWTH) / 2))
    : text;

type Message = Messages[string];
type Token = string | [name: string, type?: string, branches?: unknown];

// A compiled message is text, or a list of texts and placeholders ([name, type, branches]), where a
// plural's or a select's branches are messages again.
function message(compiled: Message): Message {
  return typeof compiled === 'string' ? longer(compiled) : (compiled as Token[]).map(token);
}

function token(part: Token): Token {
  if (typeof part === 'string') return longer(part);
  const [name, type, branches] = part;
  if (!branches || typeof branches !== 'object') return part;
  return [
    name,
    type,
    Object.fromEntries(
      Object.entries(branches).map(([key, value]) => [
        key,
        typeof value === 'number' ? value : message(value as Message),
      ]),
    ),
  ];
}

/** The English catalogue, pseudo-localized. */
export function pseudoLocalize(english: Messages): Messages {
  return Object.fromEntries(Object.entries(english).map(([id, compiled]) => [id, message(compiled)]));
}
