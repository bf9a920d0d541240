import { DOCUMENTS_LANG } from './document-language';
import './document-text.css';

// A numbered clause, "2. Repayment. The Borrower repays…": its name becomes a heading.
const CLAUSE = /^(\d+)\. ([^.]{1,60})\. ([\s\S]+)$/;

/**
 * A loan document's text as headings and paragraphs, in the page's own flow (never a box of its own
 * that scrolls); the text itself stays exactly as signed. `level`: the clauses' heading level.
 */
export function DocumentText({ body, level = 2 }: { body: string; level?: 2 | 3 }) {
  const [first, ...rest] = body.split('\n\n');
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <div className="document-text" data-testid="document-text" lang={DOCUMENTS_LANG}>
      {first && <p className="document-text__lead">{first}</p>}
      {rest.map((paragraph, index) => {
        const clause = CLAUSE.exec(paragraph);
        if (!clause)
          return (
            <p key={index} className="document-text__paragraph">
              {paragraph}
            </p>
          );
        return (
          <section key={index} className="document-text__clause">
            <Heading>
              {clause[1]}. {clause[2]}
            </Heading>
            <p className="document-text__paragraph">{clause[3]}</p>
          </section>
        );
      })}
    </div>
  );
}
