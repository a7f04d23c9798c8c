/**
 * The legal pages show 'Last Updated' as the current date (spec section 2). One formatter so the
 * pages and their tests agree on the wording.
 */
export function formatLastUpdated(date: Date = new Date()): string {
  return date.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
}

/** YYYY-MM-DD (as the API sends dates) to a readable date, in UTC so it never shifts a day. */
export function formatIsoDate(iso: string): string {
  const parsed = new Date(`${iso}T00:00:00Z`);
  if (Number.isNaN(parsed.getTime())) return iso;
  return parsed.toLocaleDateString('en-US', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  });
}
