import { PASSWORD_RULES, type PasswordRuleCode } from '@customer-core/contracts';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';

// The live checklist of the password-set form: which composition rule a password meets, and what to
// tell a screen reader when that changes (only then: announcing every keystroke would be noise).

export interface ChecklistItem {
  code: PasswordRuleCode;
  label: string;
  met: boolean;
}

export function passwordChecklist(password: string): ChecklistItem[] {
  return PASSWORD_RULES.map(({ code, label, test }) => ({ code, label, met: test(password) }));
}

/** A short key of which rules are met, to notice a change. */
export function checklistKey(items: readonly ChecklistItem[]): string {
  return items.map((item) => (item.met ? '1' : '0')).join('');
}

/** Puts a message into words: the portal's language (`i18n._`) on screen. */
export type Translate = (message: MessageDescriptor) => string;

/**
 * The message's own English, its placeholders filled: for a caller outside the portal's language (a
 * unit test). The build keeps only the messages' ids, so the checklist always passes its `i18n._`.
 */
const sourceText: Translate = ({ id, message = id, values = {} }) =>
  message.replace(/\{(\w+)\}/g, (placeholder, name: string) =>
    name in values ? String(values[name]) : placeholder,
  );

/**
 * The change from `previous` to `next` in words, for a polite live region; '' when nothing changed.
 * (The rules' own labels come from the contracts as they are.)
 */
export function checklistChange(
  previous: readonly ChecklistItem[],
  next: readonly ChecklistItem[],
  translate: Translate = sourceText,
): string {
  const changed = next.filter((item) => previous.find((p) => p.code === item.code)?.met !== item.met);
  if (changed.length === 0) return '';
  if (next.every((item) => item.met)) return translate(msg`All password requirements are met.`);
  return changed
    .map(({ met, label }) =>
      translate(met ? msg`Requirement met: ${label}.` : msg`Requirement not met: ${label}.`),
    )
    .join(' ');
}
