import { generateClusterId } from './state.ts';
import { describe, expect, it } from 'vitest';
import { DEFAULT_KAFKA_PORTS, nodePorts, renderClientProperties, renderJavaArgFile, renderServerProperties, scramFormatArgs } from './config.ts';

function parse(properties: string): Map<string, string> {
  return new Map(
    properties
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)] as const),
  );
}

describe('renderServerProperties', () => {
  const props = parse(renderServerProperties({ dataDir: '/d', host: '127.0.0.1', ports: DEFAULT_KAFKA_PORTS, superUser: 'admin' }));

  it('runs one combined KRaft node with its own controller', () => {
    expect(props.get('process.roles')).toBe('broker,controller');
    expect(props.get('controller.quorum.voters')).toBe('1@127.0.0.1:19094');
  });

  it('advertises the SASL listener and the internal one, never the controller', () => {
    expect(props.get('advertised.listeners')).toBe('CLIENT://127.0.0.1:19092,INTERNAL://127.0.0.1:19093');
    expect(props.get('listener.security.protocol.map')).toBe('CLIENT:SASL_PLAINTEXT,INTERNAL:PLAINTEXT,CONTROLLER:PLAINTEXT');
  });

  it('deletes a deleted topic\u2019s files at once, not a minute later in the middle of the next test', () => {
    expect(props.get('log.segment.delete.delay.ms')).toBe('0');
  });

  it('denies by default and names the super users', () => {
    expect(props.get('authorizer.class.name')).toBe('org.apache.kafka.metadata.authorizer.StandardAuthorizer');
    expect(props.get('allow.everyone.if.no.acl.found')).toBe('false');
    expect(props.get('super.users')).toBe('User:admin;User:ANONYMOUS');
  });
});

describe('a broker whose clients come from Pods', () => {
  const props = parse(renderServerProperties({ dataDir: '/d', host: '127.0.0.1', clientHost: '10.244.0.1', ports: DEFAULT_KAFKA_PORTS, superUser: 'admin' }));

  it('binds and advertises only the SASL listener on the node address; the PLAINTEXT ones stay on loopback', () => {
    expect(props.get('listeners')).toBe('CLIENT://10.244.0.1:19092,INTERNAL://127.0.0.1:19093,CONTROLLER://127.0.0.1:19094');
    expect(props.get('advertised.listeners')).toBe('CLIENT://10.244.0.1:19092,INTERNAL://127.0.0.1:19093');
  });
});

describe('a broker-only node of the same cluster', () => {
  const ports = nodePorts(DEFAULT_KAFKA_PORTS, 2);
  const props = parse(renderServerProperties({ dataDir: '/d2', host: '127.0.0.1', ports, superUser: 'admin', nodeId: 2 }));

  it('takes the next three ports but joins node 1\u2019s controller', () => {
    expect(ports).toEqual({ client: 19095, internal: 19096, controller: 19094 });
    expect(nodePorts(DEFAULT_KAFKA_PORTS, 1)).toEqual(DEFAULT_KAFKA_PORTS);
    expect(() => nodePorts(DEFAULT_KAFKA_PORTS, 0)).toThrow(/start at 1/);
  });

  it('is a broker only, listening on its own client and internal ports', () => {
    expect(props.get('process.roles')).toBe('broker');
    expect(props.get('node.id')).toBe('2');
    expect(props.get('controller.quorum.voters')).toBe('1@127.0.0.1:19094');
    expect(props.get('listeners')).toBe('CLIENT://127.0.0.1:19095,INTERNAL://127.0.0.1:19096');
    expect(props.get('controller.listener.names')).toBe('CONTROLLER');
    expect(props.get('log.dirs')).toBe('/d2');
  });

  it('applies the same SASL listener and authorizer as node 1', () => {
    expect(props.get('listener.name.client.sasl.enabled.mechanisms')).toBe('SCRAM-SHA-512,SCRAM-SHA-256');
    expect(props.get('super.users')).toBe('User:admin;User:ANONYMOUS');
    expect(props.get('allow.everyone.if.no.acl.found')).toBe('false');
  });
});

describe('SCRAM secrets', () => {
  const user = { username: 'admin', password: 'p_w-1', mechanism: 'SCRAM-SHA-512' } as const;

  it('bootstraps every mechanism at format time', () => {
    expect(scramFormatArgs(user)).toEqual([
      '--add-scram',
      'SCRAM-SHA-512=[name=admin,password=p_w-1]',
      '--add-scram',
      'SCRAM-SHA-256=[name=admin,password=p_w-1]',
    ]);
  });

  it('refuses passwords the SCRAM and JAAS syntax cannot carry', () => {
    expect(() => scramFormatArgs({ ...user, password: 'a,b' })).toThrow(/must match/);
    expect(() => renderClientProperties('h:1', { ...user, password: 'a"b' })).toThrow(/must match/);
  });

  it('writes a client login for the Java tools', () => {
    expect(parse(renderClientProperties('127.0.0.1:19092', user)).get('sasl.jaas.config')).toBe(
      'org.apache.kafka.common.security.scram.ScramLoginModule required username="admin" password="p_w-1";',
    );
  });
});

describe('renderJavaArgFile', () => {
  it('quotes each argument and escapes quotes and backslashes', () => {
    expect(renderJavaArgFile(['-cp', 'a b', 'x"y\\z'])).toBe('"-cp"\n"a b"\n"x\\"y\\\\z"\n');
  });
});

describe('generateClusterId', () => {
  it('never starts with "-", which the storage tool would read as an option', () => {
    for (let i = 0; i < 2_000; i++) {
      const id = generateClusterId();
      expect(id).toMatch(/^[A-Za-z0-9_][A-Za-z0-9_-]{21}$/);
    }
  });
});
