import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { exportFolderNames } from '../../src/domain/export-folder-names.js';
import { distinctIgnoringCase, validEverywhere } from '../helpers/folder-names.js';

describe('export folder names', () => {
  it('keeps a client name that is a valid folder name as it is', () => {
    assert.deepEqual(exportFolderNames(['Acme-EN_GB', 'Acme-DE_DE', 'shop.example']), [
      'Acme-EN_GB',
      'Acme-DE_DE',
      'shop.example',
    ]);
  });

  it('gives names that differ only in case a folder each, the first in code order keeping its name', () => {
    assert.deepEqual(exportFolderNames(['case-en_gb', 'Case-EN_GB', 'CASE-en_gb']), [
      'case-en_gb (3)',
      'Case-EN_GB (2)',
      'CASE-en_gb',
    ]);
  });

  it('renames device names, with or without an extension, in any case', () => {
    assert.deepEqual(
      exportFolderNames(['CON', 'aux.txt', 'nul.tar.gz', 'Com1', 'lpt9.x', 'CONSOLE', 'com10']),
      ['CON_', 'aux_.txt', 'nul_.tar.gz', 'Com1_', 'lpt9_.x', 'CONSOLE', 'com10'],
    );
  });

  it('replaces what a file system refuses, and a leading or trailing dot', () => {
    assert.deepEqual(
      exportFolderNames(['a<b>c:d"e/f\\g|h?i*j', 'tab\there', '..', '.hidden', 'end.', 'x'.repeat(300)]),
      ['a_b_c_d_e_f_g_h_i_j', 'tab_here', '_', '_hidden', 'end_', 'x'.repeat(100)],
    );
  });

  it('leaves a valid name to its client before a name made the same', () => {
    assert.deepEqual(exportFolderNames(['Acme EN', 'Acme_EN', 'CON', 'CON_']), [
      'Acme_EN (2)',
      'Acme_EN',
      'CON_ (2)',
      'CON_',
    ]);
  });

  it('gives the same names for the same clients, in whatever order they come', () => {
    const names = ['Case-EN_GB', 'case-en_gb', 'CON', 'aux.txt'];
    const once = exportFolderNames(names);
    const reversed = exportFolderNames([...names].reverse()).reverse();
    assert.deepEqual(reversed, once);
  });

  it('always gives valid names, no two the same ignoring case, each keeping what it can', () => {
    const clientName = fc.oneof(
      fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,12}$/),
      fc.constantFrom('CON', 'con', 'Aux.txt', 'nul.', 'COM1', 'lpt1.log', 'a', 'A', 'a.', '.a'),
      fc.string({ maxLength: 12 }),
    );
    fc.assert(
      fc.property(fc.uniqueArray(clientName, { maxLength: 12 }), (names) => {
        const folders = exportFolderNames(names);
        assert.equal(folders.length, names.length);
        for (const folder of folders) assert.ok(validEverywhere(folder), JSON.stringify(folder));
        assert.ok(distinctIgnoringCase(folders), JSON.stringify(folders));
      }),
    );
  });
});
