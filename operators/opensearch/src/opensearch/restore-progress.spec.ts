import { describe, expect, it } from 'vitest';
import { progressOf, recognise } from './restore-progress.ts';
import type { TargetObservation } from './restore-progress.ts';
import type { ShardRecovery } from './snapshot-types.ts';

const fromSnapshot = (stage: string, snapshot = 'nightly'): ShardRecovery => ({ id: 0, primary: true, type: 'SNAPSHOT', stage, snapshot: { repository: 'backups', snapshot, index: 'team-a-logs' } });
const observed = (target: string, shards: readonly ShardRecovery[], health = 'green'): TargetObservation => ({
  target,
  exists: true,
  health,
  recovery: { index: target, shardsTotal: shards.length, shardsDone: shards.filter((s) => s.stage === 'DONE').length, shards },
});
const source = { repository: 'backups', snapshot: 'nightly' };

describe('recognise', () => {
  it('tells absent, ours, foreign and unsettled apart', () => {
    expect(recognise([{ target: 'a', exists: false }], source)).toEqual({ kind: 'absent' });
    expect(recognise([observed('a', [fromSnapshot('INDEX'), { id: 0, primary: false, type: 'PEER', stage: 'INIT' }])], source)).toEqual({ kind: 'ours' });
    expect(recognise([observed('a', [fromSnapshot('DONE', 'other')])], source)).toEqual({ kind: 'foreign', foreign: ['a'] });
    expect(recognise([observed('a', [{ id: 0, primary: true, type: 'EMPTY_STORE', stage: 'DONE' }])], source)).toEqual({ kind: 'foreign', foreign: ['a'] });
    expect(recognise([observed('a', [fromSnapshot('DONE')]), { target: 'b', exists: false }], source).kind).toBe('unsettled');
    expect(recognise([{ target: 'a', exists: true }], source).kind).toBe('unsettled');
  });
});

describe('progressOf', () => {
  it('is done only when every listed shard is DONE and no target is red', () => {
    expect(progressOf([observed('a', [fromSnapshot('DONE')], 'green'), observed('b', [fromSnapshot('DONE')], 'yellow')])).toEqual({ kind: 'progress', done: true, shardsTotal: 2, shardsDone: 2, stalled: [] });
    expect(progressOf([observed('a', [fromSnapshot('INDEX')], 'red')])).toEqual({ kind: 'progress', done: false, shardsTotal: 1, shardsDone: 0, stalled: [] });
    expect(progressOf([observed('a', [], 'red')])).toMatchObject({ done: false, stalled: ['a'] });
    expect(progressOf([observed('a', [fromSnapshot('DONE')], 'red')])).toMatchObject({ done: false, stalled: ['a'] });
  });

  it('reports a target that no longer exists', () => {
    expect(progressOf([observed('a', [fromSnapshot('DONE')]), { target: 'b', exists: false }])).toEqual({ kind: 'missing', indices: ['b'] });
  });
});
