import { getLenderBranding } from '../config/portal-config-meta';

/** The lender's support phone as a tel: link, or null when the configuration has none. */
export function SupportPhone() {
  const phone = getLenderBranding().supportPhone;
  if (!phone) return null;
  return (
    <a className="support-phone" href={`tel:${phone.replace(/[^\d+]/g, '')}`}>
      {phone}
    </a>
  );
}
