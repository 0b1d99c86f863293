// Turns a V8 CPU profile (`node --cpu-prof`) of one informer sync into the time spent per phase of the sync.

/** The part of a `.cpuprofile` file this module reads (Chrome DevTools protocol `Profiler.Profile`). */
export interface CpuProfile {
  readonly nodes: readonly {
    readonly id: number;
    readonly callFrame: { readonly functionName: string; readonly url: string };
    readonly children?: readonly number[];
  }[];
  /** Microseconds on the monotonic clock that `process.hrtime` reads. */
  readonly startTime: number;
  readonly samples: readonly number[];
  /** Microseconds between consecutive samples (the first: since `startTime`). */
  readonly timeDeltas: readonly number[];
}

/** The phases of a sync, in the order the report prints them. */
export const PHASES = [
  'network wait (idle)',
  'HTTP + TLS + streams',
  'bytes to string',
  'JSON.parse',
  'list / stream handling',
  'transform (strip managedFields)',
  'freeze',
  'store insert + index',
  'event dispatch',
  'watcher',
  'garbage collection',
  'other JS',
  'native / program',
] as const;

/** One of {@link PHASES}. */
export type Phase = (typeof PHASES)[number];

/** Time per phase within a window of the profile. */
export interface PhaseBreakdown {
  readonly windowMs: number;
  readonly sampledMs: number;
  readonly phases: readonly { readonly phase: Phase; readonly ms: number; readonly share: number }[];
}

interface Frame {
  readonly functionName: string;
  readonly url: string;
}

/** The phase a frame names, or undefined when it says nothing (the caller's frame decides then). */
function phaseOfFrame(frame: Frame): Phase | undefined {
  const { functionName: name, url } = frame;
  if (name === '(idle)') return 'network wait (idle)';
  if (name === '(garbage collector)') return 'garbage collection';
  if (name === '(program)') return 'native / program';
  if (name === 'deepFreeze') return 'freeze';
  if (name === 'stripManagedFields') return 'transform (strip managedFields)';
  if (url === '' && name === 'parse') return 'JSON.parse';
  if (name === 'parseJson' || name === 'parseWatchLine') return 'JSON.parse';
  if (url === 'node:buffer' || name === 'utf8Slice' || name === 'toString') return 'bytes to string';
  if (url.endsWith('/store.ts')) return 'store insert + index';
  if (url.endsWith('/reflector.ts') || url.endsWith('/informer.ts')) return 'event dispatch';
  if (url.endsWith('/http-watch-transport.ts') || url.endsWith('/list-body.ts')) return 'list / stream handling';
  if (url.endsWith('/watcher.ts') || url.endsWith('/initial-events.ts')) return 'watcher';
  if (/^node:(internal\/)?(_?tls|_http|http|https|net|stream|internal\/streams|internal\/tls|internal\/http)/.test(url)) return 'HTTP + TLS + streams';
  return undefined;
}

/**
 * Sums the samples taken between `fromUs` and `toUs` (monotonic microseconds, as `process.hrtime.bigint() / 1000n`)
 * by phase: each sample goes to the phase of its innermost frame that names one (so `Object.freeze` called from
 * `deepFreeze` is freeze, a `Map.set` called from the store is the store), else to `other JS`.
 */
export function phaseBreakdown(profile: CpuProfile, fromUs: number, toUs: number): PhaseBreakdown {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const phaseOfNode = new Map<number, Phase>();
  const resolve = (id: number): Phase => {
    const known = phaseOfNode.get(id);
    if (known !== undefined) return known;
    const node = byId.get(id);
    const own = node === undefined ? undefined : phaseOfFrame(node.callFrame);
    const up = parent.get(id);
    const phase = own ?? (up === undefined ? 'other JS' : resolve(up));
    phaseOfNode.set(id, phase);
    return phase;
  };

  const totals = new Map<Phase, number>(PHASES.map((phase) => [phase, 0]));
  let time = profile.startTime;
  let sampled = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const delta = profile.timeDeltas[i] ?? 0;
    time += delta;
    if (time < fromUs || time > toUs) continue;
    // A sample stands for the interval since the previous one.
    const phase = resolve(profile.samples[i] ?? 0);
    totals.set(phase, (totals.get(phase) ?? 0) + delta);
    sampled += delta;
  }
  return {
    windowMs: (toUs - fromUs) / 1000,
    sampledMs: sampled / 1000,
    phases: PHASES.map((phase) => {
      const us = totals.get(phase) ?? 0;
      return { phase, ms: us / 1000, share: sampled > 0 ? us / sampled : 0 };
    }),
  };
}

/** The `count` functions with the most self time between `fromUs` and `toUs`, as `name (file)` and milliseconds. */
export function topFunctions(profile: CpuProfile, fromUs: number, toUs: number, count: number): { readonly name: string; readonly ms: number }[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map<string, number>();
  let time = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    const delta = profile.timeDeltas[i] ?? 0;
    time += delta;
    if (time < fromUs || time > toUs) continue;
    const frame = byId.get(profile.samples[i] ?? 0)?.callFrame;
    if (frame === undefined) continue;
    const file = frame.url.split('/').pop() ?? '';
    const name = `${frame.functionName === '' ? '(anonymous)' : frame.functionName}${file === '' ? '' : ` (${file})`}`;
    totals.set(name, (totals.get(name) ?? 0) + delta);
  }
  return [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, us]) => ({ name, ms: us / 1000 }));
}
