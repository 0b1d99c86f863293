import { helm } from '@domain-operators/e2e-harness';
import { describe, expect, it } from 'vitest';
import { CHARTS } from './chart-files.ts';

// Each case: values that must be refused, and the part of helm's message that says why.
const BAD_VALUES: readonly { readonly what: string; readonly set: Readonly<Record<string, unknown>>; readonly message: string }[] = [
  { what: 'replicaCount below 1', set: { replicaCount: 0 }, message: "at '/replicaCount': minimum: got 0, want 1" },
  { what: 'a fractional replicaCount', set: { replicaCount: 1.5 }, message: "at '/replicaCount': got number, want integer" },
  { what: 'an unknown log level', set: { logLevel: 'verbose' }, message: "at '/logLevel': value must be one of 'trace', 'debug', 'info', 'warn', 'error'" },
  { what: 'a numeric image tag', set: { image: { tag: 1.2 } }, message: "at '/image/tag': got number, want string" },
  { what: 'an unknown pull policy', set: { image: { pullPolicy: 'Sometimes' } }, message: "at '/image/pullPolicy': value must be one of 'Always', 'IfNotPresent', 'Never'" },
  { what: 'maxConcurrentReconciles 0', set: { maxConcurrentReconciles: 0 }, message: "at '/maxConcurrentReconciles': minimum: got 0, want 1" },
  { what: 'a misspelt top-level value', set: { replicas: 2 }, message: "additional properties 'replicas' not allowed" },
  { what: 'an extra flag without --', set: { extraArgs: ['log-level=debug'] }, message: "at '/extraArgs/0'" },
  { what: 'a bad memory quantity', set: { resources: { limits: { memory: '512 megabytes' } } }, message: "at '/resources/limits/memory'" },
  { what: 'an invalid namespace name', set: { watchNamespaces: ['Team_A'] }, message: "at '/watchNamespaces/0'" },
];

describe.each(CHARTS)('values.schema.json of $name', (chart) => {
  it.each(BAD_VALUES)('refuses $what with a message naming the value', async ({ set, message }) => {
    const args = ['template', 'r', chart.dir, ...Object.entries(set).flatMap(([key, value]) => ['--set-json', `${key}=${JSON.stringify(value)}`])];
    const result = await helm(args);
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr).toContain("values don't meet the specifications of the schema");
    expect(result.stderr).toContain(message);
  });

  it('accepts the defaults and a quoted numeric tag', async () => {
    expect((await helm(['template', 'r', chart.dir])).exitCode).toBe(0);
    expect((await helm(['template', 'r', chart.dir, '--set-json', 'image={"tag":"1.2"}'])).exitCode).toBe(0);
  });
});
