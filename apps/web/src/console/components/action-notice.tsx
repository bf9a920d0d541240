import { Banner, type BannerType } from '../../components/banner';

export interface Notice {
  type: Extract<BannerType, 'success' | 'error' | 'info'>;
  text: string;
}

/**
 * What the last action did (or why it didn't), above what it changed: announced as it appears, and
 * where the focus goes once its dialog closes (the button that opened it may be gone).
 */
export function ActionNotice({
  id,
  notice,
  onDismiss,
}: {
  id: string;
  notice: Notice | null;
  onDismiss(): void;
}) {
  return (
    <div id={id} className="console-notice" tabIndex={-1}>
      {notice && (
        <Banner type={notice.type} onDismiss={onDismiss} takeFocus={false} testId={`${id}-banner`}>
          {notice.text}
        </Banner>
      )}
    </div>
  );
}
