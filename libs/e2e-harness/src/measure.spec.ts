import { describe, expect, it } from 'vitest';
import { counterIncrease, cpuSecondsFromStat, cpuSecondsOf, median, metricSum, waitForCount } from './measure.ts';

describe('metricSum', () => {
  const text = [
    '# HELP kafka_operator_admin_requests_total Admin requests.',
    '# TYPE kafka_operator_admin_requests_total counter',
    'kafka_operator_admin_requests_total{api="Metadata"} 3',
    'kafka_operator_admin_requests_total{api="CreateTopics"} 2',
    'kafka_operator_admin_requests_total_other{api="Metadata"} 100',
    'process_resident_memory_bytes 1024',
  ].join('\n');

  it('sums the samples of one name whose labels match', () => {
    expect(metricSum(text, 'kafka_operator_admin_requests_total')).toBe(5);
    expect(metricSum(text, 'kafka_operator_admin_requests_total', { api: 'Metadata' })).toBe(3);
    expect(metricSum(text, 'process_resident_memory_bytes')).toBe(1024);
    expect(metricSum(text, 'kafka_operator_admin_requests_total', { api: 'Nope' })).toBe(0);
  });
});

describe('median', () => {
  it('takes the middle value, or the mean of the middle two', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(() => median([])).toThrow(/median of nothing/);
  });
});

describe('cpuSecondsFromStat', () => {
  it('adds utime and stime, counting fields after the command name even when it holds spaces and parentheses', () => {
    const line = '4242 (node (main) x) S 1 4242 4242 0 -1 4194304 100 0 0 0 250 75 0 0 20 0 11 0 500 1000 200 18446744073709551615\n';
    expect(cpuSecondsFromStat(line)).toBe(3.25);
  });

  it('refuses text that is not a stat line', () => {
    expect(() => cpuSecondsFromStat('nonsense')).toThrow(/not a/);
  });

  it('reads this very process, and nothing for a pid that does not run', async () => {
    expect(await cpuSecondsOf(process.pid)).toBeGreaterThan(0);
    expect(await cpuSecondsOf(2 ** 22 + 7)).toBeUndefined();
  });
});

describe('counterIncrease', () => {
  const before = ['x_requests_total{api="get"} 3', 'x_requests_total{api="put"} 1', 'x_requests_total_other{api="get"} 50'].join('\n');
  const after = ['x_requests_total{api="get"} 10', 'x_requests_total{api="put"} 1', 'x_requests_total{code="200",api="new"} 2', 'x_requests_total_other{api="get"} 90'].join('\n');

  it('gives the growth per label value since the earlier scrape, leaving out values that did not grow', () => {
    expect(counterIncrease(before, after, 'x_requests_total', 'api')).toEqual({ total: 9, byLabel: { get: 7, new: 2 } });
  });

  it('is nothing between equal scrapes', () => {
    expect(counterIncrease(after, after, 'x_requests_total', 'api')).toEqual({ total: 0, byLabel: {} });
  });
});

describe('waitForCount', () => {
  it('resolves once the count reaches the expected number', async () => {
    let n = 0;
    await waitForCount(() => ++n, 3, 'things', 5_000, 1);
    expect(n).toBe(3);
  });

  it('rejects with the last count after the timeout', async () => {
    await expect(waitForCount(() => 1, 2, 'KafkaTopics Ready', 30, 5)).rejects.toThrow('only 1 of 2 KafkaTopics Ready after 0 s');
  });
});
