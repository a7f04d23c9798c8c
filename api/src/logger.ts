/** Structured logging: one JSON line per event, so operators can grep the file and the reason. */
export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

function line(level: string, message: string, fields?: Record<string, unknown>): string {
  return JSON.stringify({ time: new Date().toISOString(), level, message, ...fields });
}

export const consoleLogger: Logger = {
  info: (m, f) => console.log(line('info', m, f)),
  warn: (m, f) => console.warn(line('warn', m, f)),
  error: (m, f) => console.error(line('error', m, f)),
};

export const silentLogger: Logger = { info: () => {}, warn: () => {}, error: () => {} };

/** Collects log lines in memory; tests assert on what an operator would read. */
export function memoryLogger(): Logger & {
  lines: { level: string; message: string; fields?: Record<string, unknown> }[];
} {
  const lines: { level: string; message: string; fields?: Record<string, unknown> }[] = [];
  const push = (level: string) => (message: string, fields?: Record<string, unknown>) => {
    lines.push(fields ? { level, message, fields } : { level, message });
  };
  return { lines, info: push('info'), warn: push('warn'), error: push('error') };
}
