import { describe, expect, it } from 'vitest';
import { ConfigError, parseManagerOptions } from './manager-options.ts';

const defaults = { leaseName: 'test-operator.example.io' };

describe('parseManagerOptions', () => {
  it('uses controller-runtime defaults when nothing is set', () => {
    const options = parseManagerOptions([], {}, defaults);
    expect(options).toEqual({
      metricsBindAddress: ':8080',
      healthProbeBindAddress: ':8081',
      leaderElection: {
        enabled: false,
        leaseName: 'test-operator.example.io',
        namespace: undefined,
        leaseDurationMs: 15_000,
        renewDeadlineMs: 10_000,
        retryPeriodMs: 2_000,
      },
      namespaces: [],
      logLevel: 'info',
      maxConcurrentReconciles: 1,
    });
  });

  it('reads the environment, and flags win over it', () => {
    const env = { WATCH_NAMESPACES: 'a, b,,c', LOG_LEVEL: 'debug', MAX_CONCURRENT_RECONCILES: '4', LEADER_ELECT: 'true' };
    const options = parseManagerOptions(['--log-level', 'warn', '--lease-duration', '30s'], env, defaults);
    expect(options.namespaces).toEqual(['a', 'b', 'c']);
    expect(options.logLevel).toBe('warn');
    expect(options.maxConcurrentReconciles).toBe(4);
    expect(options.leaderElection.enabled).toBe(true);
    expect(options.leaderElection.leaseDurationMs).toBe(30_000);
  });

  it.each([
    [['--log-level', 'loud'], /--log-level \(or LOG_LEVEL\) must be one of trace, debug, info, warn, error, got "loud"/],
    [['--max-concurrent-reconciles', '0'], /MAX_CONCURRENT_RECONCILES\) must be a whole number/],
    [['--metrics-bind-address', 'nonsense'], /must be host:port/],
    [['--renew-deadline', '20s'], /lease duration > renew deadline > retry period, got 15000 ms, 20000 ms, 2000 ms/],
    [['--retry-period', 'soon'], /must be a duration/],
    [['--unknown-flag'], /Unknown option '--unknown-flag'/],
  ])('refuses %j with a clear message', (argv, message) => {
    expect(() => parseManagerOptions(argv, {}, defaults)).toThrow(ConfigError);
    expect(() => parseManagerOptions(argv, {}, defaults)).toThrow(message);
  });

  it('refuses a leader-elect value that is not a boolean', () => {
    expect(() => parseManagerOptions([], { LEADER_ELECT: 'yes' }, defaults)).toThrow(/LEADER_ELECT\) must be true or false/);
  });
});
