export type StatusTone = 'warning' | 'info' | 'success';

const PATHS: Record<StatusTone, string> = {
  warning: 'M12 3.5 2.5 20h19L12 3.5Zm0 5.25v5.5m0 2.75v.5',
  info: 'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18Zm0-10v6m0-9.25v.5',
  success: 'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18Zm-4-9 2.75 2.75L16.5 9',
};

export function StatusIcon({ tone }: { tone: StatusTone }) {
  return (
    <svg
      className={`status-icon status-icon--${tone}`}
      viewBox="0 0 24 24"
      width="28"
      height="28"
      aria-hidden="true"
    >
      <path
        d={PATHS[tone]}
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
