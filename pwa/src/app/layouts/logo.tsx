/** The Nagai mark: a gold jewel drop hanging from a maroon arch, like a temple pendant. */
export function NagaiMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" className={className} aria-hidden="true" focusable="false">
      <path d="M6 12a10 10 0 0 1 20 0" fill="none" stroke="#7a1f2b" strokeWidth="3" strokeLinecap="round" />
      <circle cx="16" cy="4.5" r="2" fill="#d9a93f" />
      <path d="M16 11 22 18.5 16 29 10 18.5Z" fill="#d9a93f" stroke="#9a6b12" strokeWidth="1.2" />
      <path d="M16 11v18M10 18.5h12" stroke="#9a6b12" strokeWidth="0.9" />
      <circle cx="16" cy="18.5" r="1.7" fill="#7a1f2b" />
    </svg>
  );
}
