/** Intervals written as a number and a unit: `30s`, `15m`, `6h`, `1d` (DATA_IMPORT_INTERVAL). */

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `30s`, `15m`, `6h`, `1d` -> milliseconds; unset or empty -> null (no schedule). */
export function parseInterval(raw: string | undefined): number | null {
  if (raw === undefined || raw.trim() === '') return null;
  const m = /^\s*(\d+)\s*([smhd])\s*$/i.exec(raw);
  const ms = m ? Number(m[1]) * UNIT_MS[m[2]!.toLowerCase()]! : 0;
  if (!(ms > 0)) {
    throw new Error(
      `DATA_IMPORT_INTERVAL must be a positive number with a unit s, m, h or d (e.g. 15m, 6h), got "${raw}"`,
    );
  }
  return ms;
}
