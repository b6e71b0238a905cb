/** Product mark: a small dish under an orbit, drawn inline so the top bar needs no image request. */
export function Logo({ size = 32 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <ellipse
        cx="32"
        cy="24"
        rx="26"
        ry="9"
        fill="none"
        stroke="currentColor"
        strokeWidth="3"
        transform="rotate(-20 32 24)"
      />
      <circle cx="54" cy="14" r="4" fill="currentColor" />
      <path d="M14 40a18 18 0 0 0 30 10z" fill="currentColor" />
      <path d="M29 45l-5 14h16l-5-14" fill="currentColor" />
    </svg>
  );
}
