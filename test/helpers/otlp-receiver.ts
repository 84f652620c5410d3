import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/**
 * An OTLP/HTTP traces receiver on loopback (https://opentelemetry.io/docs/specs/otlp/#otlphttp):
 * POST /v1/traces in protobuf or JSON, each span read into one shape whichever was sent. The
 * protobuf is read with the wire format alone (https://protobuf.dev/programming-guides/encoding/)
 * and the field numbers of opentelemetry-proto's trace.proto, common.proto and resource.proto.
 */

type AttributeValue = string | number | boolean;

export interface ReceivedSpan {
  readonly name: string;
  /** SpanKind: 1 internal, 2 server, 3 client. */
  readonly kind: number;
  readonly traceId: string;
  readonly spanId: string;
  /** Empty for a root span. */
  readonly parentSpanId: string;
  readonly attributes: Readonly<Record<string, AttributeValue>>;
  /** Status code: 0 unset, 1 ok, 2 error. */
  readonly status: number;
  readonly startNs: bigint;
  readonly endNs: bigint;
  readonly links: readonly { readonly traceId: string; readonly spanId: string }[];
  readonly resource: Readonly<Record<string, AttributeValue>>;
}

type Fields = Map<number, (bigint | Buffer)[]>;

/** The fields of one protobuf message: varints and fixed numbers as bigint, the rest as bytes. */
function fields(buf: Buffer): Fields {
  const out: Fields = new Map();
  let at = 0;
  const varint = () => {
    let value = 0n;
    for (let shift = 0n; ; shift += 7n) {
      const byte = buf[at++] as number;
      value |= BigInt(byte & 0x7f) << shift;
      if (byte < 0x80) return value;
    }
  };
  while (at < buf.length) {
    const key = Number(varint());
    const [field, wire] = [key >>> 3, key & 7];
    let value: bigint | Buffer;
    if (wire === 0) value = varint();
    else if (wire === 1) value = buf.readBigUInt64LE(at);
    else if (wire === 5) value = BigInt(buf.readUInt32LE(at));
    else if (wire === 2) {
      const length = Number(varint());
      value = buf.subarray(at, at + length);
      at += length;
    } else throw new Error(`unexpected wire type ${wire}`);
    if (wire === 1) at += 8;
    if (wire === 5) at += 4;
    out.set(field, [...(out.get(field) ?? []), value]);
  }
  return out;
}

const bytes = (f: Fields, n: number) => (f.get(n)?.[0] as Buffer | undefined) ?? Buffer.alloc(0);
const text = (f: Fields, n: number) => bytes(f, n).toString('utf8');
const number = (f: Fields, n: number) => (f.get(n)?.[0] as bigint | undefined) ?? 0n;
const messages = (f: Fields, n: number) => ((f.get(n) ?? []) as Buffer[]).map(fields);

function anyValue(f: Fields): AttributeValue {
  if (f.has(1)) return text(f, 1);
  if (f.has(2)) return number(f, 2) !== 0n;
  if (f.has(3)) return Number(BigInt.asIntN(64, number(f, 3)));
  if (f.has(4)) {
    const double = Buffer.alloc(8);
    double.writeBigUInt64LE(number(f, 4));
    return double.readDoubleLE(0);
  }
  return '';
}

function keyValues(list: Fields[]): Record<string, AttributeValue> {
  return Object.fromEntries(list.map((kv) => [text(kv, 1), anyValue(messages(kv, 2)[0] ?? new Map())]));
}

function fromProtobuf(body: Buffer): ReceivedSpan[] {
  return messages(fields(body), 1).flatMap((resourceSpans) => {
    const resource = keyValues(messages(messages(resourceSpans, 1)[0] ?? new Map(), 1));
    return messages(resourceSpans, 2).flatMap((scopeSpans) =>
      messages(scopeSpans, 2).map((s) => ({
        name: text(s, 5),
        kind: Number(number(s, 6)),
        traceId: bytes(s, 1).toString('hex'),
        spanId: bytes(s, 2).toString('hex'),
        parentSpanId: bytes(s, 4).toString('hex'),
        attributes: keyValues(messages(s, 9)),
        status: Number(number(messages(s, 15)[0] ?? new Map(), 3)),
        startNs: number(s, 7),
        endNs: number(s, 8),
        links: messages(s, 13).map((l) => ({
          traceId: bytes(l, 1).toString('hex'),
          spanId: bytes(l, 2).toString('hex'),
        })),
        resource,
      })),
    );
  });
}

interface JsonValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
}
type JsonAttributes = { key: string; value: JsonValue }[] | undefined;

const jsonAttributes = (list: JsonAttributes) =>
  Object.fromEntries(
    (list ?? []).map(({ key, value }) => [
      key,
      value.stringValue ??
        value.boolValue ??
        (value.intValue !== undefined ? Number(value.intValue) : (value.doubleValue ?? '')),
    ]),
  );

function fromJson(body: Buffer): ReceivedSpan[] {
  // biome-ignore lint/suspicious/noExplicitAny: OTLP JSON, read field by field below.
  const request = JSON.parse(body.toString('utf8')) as { resourceSpans?: any[] };
  return (request.resourceSpans ?? []).flatMap((rs) =>
    // biome-ignore lint/suspicious/noExplicitAny: as above.
    (rs.scopeSpans ?? []).flatMap((ss: any) =>
      // biome-ignore lint/suspicious/noExplicitAny: as above.
      (ss.spans ?? []).map((s: any) => ({
        name: s.name,
        kind: s.kind ?? 0,
        traceId: s.traceId,
        spanId: s.spanId,
        parentSpanId: s.parentSpanId ?? '',
        attributes: jsonAttributes(s.attributes),
        status: s.status?.code ?? 0,
        startNs: BigInt(s.startTimeUnixNano),
        endNs: BigInt(s.endTimeUnixNano),
        links: (s.links ?? []).map((l: { traceId: string; spanId: string }) => ({
          traceId: l.traceId,
          spanId: l.spanId,
        })),
        resource: jsonAttributes(rs.resource?.attributes),
      })),
    ),
  );
}

export interface OtlpReceiver {
  /** The base URL, for OTEL_EXPORTER_OTLP_ENDPOINT. */
  readonly base: string;
  readonly spans: ReceivedSpan[];
  /** The content types of the exports received, in order. */
  readonly contentTypes: string[];
  /** Resolves with the first span received that matches, waiting for it up to `timeoutMs`. */
  waitFor(match: (span: ReceivedSpan) => boolean, timeoutMs?: number): Promise<ReceivedSpan>;
  close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const contentTypes: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body = Buffer.concat(chunks);
      if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
      const type = req.headers['content-type'] ?? '';
      contentTypes.push(type);
      const json = type.startsWith('application/json');
      if (req.method !== 'POST' || req.url !== '/v1/traces') return void res.writeHead(404).end();
      spans.push(...(json ? fromJson(body) : fromProtobuf(body)));
      res.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' });
      res.end(json ? '{}' : undefined);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    spans,
    contentTypes,
    async waitFor(match, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = spans.find(match);
        if (found) return found;
        if (Date.now() > deadline)
          throw new Error(
            `no such span in ${timeoutMs} ms; received: ${spans.map((s) => s.name).join(', ')}`,
          );
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
