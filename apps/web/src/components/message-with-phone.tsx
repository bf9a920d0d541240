import { getLenderBranding } from '../config/portal-config-meta';
import { SupportPhone } from './support-phone';
import './message-with-phone.css';

/**
 * A message from the API that may name the lender's support phone ("Call us at (800) 555-0142"):
 * the number becomes a tel: link, kept on one line.
 */
export function MessageWithPhone({ message }: { message: string }) {
  const phone = getLenderBranding().supportPhone;
  const parts = phone ? message.split(phone) : [message];
  return parts.map((part, index) => (
    <span key={index}>
      {index > 0 && (
        <span className="message-with-phone__phone">
          <SupportPhone />
        </span>
      )}
      {part}
    </span>
  ));
}
