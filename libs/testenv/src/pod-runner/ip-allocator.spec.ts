import { describe, expect, it } from 'vitest';
import { allocatePodIp, isPodIp } from './ip-allocator.ts';

describe('allocatePodIp', () => {
  it('is stable for a UID and inside the pod range', () => {
    const a = allocatePodIp('uid-a', new Set());
    expect(allocatePodIp('uid-a', new Set())).toBe(a);
    expect(isPodIp(a)).toBe(true);
  });

  it('never hands out a taken address', () => {
    const taken = new Set<string>();
    for (let i = 0; i < 500; i++) {
      const ip = allocatePodIp(`uid-${i}`, taken);
      expect(taken.has(ip)).toBe(false);
      taken.add(ip);
    }
    expect(taken.size).toBe(500);
  });

  it('probes past a collision', () => {
    const first = allocatePodIp('uid-x', new Set());
    const second = allocatePodIp('uid-x', new Set([first]));
    expect(second).not.toBe(first);
    expect(isPodIp(second)).toBe(true);
  });

  it('keeps a free preferred address and ignores a taken or foreign one', () => {
    expect(allocatePodIp('u', new Set(), '127.0.9.9')).toBe('127.0.9.9');
    expect(allocatePodIp('u', new Set(['127.0.9.9']), '127.0.9.9')).not.toBe('127.0.9.9');
    expect(allocatePodIp('u', new Set(), '10.0.0.5')).not.toBe('10.0.0.5');
  });
});

describe('isPodIp', () => {
  it('excludes the host loopback addresses', () => {
    expect(isPodIp('127.0.0.1')).toBe(false);
    expect(isPodIp('127.0.1.1')).toBe(false);
    expect(isPodIp('127.0.2.0')).toBe(false);
    expect(isPodIp('127.0.2.255')).toBe(false);
    expect(isPodIp('127.0.2.1')).toBe(true);
    expect(isPodIp('127.0.254.254')).toBe(true);
    expect(isPodIp('127.1.2.3')).toBe(false);
  });
});
