/** Shared helpers of the user-data tables' rows. */

/** A timestamp column as the ISO text of the records, null kept. */
export const iso = (d: Date | null): string | null => (d === null ? null : d.toISOString());
