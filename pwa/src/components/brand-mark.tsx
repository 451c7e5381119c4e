// The Bookwell logo mark (same drawing as public/favicon.svg).

export function BrandMark({ size = 28 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <rect width="64" height="64" rx="14" fill="#0f766e" />
      <rect x="13" y="17" width="38" height="35" rx="4" fill="#fff" />
      <path d="M13 21a4 4 0 0 1 4-4h30a4 4 0 0 1 4 4v5H13z" fill="#ccfbf1" />
      <rect x="21.5" y="11" width="4" height="10" rx="2" fill="#fff" />
      <rect x="38.5" y="11" width="4" height="10" rx="2" fill="#fff" />
      <path d="M25 37.5l5.5 5.5 10-10" fill="none" stroke="#0f766e" strokeWidth="4.5" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
