/**
 * A folder name every common file system keeps as given: none of the characters Windows refuses
 * (`<>:"/\|?*` and control characters), no trailing dot or space (Windows drops them), not a
 * device name with or without an extension, in any case (CON, PRN, AUX, NUL, COM0-9, LPT0-9),
 * no leading dot (hidden on Linux and macOS; `.` and `..` are no folders), and not too long.
 */
export function validEverywhere(name: string): boolean {
  return (
    name.length > 0 &&
    name.length <= 255 &&
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for
    !/[<>:"/\\|?*\u0000-\u001f\u007f]/.test(name) &&
    !/[. ]$/.test(name) &&
    !name.startsWith('.') &&
    !/^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\.|$)/i.test(name)
  );
}

/** Whether no two names are one folder on a file system that ignores case. */
export const distinctIgnoringCase = (names: readonly string[]) =>
  new Set(names.map((n) => n.toLowerCase())).size === names.length;
