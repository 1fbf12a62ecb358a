// Everything `pnpm start` says itself goes through here, so its own lines stand apart from the
// services' logs and colours switch off when the output is piped into a file or another program.
const useColor = Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;

const CODES = { red: 31, green: 32, yellow: 33, blue: 34, magenta: 35, cyan: 36, gray: 90, bold: 1 } as const;
export type Color = keyof typeof CODES;

export function paint(color: Color, text: string): string {
  return useColor ? `\u001b[${CODES[color]}m${text}\u001b[0m` : text;
}

/** A progress line: what is being done right now. */
export function step(message: string): void {
  process.stdout.write(`${paint("cyan", "up")} ${message}\n`);
}

export function ok(message: string): void {
  process.stdout.write(`${paint("cyan", "up")} ${paint("green", "✓")} ${message}\n`);
}

export function warn(message: string): void {
  process.stderr.write(`${paint("cyan", "up")} ${paint("yellow", "!")} ${message}\n`);
}

export function fail(message: string): void {
  process.stderr.write(`${paint("cyan", "up")} ${paint("red", "✗")} ${message}\n`);
}
