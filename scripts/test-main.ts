/**
 * Runs a test command's main: its exit code, or on a crash the reason on stderr and a last line of
 * "0 passed, 1 failed" (CI reads the last line).
 */
export function runTestMain(main: () => Promise<number>): void {
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`${(err as Error).message}\n`);
      process.stdout.write("0 passed, 1 failed\n");
      process.exit(1);
    },
  );
}
