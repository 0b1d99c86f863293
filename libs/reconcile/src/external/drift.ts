/** Ten minutes: how often an external object is checked for hand-made changes unless the kind or the resource says otherwise. */
export const DEFAULT_DRIFT_CHECK_INTERVAL_MS = 10 * 60_000;

/** The default spread of a drift check: ±10 %, so resources created together do not all poll the backend together. */
export const DEFAULT_DRIFT_JITTER = 0.1;

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const DURATION = /^(?:\d+(?:\.\d+)?(?:ms|s|m|h))+$/;
const PART = /(\d+(?:\.\d+)?)(ms|s|m|h)/g;

/**
 * Parses a Go-style duration (`"500ms"`, `"30s"`, `"5m"`, `"1h30m"`) into milliseconds. Returns `undefined` for
 * anything else (empty, negative, no unit, unknown unit, `"0s"`), so callers decide what an invalid value means.
 * Pure.
 */
export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim();
  if (!DURATION.test(trimmed)) return undefined;
  let total = 0;
  for (const match of trimmed.matchAll(PART)) {
    const [, amount = '0', unit = 'ms'] = match;
    total += Number(amount) * (UNIT_MS[unit] ?? 0);
  }
  return total > 0 && Number.isFinite(total) ? Math.round(total) : undefined;
}

/**
 * Spreads `intervalMs` uniformly over `intervalMs × (1 ± fraction)`, using `random` (a `Math.random`-like source
 * in [0, 1), injected so tests are deterministic). Never returns less than 0. Pure given `random`.
 */
export function jittered(intervalMs: number, random: () => number, fraction = DEFAULT_DRIFT_JITTER): number {
  const spread = intervalMs * fraction;
  return Math.max(0, Math.round(intervalMs - spread + 2 * spread * random()));
}
