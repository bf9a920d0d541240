import './spinner.css';

export function Spinner({ className = '' }: { className?: string }) {
  return <span className={`spinner ${className}`.trim()} aria-hidden="true" />;
}
