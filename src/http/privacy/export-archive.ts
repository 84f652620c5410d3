import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import { ZipFile } from 'yazl';
import {
  EXPORT_FILES,
  type ExportFile,
  neutraliseCell,
  QUOTED_CELL,
  recordsOf,
} from '../../domain/export-files.js';
import { exportFolderNames } from '../../domain/export-folder-names.js';
import type { ExportedReview } from '../../domain/exported-review.js';
import { iso } from '../../domain/instant.js';
import type { AccessExport, AccessExportSection } from '../../services/privacy/get-access-export.js';

/**
 * The export as one JSON document, streamed: its reviews are read a page at a time as the
 * client takes them (get-access-export.ts).
 */
function exportDocument(exported: AccessExport): Readable {
  return Readable.from(
    chunked(
      (async function* () {
        yield `{"id":${JSON.stringify(exported.requestId)},"type":"accessExport",` +
          `"generatedAt":"${iso(exported.generatedAt)}","expiresAt":"${iso(exported.expiresAt)}","clients":[`;
        let firstSection = true;
        for (const section of exported.sections) {
          yield `${firstSection ? '' : ','}{"clientName":${JSON.stringify(section.clientName)},"reviews":[`;
          firstSection = false;
          let first = true;
          for await (const review of section.reviews()) {
            yield first ? review : `,${review}`;
            first = false;
          }
          yield ']}';
        }
        yield ']}';
      })(),
    ),
    { objectMode: false },
  );
}

async function* records(section: AccessExportSection, file: ExportFile) {
  for await (const text of section.reviews()) yield* recordsOf(file, JSON.parse(text) as ExportedReview);
}

/** Text in chunks of about 64 KiB: a chunk per record would cost the archive's deflate more than the record. */
async function* chunked(parts: AsyncIterable<string>) {
  let chunk = '';
  for await (const part of parts) {
    chunk += part;
    if (chunk.length >= 65_536) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk !== '') yield chunk;
}

async function* jsonFile(section: AccessExportSection, file: ExportFile) {
  yield '[';
  let first = true;
  for await (const record of records(section, file)) {
    yield `${first ? '' : ','}\n${JSON.stringify(record)}`;
    first = false;
  }
  yield '\n]\n';
}

/**
 * RFC 4180: CRLF between records, fields quoted when they hold a quote, a comma or a line break
 * (csv-stringify quotes a lone LF or CR only when told: review texts have them). Text is
 * neutralised and quoted as OWASP's CSV injection guidance says (domain/export-files.ts).
 */
const CSV = {
  record_delimiter: 'windows',
  quoted_match: QUOTED_CELL,
  cast: { string: neutraliseCell },
} as const;

async function* csvFile(section: AccessExportSection, file: ExportFile) {
  const columns = [...EXPORT_FILES[file]];
  // The byte order mark: without it a spreadsheet reads UTF-8 as its local code page.
  yield stringify([columns], { ...CSV, bom: true });
  for await (const record of records(section, file)) yield stringify([columns.map((c) => record[c])], CSV);
}

/**
 * The export as a ZIP archive (docs/privacy.md, Exports): a folder per client instance with
 * reviews, responses and profile fields, each as JSON and as CSV. Streamed: each file's records
 * are read from the database only when the archive reaches it, a page at a time.
 */
export function exportArchive(exported: AccessExport): Readable {
  const zip = new ZipFile();
  const output = zip.outputStream as Readable;
  // A page that cannot be read (the database gone, the section erased meanwhile) ends the
  // download as failed: the client gets a broken archive, never a complete-looking partial one,
  // and the process does not die of an unheard stream error.
  const fail = (err: unknown) => output.destroy(err instanceof Error ? err : new Error(String(err)));
  zip.on('error', fail);
  const mtime = new Date(exported.generatedAt);
  const entry = (path: string, text: () => AsyncIterable<string>) =>
    // Made when the archive reaches the entry, so its reads start only then.
    zip.addReadStreamLazy(path, { mtime }, (done) => {
      const stream = Readable.from(chunked(text()), { objectMode: false });
      stream.on('error', fail);
      done(null, stream);
    });
  const folders = exportFolderNames(exported.sections.map((s) => s.clientName));
  for (const [i, section] of exported.sections.entries()) {
    const folder = folders[i] as string;
    for (const file of Object.keys(EXPORT_FILES) as ExportFile[]) {
      entry(`${folder}/${file}.json`, () => jsonFile(section, file));
      entry(`${folder}/${file}.csv`, () => csvFile(section, file));
    }
  }
  zip.end();
  return output;
}

/** The export downloaded as `format`: its media type, file name, and body (streamed once asked for). */
export function exportDownload(exported: AccessExport, format: 'json' | 'zip') {
  return {
    mediaType: format === 'zip' ? 'application/zip' : 'application/json; charset=utf-8',
    fileName: `access-export-${exported.requestId}.${format}`,
    body: () => (format === 'zip' ? exportArchive(exported) : exportDocument(exported)),
  };
}
