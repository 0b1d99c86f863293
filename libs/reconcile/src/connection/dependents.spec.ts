import { describe, expect, it } from 'vitest';
import type { ConnectionObject } from './connection-object.ts';
import { connectionUsabilityChanged } from './dependents.ts';

function connection(generation: number, ready?: 'True' | 'False', health = 'green'): ConnectionObject & { status?: { health: string } } {
  return {
    metadata: { name: 'main', generation },
    status: { health, conditions: ready === undefined ? [] : [{ type: 'Ready', status: ready, reason: ready === 'True' ? 'Connected' : 'Down', message: '', lastTransitionTime: '2026-01-01T00:00:00Z' }] },
  };
}

describe('connectionUsabilityChanged', () => {
  it('passes creation, deletion, a spec change and a flip of Ready; not another status write', () => {
    expect(connectionUsabilityChanged({ type: 'create', object: connection(1) })).toBe(true);
    expect(connectionUsabilityChanged({ type: 'delete', object: connection(1) })).toBe(true);
    expect(connectionUsabilityChanged({ type: 'update', object: connection(2, 'True'), oldObject: connection(1, 'True') })).toBe(true);
    expect(connectionUsabilityChanged({ type: 'update', object: connection(1, 'True'), oldObject: connection(1, 'False') })).toBe(true);
    expect(connectionUsabilityChanged({ type: 'update', object: connection(1, 'True'), oldObject: connection(1) })).toBe(true);
    expect(connectionUsabilityChanged({ type: 'update', object: connection(1, 'True', 'yellow'), oldObject: connection(1, 'True', 'green') })).toBe(false);
  });
});
