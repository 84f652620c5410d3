#!/usr/bin/env node
// Thin launcher: the CLI is compiled to dist/ by `npm run build` (run on install by `prepare`).
import('../dist/cli/main.js')
  .then((m) => m.main(process.argv))
  .catch((err) => {
    process.stderr.write(`rpa: ${err?.message ?? err}\n`);
    process.exit(1);
  });
