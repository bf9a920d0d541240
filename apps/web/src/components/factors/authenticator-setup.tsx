import { Trans, useLingui } from '@lingui/react/macro';
import { Fragment, useState } from 'react';
import { getLenderBranding } from '../../config/portal-config-meta';
import { QrCode } from './qr-code';
import './factors.css';

/** The key URI authenticator apps read (Google Authenticator's format): RFC 6238's defaults. */
function keyUri(lender: string, accountName: string, secret: string): string {
  const label = encodeURIComponent(`${lender}:${accountName}`);
  return `otpauth://totp/${label}?secret=${secret}&issuer=${encodeURIComponent(lender)}&algorithm=SHA1&digits=6&period=30`;
}

/** The key for typing by hand, in groups of four, four groups a row; and a button that copies it. */
function ManualKey({ secret }: { secret: string }) {
  const { t } = useLingui();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <div className="factor-step__key">
      <p className="factor-step__secret" data-testid="factor-secret">
        {secret.match(/.{1,4}/g)?.map((group, i) => (
          <Fragment key={i}>
            {i > 0 && ' '}
            <span>{group}</span>
          </Fragment>
        ))}
      </p>
      <button type="button" className="factor-step__link" onClick={() => void copy()}>
        {copied ? t`Key copied` : t`Copy key`}
      </button>
      <p className="visually-hidden" role="status">
        {copied ? t`Key copied.` : ''}
      </p>
    </div>
  );
}

/** Adding an authenticator app: its QR code, drawn here, and the key for entering by hand. */
export function AuthenticatorSetup({ secret, accountName }: { secret: string; accountName: string }) {
  const { t } = useLingui();
  const lender = getLenderBranding().name;
  return (
    <>
      <div className="factor-step__qr">
        <QrCode
          value={keyUri(lender, accountName, secret)}
          label={t`QR code to add ${lender} to your authenticator app`}
        />
      </div>
      <p className="factor-step__intro">
        <Trans>Can’t scan it? Enter this key in your app instead:</Trans>
      </p>
      <ManualKey secret={secret} />
    </>
  );
}
