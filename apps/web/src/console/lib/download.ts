/** Hands `blob` to the browser as a file to save under `fileName` (an export, a CSV built here). */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // Once the browser has taken the file.
  window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** A moment as a file name may hold it: 2026-01-31T09-30-00Z. */
export const fileStamp = (now = new Date()): string =>
  now
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replaceAll(':', '-');
