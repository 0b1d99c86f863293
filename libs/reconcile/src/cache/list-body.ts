// Byte values the scanner looks at.
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;

/** A list body as {@link ListBodyParser.end} returns it: the top-level members, and the items parsed one by one. */
export interface ParsedListBody {
  /** Every top-level member of the body except `items` (kind, apiVersion, metadata, …). */
  readonly rest: Record<string, unknown>;
  /** The elements of the top-level `items` array, in order; empty when the body has none. */
  readonly items: unknown[];
}

// Where the byte being scanned belongs: the top-level object outside the items' elements (kept, parsed at the end),
// the items array between elements (commas, blanks: dropped), or one element (parsed when it closes).
const REST = 0;
const BETWEEN = 1;
const ELEMENT = 2;
type Sink = typeof REST | typeof BETWEEN | typeof ELEMENT;

function isBlank(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/**
 * Parses the JSON body of a Kubernetes list while it arrives: feed it the raw chunks with {@link ListBodyParser.push}
 * and each element of the top-level `items` array is parsed as soon as its last byte is in, so decoding overlaps
 * with the server still sending, instead of joining the whole body into one string and parsing it at the end (which
 * also held the body's bytes, its text and its objects at once). Everything outside `items` is kept as bytes and
 * parsed by {@link ListBodyParser.end}. For a body whose `items` holds objects (as every list does), the result
 * equals `JSON.parse` of the whole body however it is split into chunks. Malformed JSON, or an `items` element that
 * is not an object or array, throws a `SyntaxError` from `push` or `end`. One parser reads one body.
 */
export class ListBodyParser {
  readonly #rest: Buffer[] = [];
  readonly #items: unknown[] = [];
  // The bytes of the element being read while it spans chunks (most do: the apiserver's HTTP chunks are ~1.5 KB),
  // copied into one scratch buffer that grows to the largest element and is reused: no slice object per piece and
  // no Buffer.concat per element.
  #element: Buffer = Buffer.allocUnsafe(16_384);
  #elementLength = 0;
  #sink: Sink = REST;
  #depth = 0;
  #inString = false;
  #escaped = false;
  // Pieces of a string at depth 1 (a top-level key or value) that spans chunks, to recognise the key `items`.
  #topString: Buffer[] | undefined;
  // The last token at depth 1 was the string `"items"` (then `:` keeps it; anything else but blanks clears it).
  #afterItemsKey = false;

  /** Reads the next chunk of the body. Throws a `SyntaxError` when a completed element is not valid JSON. */
  push(chunk: Buffer): void {
    // State in locals while scanning (written back at the end): this loop sees every byte outside strings.
    let depth = this.#depth;
    let sink = this.#sink;
    let afterItemsKey = this.#afterItemsKey;
    let from = 0; // first byte of this chunk not yet handed to the current sink
    const length = chunk.length;
    if (length === 0) return;
    let i = 0;
    if (this.#inString) {
      // A string that began in an earlier chunk.
      i = this.#stringEnd(chunk, 0, this.#escaped);
      if (i < 0) {
        this.#topString?.push(Buffer.from(chunk));
        if (sink === ELEMENT) this.#appendElement(chunk, 0, length);
        else this.#keep(chunk, 0, length);
        return;
      }
      this.#inString = false;
      if (this.#topString !== undefined) afterItemsKey = this.#closeTopString(chunk, i);
      i++;
    }
    for (; i < length; i++) {
      const byte = chunk[i] ?? 0;
      if (sink === BETWEEN) {
        if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
          depth++;
          sink = ELEMENT;
          from = i;
        } else if (byte === CLOSE_ARRAY) {
          // The items array closes: its bracket goes back to the rest, which then reads `"items":[]`.
          depth--;
          sink = REST;
          from = i;
        } else if (byte !== COMMA && !isBlank(byte)) {
          throw new SyntaxError('list body: an element of items is not an object');
        }
        continue;
      }
      switch (byte) {
        case QUOTE: {
          const top = depth === 1;
          const close = this.#stringEnd(chunk, i + 1, false);
          if (close < 0) {
            // The string goes on in the next chunk.
            this.#inString = true;
            if (top) this.#topString = [Buffer.from(chunk.subarray(i + 1))];
            i = length;
            break;
          }
          if (top) afterItemsKey = close - i - 1 === 5 && chunk.toString('latin1', i + 1, close) === 'items';
          i = close;
          break;
        }
        case OPEN_OBJECT:
        case OPEN_ARRAY:
          if (depth === 1 && byte === OPEN_ARRAY && afterItemsKey) {
            // The items array opens: its bracket stays in the rest, its elements go their own way.
            this.#keep(chunk, from, i + 1);
            sink = BETWEEN;
          }
          depth++;
          afterItemsKey = false;
          break;
        case CLOSE_OBJECT:
        case CLOSE_ARRAY:
          depth--;
          if (sink === ELEMENT && depth === 2) {
            this.#completeElement(chunk, from, i + 1);
            sink = BETWEEN;
          }
          break;
        default:
          if (depth === 1 && byte !== COLON && !isBlank(byte)) afterItemsKey = false;
      }
    }
    this.#depth = depth;
    this.#sink = sink;
    this.#afterItemsKey = afterItemsKey;
    if (sink === ELEMENT) this.#appendElement(chunk, from, length);
    else if (sink === REST) this.#keep(chunk, from, length);
  }

  /** Parses what is left and returns the body. Throws a `SyntaxError` for malformed or truncated JSON. */
  end(): ParsedListBody {
    if (this.#depth !== 0 || this.#inString) throw new SyntaxError('list body: unexpected end of JSON');
    const parsed: unknown = JSON.parse(Buffer.concat(this.#rest).toString('utf8'));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new SyntaxError('list body: not a JSON object');
    const { items: _items, ...rest } = parsed as Record<string, unknown>;
    return { rest, items: this.#items };
  }

  /**
   * The index of the quote that ends the string whose content starts at `from` (the byte at `from` escaped when
   * `escaped`), or -1 when the string goes past the chunk; then #escaped says whether the chunk ends mid-escape.
   * Searches natively (`indexOf`) instead of byte by byte: most of a list's bytes are inside strings.
   */
  #stringEnd(chunk: Buffer, from: number, escaped: boolean): number {
    const floor = escaped ? from + 1 : from; // a backslash before this index escapes nothing in this chunk
    for (let search = floor; ; ) {
      const quote = chunk.indexOf(QUOTE, search);
      const end = quote < 0 ? chunk.length : quote;
      let backslashes = 0;
      while (end - backslashes - 1 >= floor && chunk[end - backslashes - 1] === BACKSLASH) backslashes++;
      if (quote < 0) {
        this.#escaped = backslashes % 2 === 1;
        return -1;
      }
      if (backslashes % 2 === 0) return quote;
      search = quote + 1;
    }
  }

  // A top-level string that began in an earlier chunk ends at `to`: whether it was the key `items`.
  #closeTopString(chunk: Buffer, to: number): boolean {
    const pieces = this.#topString ?? [];
    pieces.push(chunk.subarray(0, to));
    this.#topString = undefined;
    return Buffer.concat(pieces).toString('utf8') === 'items';
  }

  // Copied: a slice would keep the whole chunk (and the elements' bytes in it) alive until the end of the body.
  #keep(chunk: Buffer, from: number, to: number): void {
    if (to > from) this.#rest.push(Buffer.from(chunk.subarray(from, to)));
  }

  #appendElement(chunk: Buffer, from: number, to: number): void {
    const needed = this.#elementLength + to - from;
    if (needed > this.#element.length) {
      const grown = Buffer.allocUnsafe(Math.max(needed, this.#element.length * 2));
      this.#element.copy(grown, 0, 0, this.#elementLength);
      this.#element = grown;
    }
    this.#elementLength += chunk.copy(this.#element, this.#elementLength, from, to);
  }

  #completeElement(chunk: Buffer, from: number, to: number): void {
    let text: string;
    if (this.#elementLength === 0) {
      text = chunk.toString('utf8', from, to);
    } else {
      this.#appendElement(chunk, from, to);
      text = this.#element.toString('utf8', 0, this.#elementLength);
      this.#elementLength = 0;
    }
    this.#items.push(JSON.parse(text));
  }
}
