/**
 * Takes an RDB snapshot from a running member over the network, as `redis-cli --rdb` does: it authenticates, asks
 * for the snapshot alone (`REPLCONF rdb-only 1`, Redis 7.0+), asks for a full resynchronisation (`PSYNC ? -1`, which
 * the replication user may run, and whose `+FULLRESYNC` reply names the replication offset the snapshot holds) and
 * passes the payload on as it arrives, with its SHA-256 and size computed on the way. The socket reads into one
 * buffer of {@link READ_BUFFER_BYTES} for the whole transfer (Node's `onread`), so reading allocates nothing per
 * chunk: a sink (`copyTo`) copies the payload straight out of it; `body`, a Readable, gets a copy of each piece.
 * Nothing is held in memory beyond that buffer and the consumer's own (the socket is paused while the consumer is
 * behind), and no access to the member's volume is needed.
 */
import { createHash } from 'node:crypto';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import type { PayloadSink, PayloadSource } from '../backup/payload.ts';
import { RdbPayloadParser, RdbProtocolError } from './rdb-payload.ts';

/** The one buffer a transfer's socket reads into. */
export const READ_BUFFER_BYTES = 64 * 1024;
/** The diskless end mark the parser may hold back and release with the next read. */
const HELD_BACK_BYTES = 40;

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

/**
 * A transfer in progress. Its payload goes either to one sink (`copyTo`, no copy but the sink's) or to `body`
 * (read it, and do not call `copyTo`); until one of them asks, the socket is paused.
 */
export interface RdbTransfer extends PayloadSource {
  /** The RDB bytes, each piece a copy. Errors (connection lost, refusal, timeout) are emitted on it, and reject `summary`. */
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
 * snapshot); read `body`, or call `copyTo`, to receive it. A refused login or `PSYNC` surfaces as an error on `body`
 * (or the sink's `fail`) and `summary`, carrying the server's message (never the password).
 */
export async function openRdbStream(source: RdbSource, options: RdbStreamOptions = {}): Promise<RdbTransfer> {
  const idleTimeoutMs = options.idleTimeoutMs ?? 30_000;
  // Every read lands in this one buffer; `onRead` is set below, before the first byte can arrive.
  let onRead: (bytes: Buffer) => boolean = () => false;
  const socket = await new Promise<Socket>((resolve, reject) => {
    const s = connect({ host: source.host, port: source.port, onread: { buffer: Buffer.allocUnsafe(READ_BUFFER_BYTES), callback: (nread, buffer) => onRead(Buffer.from(buffer.buffer, buffer.byteOffset, nread)) } });
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
  let failure: Error | undefined;
  let resolveSummary: (summary: RdbSummary) => void = () => undefined;
  let rejectSummary: (err: Error) => void = () => undefined;
  const summary = new Promise<RdbSummary>((resolve, reject) => {
    resolveSummary = resolve;
    rejectSummary = reject;
  });
  // The caller may only ever read `body`: keep an unobserved `summary` rejection from being unhandled.
  summary.catch(() => undefined);
  // Who takes the payload: nobody yet (what arrives is kept, one read's worth, and the socket paused), `body`, or a sink.
  let consumer: { readonly kind: 'none' } | { readonly kind: 'body' } | { readonly kind: 'sink'; readonly sink: PayloadSink } = { kind: 'none' };
  const pending: Buffer[] = [];
  let ended = false;
  const body = new Readable({
    read() {
      if (consumer.kind === 'none') {
        consumer = { kind: 'body' };
        for (const piece of pending.splice(0)) body.push(piece);
        if (ended) body.push(null);
      }
      if (!settled) socket.resume();
    },
    destroy(err, callback) {
      if (!settled) fail(err ?? new Error('the RDB stream was destroyed before it ended'));
      callback(null);
    },
  });
  const fail = (err: Error): void => {
    if (settled) return;
    settled = true;
    failure = err;
    socket.destroy();
    rejectSummary(err);
    // Nobody listens on an unread `body` while a sink takes the payload.
    if (consumer.kind === 'sink') consumer.sink.fail(err);
    else body.destroy(err);
  };
  /** Passes one piece on (valid only during this call); false: the consumer asks the socket to wait. */
  const deliver = (piece: Buffer): boolean => {
    if (consumer.kind === 'sink') return consumer.sink.write(piece);
    if (consumer.kind === 'body') return body.push(Buffer.from(piece));
    pending.push(Buffer.from(piece));
    return false;
  };
  const resumeWhenDrained = (sink: PayloadSink): void => {
    void sink.drained().then(() => {
      if (!settled) socket.resume();
    });
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
  onRead = (chunk) => {
    if (settled) return false;
    let step;
    try {
      step = parser.push(chunk);
    } catch (err) {
      fail(err instanceof RdbProtocolError ? new RdbProtocolError(`${source.host}:${source.port}: ${err.message}`) : (err as Error));
      return false;
    }
    sendNext();
    let wantsMore = true;
    for (const piece of step.payload) {
      hash.update(piece);
      sizeBytes += piece.length;
      if (!deliver(piece)) wantsMore = false;
    }
    if (step.done) {
      settled = true;
      ended = true;
      socket.destroy();
      const [, replicationId = '', offset = '0'] = /^FULLRESYNC (\S+) ([0-9]+)$/.exec(parser.replies[2] ?? '') ?? [];
      resolveSummary({ sizeBytes, sha256: hash.digest('hex'), replicationId, replicationOffset: Number(offset) });
      if (consumer.kind === 'sink') consumer.sink.end();
      else if (consumer.kind === 'body') body.push(null);
      return false;
    }
    if (!wantsMore && consumer.kind === 'sink') resumeWhenDrained(consumer.sink);
    // false pauses the socket; `body`'s read, the sink's drain or `copyTo` resumes it.
    return wantsMore;
  };
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
    maxWriteBytes: READ_BUFFER_BYTES + HELD_BACK_BYTES,
    copyTo(sink) {
      if (consumer.kind !== 'none') throw new Error('the RDB payload already has its consumer');
      consumer = { kind: 'sink', sink };
      if (failure !== undefined) {
        sink.fail(failure);
        return;
      }
      let wantsMore = true;
      for (const piece of pending.splice(0)) if (!sink.write(piece)) wantsMore = false;
      if (ended) sink.end();
      else if (wantsMore) socket.resume();
      else resumeWhenDrained(sink);
    },
    abort(reason) {
      fail(reason ?? new Error('the RDB transfer was aborted'));
    },
  };
}
