import type { ReactNode } from 'react';

interface ConsoleSectionProps {
  /** The section's heading (an h2), which labels it. */
  title: string;
  id: string;
  /** Beside the heading: the section's own actions ("End every session"). */
  actions?: ReactNode;
  /** Under the heading: what the section shows. */
  intro?: ReactNode;
  children: ReactNode;
}

/** A card of a console page with its h2. */
export function ConsoleSection({ title, id, actions, intro, children }: ConsoleSectionProps) {
  const titleId = `${id}-title`;
  return (
    <section className="console-section" aria-labelledby={titleId} data-testid={id}>
      <header className="console-section__header">
        <h2 id={titleId}>{title}</h2>
        {actions && <div className="console-section__actions">{actions}</div>}
      </header>
      {intro && <p className="console-section__intro">{intro}</p>}
      {children}
    </section>
  );
}
