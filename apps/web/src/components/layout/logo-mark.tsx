/** The portal's mark: a rising line in a rounded square (decorative; the link carries the name). */
export function LogoMark() {
  return (
    <svg
      className="logo-mark"
      viewBox="0 0 32 32"
      width="36"
      height="36"
      aria-hidden="true"
      focusable="false"
    >
      <rect width="32" height="32" rx="8" fill="currentColor" />
      <path
        d="M7 22.5 13 16.5l4 4 8-9M19.5 11.5H25V17"
        fill="none"
        strokeWidth="3"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
