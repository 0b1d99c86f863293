import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { InfoParseError, parseKeyCount, parseMemberInfo, parseReplicationInfo } from './info.ts';

// Every fixture is a verbatim `redis-cli INFO …` reply (CRLF line ends) captured from redis-server 7.0.15.
function fixture(name: string): string {
  return readFileSync(new URL(`./testdata/${name}`, import.meta.url), 'utf8');
}

describe('parseReplicationInfo', () => {
  it('reads a primary without replicas', () => {
    expect(parseReplicationInfo(fixture('standalone-primary.txt'))).toEqual({
      role: 'primary',
      offset: 0,
      replid: '2640629bfcb9d55e90768116139be907c720abbd',
      replicas: [],
    });
  });

  it('reads a primary with two online replicas and their acknowledged offsets', () => {
    const info = parseReplicationInfo(fixture('primary-with-keyspace.txt'));
    expect(info).toMatchObject({ role: 'primary', offset: 320 });
    expect(info.role === 'primary' ? info.replicas : []).toEqual([
      { ip: '127.0.0.1', port: 7102, state: 'online', offset: 320, lag: 0 },
      { ip: '127.0.0.1', port: 7103, state: 'online', offset: 320, lag: 0 },
    ]);
  });

  it("reads Redis' own good-replica count when write fencing is on, even while it trails the replicas' lag", () => {
    // Captured with min-replicas-to-write 1 / min-replicas-max-lag 2, within a second of SIGCONT to a stopped replica.
    const info = parseReplicationInfo(fixture('primary-fenced-replica-resumed.txt'));
    expect(info).toMatchObject({ role: 'primary', goodReplicas: 0, replicas: [{ port: 7302, state: 'online', lag: 0 }] });
    expect(parseReplicationInfo(fixture('primary-two-replicas.txt'))).not.toHaveProperty('goodReplicas');
  });

  it('reads the acknowledged offset of each replica right after WAIT', () => {
    const info = parseReplicationInfo(fixture('primary-two-replicas.txt'));
    expect(info.role === 'primary' ? info.replicas.map((r) => [r.port, r.offset]) : []).toEqual([
      [7102, 201],
      [7103, 201],
    ]);
  });

  it('reads a linked replica', () => {
    expect(parseReplicationInfo(fixture('replica-link-up.txt'))).toEqual({
      role: 'replica',
      primaryHost: '127.0.0.1',
      primaryPort: 7101,
      linkUp: true,
      syncInProgress: false,
      offset: 251,
      replid: '2c151f4babd434bbf08f4a68764b4ec66c166ec8',
    });
  });

  it('reads a replica whose primary is gone: link down, offset kept', () => {
    expect(parseReplicationInfo(fixture('replica-link-down.txt'))).toMatchObject({ role: 'replica', linkUp: false, offset: 288 });
  });

  it('reads a replica that has never synchronised as offset 0', () => {
    expect(parseReplicationInfo(fixture('replica-initial-sync.txt'))).toMatchObject({ role: 'replica', linkUp: false, offset: 0 });
  });

  it('reads a replica pointed at a primary that does not answer', () => {
    expect(parseReplicationInfo(fixture('replica-connecting.txt'))).toMatchObject({ role: 'replica', primaryPort: 7199, linkUp: false });
  });

  it('reads a promoted replica as a primary that kept its offset', () => {
    expect(parseReplicationInfo(fixture('promoted-replica.txt'))).toMatchObject({ role: 'primary', offset: 288, replicas: [] });
  });

  it('finds the replication section inside a full INFO reply', () => {
    expect(parseReplicationInfo(fixture('replica-full-info.txt'))).toMatchObject({ role: 'replica', primaryPort: 7199 });
  });

  it('refuses text without a role', () => {
    expect(() => parseReplicationInfo('# Server\r\nredis_version:7.0.15\r\n')).toThrow(InfoParseError);
  });

  it('refuses a replica without its primary address', () => {
    expect(() => parseReplicationInfo('role:slave\r\nslave_repl_offset:1\r\n')).toThrow(/master_host/);
  });
});

describe('parseKeyCount', () => {
  it('sums the keys of every database', () => {
    expect(parseKeyCount('# Keyspace\r\ndb0:keys=5,expires=0,avg_ttl=0\r\ndb3:keys=2,expires=1,avg_ttl=9\r\n')).toBe(7);
  });

  it('is 0 for an empty keyspace section', () => {
    expect(parseKeyCount(fixture('standalone-primary.txt'))).toBe(0);
  });
});

describe('parseMemberInfo', () => {
  it('reads replication and keyspace from one reply', () => {
    expect(parseMemberInfo(fixture('primary-with-keyspace.txt'))).toMatchObject({ replication: { role: 'primary', offset: 320 }, keys: 5 });
  });

  it('reads the run_id when the reply has the server section, and leaves it out otherwise', () => {
    expect(parseMemberInfo(fixture('replica-full-info.txt')).runId).toBe('9aaa25494762b14d5bb1d889d4a98105b2546c49');
    expect(parseMemberInfo(fixture('primary-with-keyspace.txt'))).not.toHaveProperty('runId');
  });
});
