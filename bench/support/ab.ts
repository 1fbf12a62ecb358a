import { median, round } from "./stats";

/* The pure parts of `pnpm bench:ab` (bench/ab-create.ts): its arms, and the spread of its figures. */

/** One arm of the A/B: a checkout's gateway, with settings of its own. */
export interface AbArm {
  label: string;
  dir: string;
  /** Settings given to this arm's gateway (a --variant of this checkout). */
  env: Record<string, string>;
}

/** `--variant "name:KEY=VALUE,KEY=VALUE|other:KEY=VALUE"`: the checkout at `dir` again, with other settings. */
export function variantsOf(spec: string | undefined, dir: string, commit: string): AbArm[] {
  return (spec ?? "")
    .split("|")
    .filter(Boolean)
    .map((one) => {
      const [name, settings = ""] = one.split(/:(.*)/s);
      const pairs = settings.split(",").filter(Boolean);
      if (!name || pairs.length === 0 || pairs.some((kv) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(kv))) {
        throw new Error(`--variant "${one}": expected name:KEY=VALUE[,KEY=VALUE]`);
      }
      // A value may hold "=" (NODE_OPTIONS=--flag=1): only the first one splits.
      const env = Object.fromEntries(pairs.map((kv) => kv.split(/=(.*)/s).slice(0, 2) as [string, string]));
      return { dir, label: `${commit}:${name}`, env };
    });
}

export interface Spread {
  median: number;
  q1: number;
  q3: number;
  min: number;
  max: number;
}

/** Median and quartiles (nearest rank) of the rounds' figures. */
export function spreadOf(xs: readonly number[]): Spread {
  if (xs.length === 0) throw new Error("no figures to spread");
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.max(0, Math.round(p * (s.length - 1))))]!;
  return { median: round(median(s), 3), q1: round(q(0.25), 3), q3: round(q(0.75), 3), min: round(s[0]!, 3), max: round(s[s.length - 1]!, 3) };
}

/** Each round's figure over the base arm's in the same round: the pairing is what cancels the machine's drift. */
export function pairedRatios(figures: readonly number[], base: readonly number[]): number[] {
  if (figures.length !== base.length) throw new Error(`paired figures need as many rounds (${figures.length} against ${base.length})`);
  return figures.map((x, i) => x / base[i]!);
}

/** Within noise: the ratio's q1-q3 range includes 1. */
export const withinNoise = (ratios: Spread): boolean => ratios.q1 <= 1 && ratios.q3 >= 1;
