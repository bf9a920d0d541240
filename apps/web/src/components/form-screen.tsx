import { useEffect, useRef, type ReactNode } from 'react';
import { PageTitle } from './page-title';
import { StatusIcon, type StatusTone } from './status-icon';
import './form-screen.css';

interface FormScreenProps {
  title: string;
  intro?: ReactNode;
  /** An icon above the title, for a confirmation or a problem. */
  tone?: StatusTone;
  /** Moves the focus to the title: for a view that replaced another one in the same place. */
  focusTitle?: boolean;
  testId: string;
  children?: ReactNode;
}

/** A screen of the signed-out card laid out as the sign-in screen is: a heading, an intro, the rest. */
export function FormScreen({ title, intro, tone, focusTitle = false, testId, children }: FormScreenProps) {
  const titleRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focusTitle) titleRef.current?.focus();
  }, [focusTitle]);
  const titleId = `${testId}-title`;
  return (
    <section className="form-screen" aria-labelledby={titleId} data-testid={testId}>
      <PageTitle title={title} />
      <header className="form-screen__header">
        {tone && (
          <span className={`form-screen__badge form-screen__badge--${tone}`}>
            <StatusIcon tone={tone} />
          </span>
        )}
        <h1 id={titleId} ref={titleRef} className="form-screen__title" tabIndex={focusTitle ? -1 : undefined}>
          {title}
        </h1>
        {intro && <div className="form-screen__intro">{intro}</div>}
      </header>
      {children}
    </section>
  );
}
