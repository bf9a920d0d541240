import { encode } from 'uqr';

/** A QR code drawn here, as SVG: the secret never leaves the page for an image service. */
export function QrCode({ value, label }: { value: string; label: string }) {
  // eslint-disable-next-line lingui/no-unlocalized-strings -- an error-correction level, not words
  const { data, size } = encode(value, { ecc: 'M', border: 2 });
  // eslint-disable-next-line lingui/no-unlocalized-strings -- drawing commands, not words
  const path = data.flatMap((row, y) => row.map((dark, x) => (dark ? `M${x} ${y}h1v1h-1z` : ''))).join('');
  return (
    <svg
      className="factor-qr"
      viewBox={`0 0 ${size} ${size}`}
      role="img"
      aria-label={label}
      shapeRendering="crispEdges"
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
