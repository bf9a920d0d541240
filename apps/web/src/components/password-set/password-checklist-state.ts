import { PASSWORD_RULES, type PasswordRuleCode } from '@customer-core/contracts';

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

/** The change from `previous` to `next` in words, for a polite live region; '' when nothing changed. */
export function checklistChange(previous: readonly ChecklistItem[], next: readonly ChecklistItem[]): string {
  const changed = next.filter((item) => previous.find((p) => p.code === item.code)?.met !== item.met);
  if (changed.length === 0) return '';
  if (next.every((item) => item.met)) return 'All password requirements are met.';
  return changed
    .map((item) => `${item.met ? 'Requirement met' : 'Requirement not met'}: ${item.label}.`)
    .join(' ');
}
