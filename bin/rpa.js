#!/usr/bin/env node
// Thin launcher: the CLI is compiled to dist/ by `npm run build` (run on install by `prepare`),
// once, not at every start: after changing the sources, run `npm run build` (or `npm run dev`).
const built = new URL('../dist/cli/main.js', import.meta.url);
import(built.href)
  .then((m) => m.main(process.argv))
  .catch((err) => {
    const unbuilt = err?.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes(built.pathname);
    process.stderr.write(
      unbuilt ? 'rpa: dist/ is not built: run npm run build\n' : `rpa: ${err?.message ?? err}\n`,
    );
    process.exit(1);
  });
