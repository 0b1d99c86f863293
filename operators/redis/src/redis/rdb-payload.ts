/**
 * The framing of the RDB a Redis server sends a replica after `SYNC` or `PSYNC` (what `redis-cli --rdb` reads), as a pure,
 * incremental parser: the replies before it, the newlines the server sends while it prepares the snapshot, then
 * either `$<length>\r\n` and that many bytes (disk-based sync), or `$EOF:<40-byte mark>\r\n`, the payload, and the
 * mark again (diskless sync, the default since Redis 7). No I/O.
 */

/** What {@link RdbPayloadParser.push} found in one chunk. */
export interface RdbParseStep {
  /** Payload bytes, in order (never a byte of the framing or of the end mark). */
  readonly payload: readonly Buffer[];
  /** True once the whole payload has been seen. */
  readonly done: boolean;
}

/** A refusal or a protocol violation by the server (its `-ERR …` line, or what was wrong). */
export class RdbProtocolError extends Error {
  override readonly name = 'RdbProtocolError';
}

const EOF_MARK_LENGTH = 40;

type State =
  | { readonly kind: 'replies'; readonly remaining: number }
  | { readonly kind: 'header' }
  | { readonly kind: 'sized'; remaining: number }
  | { readonly kind: 'marked'; readonly mark: Buffer }
  | { readonly kind: 'done' };

/**
 * Parses the server's bytes after the client sent commands whose `expectedReplies` status replies come before the
 * RDB (e.g. AUTH, REPLCONF, and PSYNC's `+FULLRESYNC`; `SYNC` itself has none). Each `+…` reply is accepted; a `-…` reply throws {@link RdbProtocolError} with the server's message.
 * Holds back at most 40 bytes of a diskless payload (the end mark may span chunks), never more, and those as a copy:
 * it keeps no reference to a chunk after {@link RdbPayloadParser.push} returns, so a caller may read every chunk into
 * the same buffer (the payload of a step is then valid until the next read). The payload is never copied or
 * concatenated: a step's pieces are views of the chunk, and of the held-back bytes.
 */
export class RdbPayloadParser {
  #state: State;
  #buffer: Buffer = Buffer.alloc(0);

  constructor(expectedReplies: number) {
    this.#state = expectedReplies > 0 ? { kind: 'replies', remaining: expectedReplies } : { kind: 'header' };
  }

  /** The payload's length when the server announced it (disk-based sync); `undefined` for diskless. */
  announcedLength: number | undefined;

  /** The status replies read so far, without their `+` (e.g. `OK`, `FULLRESYNC <replid> <offset>`). */
  readonly replies: string[] = [];

  /** Feeds one chunk; throws {@link RdbProtocolError} on a refusal or malformed framing. */
  push(chunk: Buffer): RdbParseStep {
    const payload: Buffer[] = [];
    if (this.#state.kind === 'marked' && chunk.length >= EOF_MARK_LENGTH) return this.#pushMarked(this.#state.mark, chunk, payload);
    this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk]);
    for (;;) {
      const state = this.#state;
      if (state.kind === 'done') {
        if (this.#buffer.length > 0) throw new RdbProtocolError(`the server sent ${this.#buffer.length} bytes after the RDB payload`);
        return { payload, done: true };
      }
      if (state.kind === 'replies' || state.kind === 'header') {
        // Newlines are the server's keepalive while it writes the snapshot (no reply line starts with one).
        let start = 0;
        while (start < this.#buffer.length && this.#buffer[start] === 0x0a) start++;
        const end = this.#buffer.indexOf('\r\n', start);
        if (end < 0) {
          // A copy: the caller may reuse the chunk (a reply line is short).
          this.#buffer = Buffer.from(this.#buffer.subarray(start));
          return { payload, done: false };
        }
        const line = this.#buffer.subarray(start, end).toString('latin1');
        this.#buffer = this.#buffer.subarray(end + 2);
        if (line.startsWith('-')) throw new RdbProtocolError(line.slice(1));
        if (state.kind === 'replies') {
          if (!line.startsWith('+')) throw new RdbProtocolError(`expected a status reply, got ${JSON.stringify(line.slice(0, 80))}`);
          this.replies.push(line.slice(1));
          this.#state = state.remaining > 1 ? { kind: 'replies', remaining: state.remaining - 1 } : { kind: 'header' };
          continue;
        }
        this.#state = headerState(line);
        if (this.#state.kind === 'sized') this.announcedLength = this.#state.remaining;
        continue;
      }
      if (state.kind === 'sized') {
        const take = Math.min(state.remaining, this.#buffer.length);
        if (take > 0) payload.push(this.#buffer.subarray(0, take));
        this.#buffer = this.#buffer.subarray(take);
        state.remaining -= take;
        if (state.remaining > 0) return { payload, done: false };
        this.#state = { kind: 'done' };
        continue;
      }
      // Diskless: everything but the last 40 bytes is payload until the buffer ends with the mark.
      if (this.#buffer.length >= EOF_MARK_LENGTH) {
        const rest = this.#buffer;
        this.#buffer = Buffer.alloc(0);
        return this.#pushMarked(state.mark, rest, payload);
      }
      // Fewer than 40 bytes: the end mark, or part of it, may be among them; kept as a copy.
      this.#buffer = Buffer.from(this.#buffer);
      return { payload, done: false };
    }
  }

  /**
   * A diskless chunk of at least 40 bytes: the held-back bytes and all of the chunk but its last 40 bytes are
   * payload, passed on as they are; the last 40 are the end mark, or held back (copied) until the next chunk.
   */
  #pushMarked(mark: Buffer, chunk: Buffer, payload: Buffer[]): RdbParseStep {
    if (this.#buffer.length > 0) payload.push(this.#buffer);
    const release = chunk.length - EOF_MARK_LENGTH;
    if (release > 0) payload.push(chunk.subarray(0, release));
    const tail = chunk.subarray(release);
    if (tail.equals(mark)) {
      this.#buffer = Buffer.alloc(0);
      this.#state = { kind: 'done' };
      return { payload, done: true };
    }
    this.#buffer = Buffer.from(tail);
    return { payload, done: false };
  }
}

/** The state after the bulk header line of the SYNC reply. */
function headerState(line: string): State {
  if (line.startsWith('$EOF:')) {
    const mark = Buffer.from(line.slice(5), 'latin1');
    if (mark.length !== EOF_MARK_LENGTH) throw new RdbProtocolError(`the diskless end mark has ${mark.length} bytes, not ${EOF_MARK_LENGTH}`);
    return { kind: 'marked', mark };
  }
  const length = /^\$([0-9]+)$/.exec(line)?.[1];
  if (length === undefined) throw new RdbProtocolError(`expected the RDB bulk header, got ${JSON.stringify(line.slice(0, 80))}`);
  return { kind: 'sized', remaining: Number(length) };
}
