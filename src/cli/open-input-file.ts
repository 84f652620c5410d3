import { type FileHandle, open } from 'node:fs/promises';
import { CliError } from './cli-error.js';

const REASONS: Record<string, string> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'it is a directory',
  ENOTDIR: 'a part of the path is not a directory',
  ELOOP: 'too many symbolic links',
  ENAMETOOLONG: 'the name is too long',
};

/**
 * Opens a file the command will read, before anything else happens, so a wrong path is one clear
 * line ("cannot read x: no such file") rather than a system error code, and a directory is refused
 * up front rather than failing on the first read.
 */
export async function openInputFile(path: string): Promise<FileHandle> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(path, 'r');
    const stat = await handle.stat();
    if (stat.isDirectory()) throw Object.assign(new Error('directory'), { code: 'EISDIR' });
    return handle;
  } catch (err) {
    await handle?.close();
    const code = (err as NodeJS.ErrnoException).code ?? '';
    throw new CliError(`cannot read ${path}: ${REASONS[code] ?? (err as Error).message}`);
  }
}
