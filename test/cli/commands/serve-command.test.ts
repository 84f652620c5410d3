import { describe, it } from 'node:test';
import { assertHelpListsVariables } from '../../helpers/variables-read.js';

describe('rpa serve --help', () => {
  it('lists every environment variable the configuration reads', () => assertHelpListsVariables('serve'));
});
