/** Child processes of the benchmarks (the API needs tsx to load TypeScript). */
import { spawn } from 'node:child_process';

/**
 * Starts `node ...args` and resolves with the child once it prints a line starting with `ready`;
 * the rest of that line is handed over as `child.readyLine`.
 */
export function startChild(args, env, cwd, timeoutMs = 30_000) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')} did not start`)), timeoutMs);
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += String(chunk);
      const line = out.split('\n').find((l) => l.startsWith('ready'));
      if (line !== undefined) {
        clearTimeout(timer);
        child.readyLine = line.slice('ready'.length).trim();
        resolve(child);
      }
    });
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
  });
}
