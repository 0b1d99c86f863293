import { describe, expect, it } from 'vitest';
import { shutdownSignal, ShutdownRequestedError } from './shutdown-signal.ts';
import type { SignalProcess } from './shutdown-signal.ts';

function fakeProcess() {
  const listeners = new Map<string, (() => void)[]>();
  const exits: number[] = [];
  const proc: SignalProcess = {
    on: (signal, listener) => listeners.set(signal, [...(listeners.get(signal) ?? []), listener]),
    exit: (code) => {
      exits.push(code);
      return undefined as never;
    },
  };
  const send = (signal: string): void => {
    for (const listener of listeners.get(signal) ?? []) listener();
  };
  return { proc, exits, send };
}

describe('shutdownSignal', () => {
  it('aborts on the first SIGTERM and exits 1 on a second signal', () => {
    const { proc, exits, send } = fakeProcess();
    const signal = shutdownSignal({ process: proc });
    expect(signal.aborted).toBe(false);
    send('SIGTERM');
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBeInstanceOf(ShutdownRequestedError);
    expect(exits).toEqual([]);
    send('SIGINT');
    expect(exits).toEqual([1]);
  });

  it('aborts on SIGINT too', () => {
    const { proc, send } = fakeProcess();
    const signal = shutdownSignal({ process: proc });
    send('SIGINT');
    expect(signal.aborted).toBe(true);
  });
});
