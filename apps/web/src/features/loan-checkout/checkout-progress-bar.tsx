import { useLingui } from '@lingui/react/macro';
import { describeProgress, type CheckoutProgress } from '../../loans/checkout-progress';

/** "2 of 5 documents done" in words, and as a bar with the same value for assistive technology. */
export function CheckoutProgressBar({ done, total }: CheckoutProgress) {
  const { i18n } = useLingui();
  const text = describeProgress({ done, total }, i18n);
  const percent = total === 0 ? 100 : Math.round((done / total) * 100);
  return (
    <div className="checkout-progress" data-testid="checkout-progress">
      <p className="checkout-progress__text" id="checkout-progress-text">
        {text}
      </p>
      <div
        className="checkout-progress__bar"
        role="progressbar"
        aria-labelledby="checkout-progress-text"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={done}
        aria-valuetext={text}
      >
        <span className="checkout-progress__fill" style={{ inlineSize: `${percent}%` }} />
      </div>
    </div>
  );
}
