import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useId,
  useImperativeHandle,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
  type Ref,
} from 'react';
import { useLocation } from 'react-router';
import '../../components/form-screen.css';

// The account page is a list of summary rows, each with its current state and one button that opens
// its form in place (as a bank's settings page does). One row is open at a time: opening another
// closes the first, and what was typed there goes with it.
//
// Buttons, one rule for the whole page: a row's own button sits at the row's end (its right on a
// desktop); a form's buttons sit under its fields at the form's start, the main action first and
// Cancel after it (stacked full width on a phone). account.css holds both.

interface OpenRow {
  open: string | null;
  setOpen(row: string | null): void;
}

const OpenRowContext = createContext<OpenRow | null>(null);

/**
 * Holds which row of the page is open, so that opening one closes the other. An address naming a row
 * (#recovery-codes, from the home's "Make recovery codes") arrives with it open, the focus in its form
 * (CurrentPasswordField takes it as it shows, after the page's heading had it).
 */
export function AccountRows({ children }: { children: ReactNode }) {
  const { hash } = useLocation();
  const [open, setOpen] = useState<string | null>(() => decodeURIComponent(hash.slice(1)) || null);
  return <OpenRowContext value={{ open, setOpen }}>{children}</OpenRowContext>;
}

/** Whether this row is open: the page's one open row, or the row's own state where it stands alone. */
function useRowOpen(row: string): [boolean, (open: boolean) => void] {
  const page = useContext(OpenRowContext);
  const [alone, setAlone] = useState(false);
  if (!page) return [alone, setAlone];
  return [page.open === row, (open) => page.setOpen(open ? row : page.open === row ? null : page.open)];
}

/** The first field of a form just opened, or else its first control. */
function firstControl(panel: HTMLElement): HTMLElement | null {
  return (
    panel.querySelector<HTMLElement>('input:not([type="hidden"]):not([disabled]), select, textarea') ??
    panel.querySelector<HTMLElement>('button:not([disabled]), a[href]')
  );
}

export interface RowControls {
  /** Closes the form; the focus goes back to the row's button unless something else takes it. */
  close(options?: { focusButton?: boolean }): void;
  /** The row's button takes the focus (e.g. once what stood in for it is gone). */
  focusButton(): void;
}

interface AccountRowProps {
  /** Names the row's ids and its place among the page's rows; its id, for an address to open it. */
  row: string;
  title: string;
  testId: string;
  /** The row's current state, one short line ("Set", the address, "None yet"). */
  summary: ReactNode;
  summaryTestId?: string;
  /** The button's words ("Change", "Set up", "Manage"); none where nothing can be done here. */
  action?: string | null;
  actionTestId?: string;
  /** Under the summary whether open or not: what the last change came to, a hint. */
  notices?: ReactNode;
  /** Called as the row opens (e.g. to clear the last notice). */
  onOpen?(): void;
  /** Opening moves the focus into the form; a panel that only shows a list leaves it on the button. */
  focusOnOpen?: boolean;
  /** The open form (or list). */
  children(controls: Pick<RowControls, 'close'>): ReactNode;
  /** For a section whose changes finish outside the render of its form (e.g. a list reloaded). */
  ref?: Ref<RowControls>;
}

/**
 * One row of the account page: its title, current state and button; the button opens the row's
 * panel below it (aria-expanded), with the focus on the form's first field. Cancel, a change made
 * and Escape close it, and the focus goes back to the button.
 */
export function AccountRow({
  row,
  title,
  testId,
  summary,
  summaryTestId,
  action,
  actionTestId,
  notices,
  onOpen,
  focusOnOpen = true,
  children,
  ref,
}: AccountRowProps) {
  const [open, setOpen] = useRowOpen(row);
  const id = useId();
  const titleId = `${id}-title`;
  const panelId = `${id}-panel`;
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  // Set by the borrower's own opening: a row open on arrival (its address) leaves the focus to the page.
  const justOpened = useRef(false);
  // Whether the focus goes back to the button as the row closes (not where the codes made take it).
  const [focusButtonOnClose, setFocusButtonOnClose] = useState(true);

  useEffect(() => {
    if (open && justOpened.current && focusOnOpen && panel.current) firstControl(panel.current)?.focus();
    justOpened.current = false;
  }, [open, focusOnOpen]);
  // Closed by its button, Cancel, a change made or Escape: the focus goes back to the button. (Only
  // when it was in the row: another row opened keeps it.)
  const wasOpen = useRef(open);
  useEffect(() => {
    const closing = wasOpen.current && !open;
    wasOpen.current = open;
    const section = button.current?.closest('section');
    const focusInRow =
      !document.activeElement ||
      document.activeElement === document.body ||
      section?.contains(document.activeElement);
    if (closing && focusButtonOnClose && focusInRow) button.current?.focus();
  }, [open, focusButtonOnClose]);

  const close = useCallback(
    ({ focusButton = true }: { focusButton?: boolean } = {}) => {
      setFocusButtonOnClose(focusButton);
      setOpen(false);
    },
    // setOpen is a new function each render; what it sets is the same.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [row],
  );

  useImperativeHandle(ref, () => ({ close, focusButton: () => button.current?.focus() }), [close]);

  const toggle = () => {
    if (open) return close();
    justOpened.current = true;
    onOpen?.();
    setOpen(true);
  };

  // Escape closes the form, unless it belongs to a dialog over it (the step-up's has its own).
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || !open || event.defaultPrevented) return;
    // eslint-disable-next-line lingui/no-unlocalized-strings -- a selector, not words
    if ((event.target as Element).closest('[role="dialog"], [role="alertdialog"]')) return;
    event.preventDefault();
    close();
  };

  return (
    <section
      id={row}
      className="account-row"
      aria-labelledby={titleId}
      data-testid={testId}
      onKeyDown={onKeyDown}
    >
      <div className="account-row__summary">
        <div className="account-row__text">
          <h2 id={titleId}>{title}</h2>
          <div className="account-row__state" data-testid={summaryTestId}>
            {summary}
          </div>
        </div>
        {action && (
          <button
            ref={button}
            type="button"
            className="button button--secondary account-row__button"
            aria-expanded={open}
            aria-controls={open ? panelId : undefined}
            aria-describedby={titleId}
            onClick={toggle}
            data-testid={actionTestId}
          >
            {action}
          </button>
        )}
      </div>
      {notices}
      {open && (
        <div ref={panel} id={panelId} className="account-row__panel" data-testid={`${testId}-panel`}>
          {children({ close })}
        </div>
      )}
    </section>
  );
}
