import { describe, expect, it } from 'vitest';
import { systemClock } from './clock.ts';

describe('systemClock', () => {
  it('fires a short timer, and clearTimeout cancels one', async () => {
    let cleared = false;
    const handle = systemClock.setTimeout(() => {
      cleared = true;
    }, 5);
    systemClock.clearTimeout(handle);
    await new Promise<void>((resolve) => systemClock.setTimeout(resolve, 20));
    expect(cleared).toBe(false);
  });

  it('does not fire a timer longer than Node allows after 1 ms', async () => {
    let fired = false;
    const handle = systemClock.setTimeout(() => {
      fired = true;
    }, 2 ** 31 + 1_000);
    await new Promise<void>((resolve) => setTimeout(resolve, 30));
    systemClock.clearTimeout(handle);
    expect(fired).toBe(false);
  });
});
