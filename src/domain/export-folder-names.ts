/** The longest folder name made from a client name, before a suffix that tells two apart. */
const MAX_FOLDER_CHARS = 100;

/**
 * Windows' device names: a file or folder whose name before its first dot is one of them, in any
 * case, names the device instead (`aux.txt` too), and cannot be made.
 */
const DEVICE_NAME = /^(CON|PRN|AUX|NUL|COM[0-9]|LPT[0-9])$/i;

/**
 * A client name as one folder name that Windows, macOS and Linux all create as given: letters,
 * digits and `._-` only (every other character, control characters and `<>:"/\|?*` included,
 * becomes `_`), at most MAX_FOLDER_CHARS, no leading dot (hidden, or `.` and `..`), no trailing dot
 * (Windows drops it), and `_` after a device name (`CON_`, `aux_.txt`).
 */
function validFolderName(clientName: string): string {
  const safe = clientName
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .slice(0, MAX_FOLDER_CHARS)
    .replace(/^\.+/, '_')
    .replace(/\.+$/, '_');
  if (safe === '') return '_';
  const stem = safe.split('.', 1)[0] as string;
  return DEVICE_NAME.test(stem) ? `${stem}_${safe.slice(stem.length)}` : safe;
}

/**
 * The folder of each client in an access export archive (docs/privacy.md, Exports), in the order
 * given: valid everywhere (validFolderName), and no two the same folder on a file system that
 * ignores case (Windows, macOS). Clients whose folders would be one share it out in code order,
 * names already valid first: the first keeps the name, the others get ` (2)`, ` (3)`… A space and
 * parentheses never occur in a name made valid, so a suffixed name is no other client's. The
 * names depend on the set of clients alone, not on the order they come in.
 */
export function exportFolderNames(clientNames: readonly string[]): string[] {
  const entries = clientNames.map((name, index) => {
    const folder = validFolderName(name);
    return { name, index, folder, changed: folder !== name };
  });
  const ordered = [...entries].sort(
    (a, b) => Number(a.changed) - Number(b.changed) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );
  const seen = new Map<string, number>();
  const folders: string[] = [];
  for (const { index, folder } of ordered) {
    const key = folder.toLowerCase();
    const count = (seen.get(key) ?? 0) + 1;
    seen.set(key, count);
    folders[index] = count === 1 ? folder : `${folder} (${count})`;
  }
  return folders;
}
