/**
 * The dimmed page behind a modal dialog, in place of Radix's Overlay: that one holds the page still by
 * adding a <style> element, which the portal's Content-Security-Policy (style-src 'self') refuses.
 * dialog.css holds the page still instead. Radix's Content still keeps the focus in the dialog, hides
 * the page from assistive technology and makes a click outside the dialog reach the dialog alone.
 */
export function DialogOverlay() {
  return <div className="dialog__overlay" aria-hidden="true" />;
}
