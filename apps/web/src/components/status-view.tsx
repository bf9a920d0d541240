import type { ReactNode } from 'react';
import { PageTitle } from './page-title';
import { StatusIcon, type StatusTone } from './status-icon';
import './status-view.css';

interface StatusViewProps {
  tone: StatusTone;
  title: string;
  children?: ReactNode;
  testId: string;
}

/** A full-card message: an icon, the page's heading and a few lines of text. */
export function StatusView({ tone, title, children, testId }: StatusViewProps) {
  return (
    <section className="status-view" aria-labelledby={`${testId}-title`} data-testid={testId}>
      <PageTitle title={title} />
      <span className={`status-view__badge status-view__badge--${tone}`}>
        <StatusIcon tone={tone} />
      </span>
      <h1 id={`${testId}-title`} className="status-view__title">
        {title}
      </h1>
      {children}
    </section>
  );
}
