import type { ReactNode } from 'react';
import { PageTitle } from '../page-title';
import { BackLink } from './back-link';
import './signed-in-shell.css';

interface SignedInPageProps {
  /** The page's name: its heading and the window's title. */
  title: string;
  /** The heading, where it says more than the title (the home greets the borrower by name). */
  heading?: string;
  intro: ReactNode;
  /** The heading's id, which the page is labelled by. */
  titleId: string;
  testId: string;
  /** The page this one belongs to, linked above the heading. */
  back?: { to: string; label: string };
  children: ReactNode;
}

/** A signed-in page: its title, heading and a line of introduction, then its content, at full width. */
export function SignedInPage({ title, heading, intro, titleId, testId, back, children }: SignedInPageProps) {
  return (
    <section className="signed-in-page" aria-labelledby={titleId} data-testid={testId} data-layout="wide">
      <PageTitle title={title} />
      {back && <BackLink to={back.to} label={back.label} />}
      <header className="signed-in-page__header">
        <h1 id={titleId}>{heading ?? title}</h1>
        <p className="signed-in-page__intro">{intro}</p>
      </header>
      {children}
    </section>
  );
}
