import { useLingui } from '@lingui/react/macro';
import * as RadixToast from '@radix-ui/react-toast';
import { StatusIcon, type StatusTone } from '../status-icon';
import {
  TOAST_DURATION_MS,
  TOAST_HOTKEY,
  TOAST_SWIPE_THRESHOLD_PX,
  type Toast,
  type ToastStatus,
} from '../../lib/toasts/toast-model';
import './toasts.css';

interface ToastViewportProps {
  toasts: ReadonlyMap<string, Toast>;
  onRemove: (key: string) => void;
}

const TONES: Record<ToastStatus, StatusTone | null> = {
  default: null,
  error: 'warning',
  info: 'info',
  success: 'success',
  warning: 'warning',
};

/** A toast leaves the map however it closes: its dismiss button, a swipe up, or its timeout. */
function ToastItem({ toast, onRemove }: { toast: Toast; onRemove: (key: string) => void }) {
  const { t } = useLingui();
  const tone = TONES[toast.status];
  return (
    <RadixToast.Root
      className={`toast toast--${toast.status}`}
      duration={toast.duration}
      onOpenChange={(open) => {
        if (!open) onRemove(toast.key);
      }}
      data-testid="toast"
      data-status={toast.status}
      data-duration={toast.duration}
    >
      {tone && <StatusIcon tone={tone} />}
      <div className="toast__text">
        <RadixToast.Title className="toast__title">{toast.title}</RadixToast.Title>
        {toast.message && (
          <RadixToast.Description className="toast__message">{toast.message}</RadixToast.Description>
        )}
      </div>
      <RadixToast.Close className="toast__dismiss" aria-label={t`Dismiss notification`}>
        <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
          <path d="m6 6 12 12M18 6 6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
      </RadixToast.Close>
    </RadixToast.Root>
  );
}

/** Spec sections 3, 4 and 9: the toasts of the keyed map, stacked at the top, swiped up to dismiss. */
export function ToastViewport({ toasts, onRemove }: ToastViewportProps) {
  const { t } = useLingui();
  return (
    <RadixToast.Provider
      label={t`Notification`}
      duration={TOAST_DURATION_MS}
      swipeDirection="up"
      swipeThreshold={TOAST_SWIPE_THRESHOLD_PX}
    >
      {[...toasts.values()].map((toast) => (
        // Keyed by when it was added too: a toast replaced under the same key starts its timer again.
        <ToastItem key={`${toast.key}@${toast.addedAt}`} toast={toast} onRemove={onRemove} />
      ))}
      <RadixToast.Viewport
        className="toasts"
        hotkey={[TOAST_HOTKEY]}
        label={t`Notifications (${TOAST_HOTKEY})`}
        data-testid="toast-viewport"
      />
    </RadixToast.Provider>
  );
}
