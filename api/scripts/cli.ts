/** What the operator commands share: a result a test can read, and running as a command. */
export interface CliResult {
  exitCode: number;
  output: string;
}

/**
 * Runs `command` with the process arguments when `moduleUrl` is the script node was started with
 * (not when a test imports it): output on stdout (exit 0) or stderr, then that exit code.
 */
export function runAsCommand(
  moduleUrl: string,
  command: (argv: string[]) => Promise<CliResult>,
): void {
  if (moduleUrl !== `file://${process.argv[1]}`) return;
  command(process.argv.slice(2)).then(
    ({ exitCode, output }) => {
      (exitCode === 0 ? console.log : console.error)(output);
      process.exit(exitCode);
    },
    (err: unknown) => {
      console.error((err as Error).message);
      process.exit(1);
    },
  );
}
