import { getLenderBranding } from '../../config/portal-config-meta';
import { QrCode } from './qr-code';
import './factors.css';

/** The key URI authenticator apps read (Google Authenticator's format): RFC 6238's defaults. */
function keyUri(lender: string, accountName: string, secret: string): string {
  const label = encodeURIComponent(`${lender}:${accountName}`);
  return `otpauth://totp/${label}?secret=${secret}&issuer=${encodeURIComponent(lender)}&algorithm=SHA1&digits=6&period=30`;
}

/** Adding an authenticator app: its QR code, drawn here, and the key for entering by hand. */
export function AuthenticatorSetup({ secret, accountName }: { secret: string; accountName: string }) {
  const lender = getLenderBranding().name;
  return (
    <>
      <div className="factor-step__qr">
        <QrCode
          value={keyUri(lender, accountName, secret)}
          label={`QR code to add ${lender} to your authenticator app`}
        />
      </div>
      <p className="factor-step__intro">Can&rsquo;t scan it? Enter this key in your app instead:</p>
      <p className="factor-step__secret" data-testid="factor-secret">
        {secret.match(/.{1,4}/g)?.join(' ')}
      </p>
    </>
  );
}
