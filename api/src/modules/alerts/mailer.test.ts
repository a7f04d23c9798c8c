import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createMailer, OUTBOX_DIR } from './mailer.ts';

describe('the outbox mailer', () => {
  it('writes each message as an .eml file only its owner can read (it holds an address)', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'yield-mailer-'));
    onTestFinished(() => rm(dataDir, { recursive: true, force: true }));
    const mailer = createMailer({ smtpUrl: undefined, dataDir });
    await mailer.send({
      from: 'Pigi <alerts@example.com>',
      to: 'saver@example.com',
      subject: 'Confirm your alert',
      text: 'Confirm: https://example.com/x',
      html: '<p>Confirm</p>',
    });
    mailer.close();
    const dir = path.join(dataDir, OUTBOX_DIR);
    const [name, ...rest] = await readdir(dir);
    expect(rest).toEqual([]);
    expect(name).toMatch(/\.eml$/);
    expect((await stat(path.join(dir, name!))).mode & 0o777).toBe(0o600);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    expect(await readFile(path.join(dir, name!), 'utf8')).toContain('To: saver@example.com');
  });
});
