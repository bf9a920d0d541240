import { NEXT_STEP_PREFERENCE_STORAGE_KEY, routes } from '@customer-core/contracts';
import { msg } from '@lingui/core/macro';

// How a visitor chose to continue, remembered on this device (localStorage: it outlives the tab).
// The words are messages, put in the visitor's language where they are shown.

export const NEXT_STEPS = {
  'existing-loan': {
    title: msg`Manage an existing loan`,
    description: msg`Sign in to see your loans, your next payment and the documents to sign.`,
    path: routes.signIn.path,
  },
  'new-loan': {
    title: msg`Apply for a new loan`,
    description: msg`Tell us about your business and what you need. It takes about two minutes.`,
    path: routes.startApplication.path,
  },
} as const;
export type NextStep = keyof typeof NEXT_STEPS;

const isNextStep = (value: unknown): value is NextStep =>
  typeof value === 'string' && Object.hasOwn(NEXT_STEPS, value);

export function readNextStepPreference(): NextStep | null {
  try {
    const stored = localStorage.getItem(NEXT_STEP_PREFERENCE_STORAGE_KEY);
    return isNextStep(stored) ? stored : null;
  } catch {
    return null;
  }
}

export function rememberNextStep(step: NextStep): void {
  try {
    localStorage.setItem(NEXT_STEP_PREFERENCE_STORAGE_KEY, step);
  } catch {
    // Storage can be unavailable (private mode, quota): the choice is just not remembered.
  }
}

export function forgetNextStep(): void {
  try {
    localStorage.removeItem(NEXT_STEP_PREFERENCE_STORAGE_KEY);
  } catch {
    // Nothing stored then.
  }
}
