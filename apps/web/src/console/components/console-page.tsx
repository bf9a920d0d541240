import type { ReactNode } from 'react';
import { PageTitle } from '../../components/page-title';

interface ConsolePageProps {
  /** The page's name: its heading, and the window's title. */
  title: string;
  /** Under the heading: what the page is for, or who it is about. */
  intro?: ReactNode;
  /** Above the heading: the page this one belongs to. */
  back?: ReactNode;
  testId: string;
  children: ReactNode;
}

/** A console page: its one h1 (which takes the focus after a navigation), an intro, then its sections. */
export function ConsolePage({ title, intro, back, testId, children }: ConsolePageProps) {
  const titleId = `${testId}-title`;
  return (
    <section className="console-page" aria-labelledby={titleId} data-testid={testId}>
      <PageTitle title={title} />
      {back}
      <header className="console-page__header">
        <div className="console-page__heading">
          <h1 id={titleId}>{title}</h1>
          {intro && <div className="console-page__intro">{intro}</div>}
        </div>
      </header>
      {children}
    </section>
  );
}
