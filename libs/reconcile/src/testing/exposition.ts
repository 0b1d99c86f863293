// A small parser of the Prometheus text exposition format (0.0.4), for tests. Not exported from the package.

/** One sample line: `name{label="value",…} value`. */
export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** A parsed scrape: HELP and TYPE per metric family, and every sample in order. */
export interface Exposition {
  readonly help: ReadonlyMap<string, string>;
  readonly type: ReadonlyMap<string, string>;
  readonly samples: readonly Sample[];
}

/** Parses `text`; throws on a line it does not understand, so a malformed exposition fails the test. */
export function parseExposition(text: string): Exposition {
  const help = new Map<string, string>();
  const type = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const meta = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) (.*)$/.exec(line);
    if (meta) {
      const [, kind, name, rest] = meta as unknown as [string, string, string, string];
      (kind === 'HELP' ? help : type).set(name, kind === 'HELP' ? unescapeHelp(rest) : rest);
      continue;
    }
    if (line.startsWith('#')) continue;
    samples.push(parseSample(line));
  }
  return { help, type, samples };
}

/**
 * The sum of the samples called `name` whose labels include every pair of `labels` (0 when none match), so
 * `valueOf(e, 'workqueue_adds_total', { name: 'widgets' })` reads one series.
 */
export function valueOf(exposition: Exposition, name: string, labels: Readonly<Record<string, string>> = {}): number {
  return matching(exposition, name, labels).reduce((sum, sample) => sum + sample.value, 0);
}

/** The samples called `name` whose labels include every pair of `labels`. */
export function matching(exposition: Exposition, name: string, labels: Readonly<Record<string, string>> = {}): Sample[] {
  return exposition.samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
}

function parseSample(line: string): Sample {
  const head = /^([a-zA-Z_:][a-zA-Z0-9_:]*)/.exec(line);
  if (!head?.[1]) throw new Error(`bad sample line: ${line}`);
  const name = head[1];
  let i = name.length;
  const labels: Record<string, string> = {};
  if (line[i] === '{') {
    i++;
    while (line[i] !== '}') {
      const label = /^\s*([a-zA-Z_][a-zA-Z0-9_]*)="/.exec(line.slice(i));
      if (!label?.[1]) throw new Error(`bad labels in: ${line}`);
      i += label[0].length;
      let value = '';
      for (;;) {
        const c = line[i];
        if (c === undefined) throw new Error(`unterminated label value in: ${line}`);
        i++;
        if (c === '"') break;
        if (c === '\\') {
          const next = line[i];
          i++;
          value += next === 'n' ? '\n' : (next ?? '');
        } else {
          value += c;
        }
      }
      labels[label[1]] = value;
      if (line[i] === ',') i++;
    }
    i++;
  }
  const rest = line.slice(i).trim().split(/\s+/);
  const raw = rest[0];
  if (raw === undefined || raw === '') throw new Error(`missing value in: ${line}`);
  // Go's ParseFloat, which Prometheus uses, takes any case of NaN and Inf (prom-client writes `Nan`).
  const lower = raw.toLowerCase();
  const value = lower === 'nan' ? NaN : lower === '+inf' || lower === 'inf' ? Infinity : lower === '-inf' ? -Infinity : Number(raw);
  if (Number.isNaN(value) && lower !== 'nan') throw new Error(`bad value in: ${line}`);
  return { name, labels, value };
}

function unescapeHelp(text: string): string {
  return text.replace(/\\(\\|n)/g, (_, c: string) => (c === 'n' ? '\n' : '\\'));
}
