import { useSiteSettings } from './settings.ts';

export interface PageMetaProps {
  /** The page part of the title: rendered as `page | site title`. */
  title: string;
  description: string;
  /** Home page only: canonical link and social-share tags. */
  social?: boolean;
}

/** Sets the document title and meta description (React 19 hoists these into <head>). */
export function PageMeta({ title, description, social = false }: PageMetaProps) {
  const settings = useSiteSettings();
  const siteTitle = settings?.siteTitle;
  const fullTitle = siteTitle ? `${title} | ${siteTitle}` : title;
  const url = settings?.siteUrl;
  return (
    <>
      <title>{fullTitle}</title>
      <meta name="description" content={description} />
      {social && url ? (
        <>
          <link rel="canonical" href={url} />
          <meta property="og:type" content="website" />
          <meta property="og:title" content={fullTitle} />
          <meta property="og:description" content={description} />
          <meta property="og:url" content={url} />
          {siteTitle ? <meta property="og:site_name" content={siteTitle} /> : null}
          <meta name="twitter:card" content="summary" />
          <meta name="twitter:title" content={fullTitle} />
          <meta name="twitter:description" content={description} />
        </>
      ) : null}
    </>
  );
}
