import { useSiteSettings } from '@yield/platform';

export function LogoMark() {
  return (
    <svg className="logo-mark" viewBox="0 0 32 32" width="32" height="32" aria-hidden="true">
      <rect width="32" height="32" rx="8" fill="#0b1f3a" />
      <path
        d="M8 22l6-7 4 4 6-9"
        stroke="#34d399"
        strokeWidth="3"
        fill="none"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

export function LogoText() {
  const settings = useSiteSettings();
  return <span className="logo-text">{settings?.siteTitle ?? ''}</span>;
}
