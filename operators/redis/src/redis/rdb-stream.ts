/**
 * Takes an RDB snapshot from a running member over the network, as `redis-cli --rdb` does: it authenticates, asks
 * for the snapshot alone (`REPLCONF rdb-only 1`, Redis 7.0+), asks for a full resynchronisation (`PSYNC ? -1`, which
 * the replication user may run, and whose `+FULLRESYNC` reply names the replication offset the snapshot holds) and
 * streams the payload out as it arrives, with its SHA-256 and size computed on the way. Nothing is held in memory beyond the socket's and the
 * stream's buffers (the socket is paused while the consumer is behind), and no access to the member's volume is
 * needed.
 */
import { createHash } from 'node:crypto';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import { RdbPayloadParser, RdbProtocolError } from './rdb-payload.ts';

/** Where and as whom to take the snapshot. The password is a secret: it is never part of an error. */
export interface RdbSource {
  readonly host: string;
  readonly port: number;
  /** A user allowed `REPLCONF` and `PSYNC` (the operator's replication user). */
  readonly username: string;
  readonly password: string;
}

/** Options of {@link openRdbStream}. */
export interface RdbStreamOptions {
  /** Connecting, and every silence of the server longer than this, fail the transfer; default 30 s. */
  readonly idleTimeoutMs?: number;
}

/** What the whole transfer came to, once the last byte was read. */
export interface RdbSummary {
  readonly sizeBytes: number;
  /** The replication id and offset the snapshot is consistent with (from `+FULLRESYNC <replid> <offset>`). */
  readonly replicationId: string;
  readonly replicationOffset: number;
  /** Lower-case hex SHA-256 of the payload (the `.rdb` file's bytes). */
  readonly sha256: string;
}

/** A transfer in progress. */
export interface RdbTransfer {
  /** The RDB bytes. Errors (connection lost, refusal, timeout) are emitted on it, and reject `summary`. */
  readonly body: Readable;
  /** Resolves after the last byte was pushed to `body`; rejects on any failure. */
  readonly summary: Promise<RdbSummary>;
  /** Aborts the transfer (the socket is destroyed, `body` and `summary` fail). */
  abort(reason?: Error): void;
}

/** RESP encoding of one command. Pure. */
export function respCommand(args: readonly string[]): Buffer {
  const parts = args.map((arg) => {
    const bytes = Buffer.from(arg, 'utf8');
    return `$${bytes.length}\r\n${bytes.toString('utf8')}\r\n`;
  });
  return Buffer.from(`*${args.length}\r\n${parts.join('')}`, 'utf8');
}

/**
 * Connects to `source` and starts the snapshot. Resolves once connected (the server may still be preparing the
 * snapshot); read `body` to receive it. A refused login or `PSYNC` surfaces as an error on `body` and `summary`
 * carrying the server's message (never the password).
 */
export async function openRdbStream(source: RdbSource, options: RdbStreamOptions = {}): Promise<RdbTransfer> {
  const idleTimeoutMs = options.idleTimeoutMs ?? 30_000;
  const socket = await new Promise<Socket>((resolve, reject) => {
    const s = connect({ host: source.host, port: source.port });
    s.setTimeout(idleTimeoutMs, () => {
      s.destroy(new Error(`connecting to ${source.host}:${source.port} timed out after ${idleTimeoutMs} ms`));
    });
    s.once('connect', () => {
      resolve(s);
    });
    s.once('error', reject);
  });
  socket.setNoDelay(true);
  const parser = new RdbPayloadParser(3);
  const hash = createHash('sha256');
  let sizeBytes = 0;
  let settled = false;
  let resolveSummary: (summary: RdbSummary) => void = () => undefined;
  let rejectSummary: (err: Error) => void = () => undefined;
  const summary = new Promise<RdbSummary>((resolve, reject) => {
    resolveSummary = resolve;
    rejectSummary = reject;
  });
  // The caller may only ever read `body`: keep an unobserved `summary` rejection from being unhandled.
  summary.catch(() => undefined);
  const body = new Readable({
    read() {
      socket.resume();
    },
    destroy(err, callback) {
      if (!settled) fail(err ?? new Error('the RDB stream was destroyed before it ended'));
      callback(null);
    },
  });
  const fail = (err: Error): void => {
    if (settled) return;
    settled = true;
    socket.destroy();
    rejectSummary(err);
    body.destroy(err);
  };
  socket.setTimeout(idleTimeoutMs, () => {
    fail(new Error(`${source.host}:${source.port} sent nothing for ${idleTimeoutMs} ms`));
  });
  // One command at a time: Redis refuses PSYNC while earlier replies are still pending ("invalid with pending output").
  const commands = [respCommand(['AUTH', source.username, source.password]), respCommand(['REPLCONF', 'rdb-only', '1']), respCommand(['PSYNC', '?', '-1'])];
  let sent = 0;
  const sendNext = (): void => {
    const next = commands[sent];
    if (next === undefined || parser.replies.length < sent) return;
    sent++;
    socket.write(next);
  };
  socket.on('data', (chunk: Buffer) => {
    if (settled) return;
    let step;
    try {
      step = parser.push(chunk);
    } catch (err) {
      fail(err instanceof RdbProtocolError ? new RdbProtocolError(`${source.host}:${source.port}: ${err.message}`) : (err as Error));
      return;
    }
    sendNext();
    let wantsMore = true;
    for (const part of step.payload) {
      hash.update(part);
      sizeBytes += part.length;
      wantsMore = body.push(part);
    }
    if (step.done) {
      settled = true;
      socket.destroy();
      const [, replicationId = '', offset = '0'] = /^FULLRESYNC (\S+) ([0-9]+)$/.exec(parser.replies[2] ?? '') ?? [];
      resolveSummary({ sizeBytes, sha256: hash.digest('hex'), replicationId, replicationOffset: Number(offset) });
      body.push(null);
      return;
    }
    if (!wantsMore) socket.pause();
  });
  socket.on('error', (err) => {
    fail(new Error(`${source.host}:${source.port}: ${err.message}`));
  });
  socket.on('close', () => {
    fail(new Error(`${source.host}:${source.port} closed the connection before the RDB payload ended (${sizeBytes} bytes read)`));
  });
  sendNext();
  return {
    body,
    summary,
    abort(reason) {
      fail(reason ?? new Error('the RDB transfer was aborted'));
    },
  };
}
