import { PASSWORD_SYMBOLS } from '@customer-core/contracts';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { checklistChange, checklistKey, passwordChecklist } from './password-checklist-state';
import { inPortalLanguage } from '../../i18n/in-portal-language';

interface PasswordChecklistProps {
  /** The password field points at it with aria-describedby. */
  id: string;
  password: string;
}

/** The label, the symbol list kept on one line (it would otherwise break inside on narrow screens). */
function RuleLabel({ label }: { label: string }) {
  const [before, after] = label.split(PASSWORD_SYMBOLS);
  if (after === undefined) return label;
  return (
    <>
      {before}
      <span className="password-checklist__symbols">{PASSWORD_SYMBOLS}</span>
      {after}
    </>
  );
}

function RuleIcon({ met }: { met: boolean }) {
  return (
    <svg className="password-checklist__icon" viewBox="0 0 20 20" aria-hidden="true" focusable="false">
      {met ? (
        <>
          <circle cx="10" cy="10" r="9" fill="currentColor" />
          <path
            d="m6 10.25 2.75 2.75L14.25 7.5"
            fill="none"
            stroke="#ffffff"
            strokeWidth="2"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </>
      ) : (
        <circle cx="10" cy="10" r="8" fill="none" stroke="currentColor" strokeWidth="2" />
      )}
    </svg>
  );
}

/**
 * The password rules, each marked met or not as the borrower types: by an icon of its own shape and in
 * words for screen readers, not by colour alone. A change is announced politely.
 */
export function PasswordChecklist({ id, password }: PasswordChecklistProps) {
  const { t, i18n } = useLingui();
  const items = passwordChecklist(password);
  const key = checklistKey(items);
  // The state of the last render, to tell what changed (React's "previous render" pattern).
  const [last, setLast] = useState({ key, items, announcement: '' });
  if (last.key !== key)
    setLast({ key, items, announcement: checklistChange(last.items, items, (message) => i18n._(message)) });

  return (
    <div className="password-checklist" data-testid="password-checklist">
      <div id={id}>
        <p className="password-checklist__title" id={`${id}-title`}>
          <Trans>Your password needs:</Trans>
        </p>
        <ul className="password-checklist__list" aria-labelledby={`${id}-title`}>
          {items.map((item) => (
            <li
              key={item.code}
              className="password-checklist__item"
              data-met={item.met}
              data-testid={`password-rule-${item.code}`}
            >
              <RuleIcon met={item.met} />
              <span>
                <span className="visually-hidden">{item.met ? t`Met:` : t`Not met yet:`} </span>
                <RuleLabel label={inPortalLanguage(item.label)} />
              </span>
            </li>
          ))}
        </ul>
      </div>
      <p
        className="visually-hidden"
        aria-live="polite"
        aria-atomic="true"
        data-testid="password-checklist-live"
      >
        {last.announcement}
      </p>
    </div>
  );
}
